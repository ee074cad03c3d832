// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/phasestatistics.h"

#include "base/format.h"
#include "base/markdown.h"
#include "store/seriesstatistics.h"

#include <QLocale>
#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace {

// A column title names the annotation by its first line, short enough for a table header.
QString firstLine(const Annotation &annotation)
{
    return annotation.text.section(QLatin1Char('\n'), 0, 0).simplified();
}

// A column title names a phase short enough for a table header.
QString shortened(const QString &name)
{
    constexpr int kMax = 40;
    return name.size() <= kMax ? name : name.left(kMax - 1) + QChar(0x2026);
}

QString plainNumber(const std::optional<double> &value)
{
    // Six significant digits: what a spreadsheet needs, without float noise.
    return value ? QLocale::c().toString(*value, 'g', 6) : QString();
}

} // namespace

QString PhaseStatisticsTable::checkTitle(const Check &check)
{
    return QStringLiteral("%1 %2").arg(check.name, check.condition.describe(check.unit));
}

QString PhaseStatisticsTable::statisticName(Statistic statistic)
{
    switch (statistic) {
    case Statistic::Mean:
        return QStringLiteral("mean");
    case Statistic::Min:
        return QStringLiteral("min");
    case Statistic::Max:
        return QStringLiteral("max");
    case Statistic::Last:
        return QStringLiteral("last");
    case Statistic::P95:
        return QStringLiteral("p95");
    }
    return {};
}

QString PhaseStatisticsTable::toTabSeparated() const
{
    // Tabs inside a title would shift the columns.
    const auto cell = [](QString text) { return text.replace(QLatin1Char('\t'), QLatin1Char(' ')); };
    QStringList header{QStringLiteral("series"), QStringLiteral("statistic")};
    for (const Phase &phase : columns)
        header << cell(phase.title);
    QStringList lines{header.join(QLatin1Char('\t'))};
    for (const Row &row : rows) {
        QStringList fields{cell(row.series), statisticName(row.statistic)};
        for (const std::optional<double> &value : row.values)
            fields << plainNumber(value);
        lines << fields.join(QLatin1Char('\t'));
    }
    for (const CheckRow &row : checks) {
        QStringList fields{cell(checkTitle(row.check)), QStringLiteral("check")};
        for (const CheckVerdict &verdict : row.verdicts)
            fields << cell(verdict.describe(row.check));
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString PhaseStatisticsTable::toMarkdown() const
{
    QStringList header{QStringLiteral("series"), QStringLiteral("statistic")};
    for (const Phase &phase : columns)
        header << Markdown::cell(phase.title);
    QStringList lines{QStringLiteral("| %1 |").arg(header.join(QStringLiteral(" | ")))};
    QStringList rule{QStringLiteral("---"), QStringLiteral("---")};
    for (std::size_t i = 0; i < columns.size(); ++i)
        rule << QStringLiteral("---:");
    lines << QStringLiteral("| %1 |").arg(rule.join(QStringLiteral(" | ")));
    for (const Row &row : rows) {
        QStringList fields{Markdown::cell(row.series), statisticName(row.statistic)};
        for (const std::optional<double> &value : row.values)
            fields << (value ? Markdown::cell(Format::value(*value, row.unit)) : QStringLiteral("–"));
        lines << QStringLiteral("| %1 |").arg(fields.join(QStringLiteral(" | ")));
    }
    for (const CheckRow &row : checks) {
        QStringList fields{Markdown::cell(checkTitle(row.check)), QStringLiteral("check")};
        for (const CheckVerdict &verdict : row.verdicts)
            fields << Markdown::cell(verdict.describe(row.check));
        lines << QStringLiteral("| %1 |").arg(fields.join(QStringLiteral(" | ")));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

namespace PhaseStatistics {

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

std::vector<Phase> phases(const TimeRange &range, const std::vector<Annotation> &annotations)
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

std::optional<double> p95(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range)
{
    std::vector<double> finite;
    SeriesStatistics::collectFinite(timestampsMs, values, range, finite);
    return SeriesStatistics::quantile(finite, 0.95);
}

PhaseStatisticsTable compute(const std::vector<PhaseSeries> &series, const TimeRange &visible,
                             const std::vector<Annotation> &annotations, bool withP95,
                             const std::vector<PhaseCheck> &checks)
{
    using Statistic = PhaseStatisticsTable::Statistic;
    PhaseStatisticsTable table;
    table.columns = phases(visible, annotations);
    std::vector<Statistic> statistics{Statistic::Mean, Statistic::Min, Statistic::Max, Statistic::Last};
    if (withP95)
        statistics.push_back(Statistic::P95);
    for (const PhaseSeries &s : series) {
        std::vector<SeriesStatistics> perPhase;
        for (const Phase &phase : table.columns)
            perPhase.push_back(SeriesStatistics::compute(s.timestampsMs, s.values, phase.range));
        for (Statistic statistic : statistics) {
            PhaseStatisticsTable::Row row{s.name, s.unit, statistic, {}};
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                const SeriesStatistics &stats = perPhase[c];
                std::optional<double> value;
                if (stats.count > 0) {
                    switch (statistic) {
                    case Statistic::Mean:
                        value = stats.mean;
                        break;
                    case Statistic::Min:
                        value = stats.min;
                        break;
                    case Statistic::Max:
                        value = stats.max;
                        break;
                    case Statistic::Last:
                        value = stats.last;
                        break;
                    case Statistic::P95:
                        value = p95(s.timestampsMs, s.values, table.columns[c].range);
                        break;
                    }
                }
                row.values.push_back(value);
            }
            table.rows.push_back(std::move(row));
        }
    }
    for (const PhaseCheck &check : checks)
        table.checks.push_back({check.check, CheckJudgement::perPhase(check.check, check.series, table.columns)});
    return table;
}

} // namespace PhaseStatistics
