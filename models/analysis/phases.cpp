// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/phases.h"

#include <QObject>
#include <QRegularExpression>
#include <algorithm>

namespace {

QString firstLine(const Annotation &annotation)
{
    return annotation.text.section(QLatin1Char('\n'), 0, 0).simplified();
}

// A phase's title names what started it, short enough for a table header.
QString shortened(const QString &name)
{
    constexpr int kMax = 40;
    return name.size() <= kMax ? name : name.left(kMax - 1) + QChar(0x2026);
}

} // namespace

namespace Phases {

bool isDone(const Annotation &annotation)
{
    if (annotation.suggested || annotation.tags.contains(QStringLiteral("verdict")))
        return false;
    switch (annotation.source) {
    case Annotation::Source::Action:
    case Annotation::Source::Scenario:
    case Annotation::Source::Kubernetes:
        return true;
    case Annotation::Source::Manual:
    case Annotation::Source::Detector:
    case Annotation::Source::Query:
        return false;
    }
    return false;
}

bool startsPhase(const Annotation &annotation)
{
    return isDone(annotation) || (annotation.source == Annotation::Source::Manual && !annotation.suggested &&
                                  annotation.tags.contains(QStringLiteral("phase")));
}

QString phaseName(const Annotation &annotation)
{
    static const QRegularExpression phaseTag(QStringLiteral(R"((^|\s)#phase(?=\s|$))"));
    return firstLine(annotation).remove(phaseTag).simplified();
}

std::vector<Annotation> boundaries(const std::vector<Annotation> &annotations)
{
    std::vector<Annotation> starts;
    for (const Annotation &annotation : annotations) {
        if (startsPhase(annotation))
            starts.push_back(annotation);
    }
    std::stable_sort(starts.begin(), starts.end(),
                     [](const Annotation &a, const Annotation &b) { return a.timeMs < b.timeMs; });
    std::vector<Annotation> merged;
    for (const Annotation &annotation : starts) {
        if (merged.empty() || annotation.timeMs - merged.back().timeMs >= kMergeMs)
            merged.push_back(annotation);
    }
    return merged;
}

std::vector<Phase> of(const TimeRange &range, const std::vector<Annotation> &annotations)
{
    std::vector<Phase> result{{QObject::tr("visible range"), range, {}, range.startMs}};
    const std::vector<Annotation> starts = boundaries(annotations);
    // The boundaries strictly inside the range split it; the last one at or before its start
    // began the phase the range opens in.
    const Annotation *opening = nullptr;
    std::vector<const Annotation *> marks;
    for (const Annotation &a : starts) {
        if (a.timeMs <= range.startMs)
            opening = &a;
        else if (a.timeMs <= range.endMs)
            marks.push_back(&a);
    }
    if (marks.empty()) {
        if (opening) {
            result.front().startedBy = phaseName(*opening);
            result.front().startedAtMs = opening->timeMs;
        }
        return result;
    }
    result.push_back({QObject::tr("before %1").arg(shortened(phaseName(*marks.front()))),
                      {range.startMs, marks.front()->timeMs - 1},
                      opening ? phaseName(*opening) : QString(),
                      opening ? opening->timeMs : range.startMs});
    for (std::size_t i = 0; i + 1 < marks.size(); ++i) {
        result.push_back(
            {QStringLiteral("%1 \u2192 %2").arg(shortened(phaseName(*marks[i])), shortened(phaseName(*marks[i + 1]))),
             {marks[i]->timeMs, marks[i + 1]->timeMs - 1},
             phaseName(*marks[i]),
             marks[i]->timeMs});
    }
    result.push_back({QObject::tr("after %1").arg(shortened(phaseName(*marks.back()))),
                      {marks.back()->timeMs, range.endMs},
                      phaseName(*marks.back()),
                      marks.back()->timeMs});
    return result;
}

} // namespace Phases
