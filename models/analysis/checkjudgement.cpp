// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/checkjudgement.h"

#include "analysis/phases.h"
#include "base/format.h"

#include <QDateTime>
#include <algorithm>
#include <cmath>

namespace {

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

void foldInto(CheckVerdict &whole, const CheckVerdict &part, const CheckCondition &condition)
{
    if (!part.applies)
        return;
    whole.applies = true;
    whole.samples += part.samples;
    if (part.worst && (!whole.worst || condition.isWorse(*part.worst, *whole.worst))) {
        whole.worst = part.worst;
        whole.worstAtMs = part.worstAtMs;
    }
    // The series that took longest to settle is the stretch's.
    if (part.heldAfterMs && (!whole.heldAfterMs || *part.heldAfterMs > *whole.heldAfterMs))
        whole.heldAfterMs = part.heldAfterMs;
    if (part.failedAtMs && (!whole.failedAtMs || *part.failedAtMs < *whole.failedAtMs)) {
        whole.failedAtMs = part.failedAtMs;
        whole.failedValue = part.failedValue;
    }
}

} // namespace

QString CheckVerdict::describe(const Check &check) const
{
    if (!applies)
        return QStringLiteral("not judged here");
    if (samples == 0)
        return QStringLiteral("no samples");
    const QString worstText = QStringLiteral("worst %1 at %2").arg(Format::value(*worst, check.unit), clock(worstAtMs));
    if (!failed() && heldAfterMs) {
        return QStringLiteral("held after %1 (settling %2) · %3")
            .arg(Format::duration(*heldAfterMs), Format::duration(check.settleMs), worstText);
    }
    if (!failed())
        return QStringLiteral("held · %1").arg(worstText);
    QString reason = QStringLiteral("%1 %2 %3")
                         .arg(Format::value(failedValue, check.unit), check.condition.brokenSymbol(),
                              Format::value(check.condition.threshold, check.unit));
    if (check.forMs > 0)
        reason += QStringLiteral(" for %1").arg(Format::duration(check.forMs));
    return QStringLiteral("FAILED at %1: %2 · %3").arg(clock(*failedAtMs), reason, worstText);
}

QString CheckVerdict::cell(const Check &check) const
{
    if (!applies)
        return QStringLiteral("not judged");
    if (samples == 0)
        return QStringLiteral("no samples");
    if (!failed() && heldAfterMs)
        return QStringLiteral("✓ after %1 · worst %2")
            .arg(Format::duration(*heldAfterMs), Format::value(*worst, check.unit));
    if (!failed())
        return QStringLiteral("✓ worst %1").arg(Format::value(*worst, check.unit));
    return QStringLiteral("✗ %1 at %2").arg(Format::value(failedValue, check.unit), clock(*failedAtMs));
}

QString CheckVerdict::badge(const Check &check) const
{
    if (!applies || samples == 0)
        return QStringLiteral("– %1").arg(check.condition.describe(check.unit));
    if (!failed())
        return QStringLiteral("✓ %1").arg(check.condition.describe(check.unit));
    return QStringLiteral("✗ %1 at %2").arg(Format::value(failedValue, check.unit), clock(*failedAtMs));
}

namespace CheckJudgement {

CheckVerdict judge(const Check &check, const std::vector<Samples> &series, const TimeRange &range, const QString &phase,
                   std::optional<qint64> phaseStartMs)
{
    CheckVerdict whole;
    whole.applies = check.appliesIn(phase);
    if (!whole.applies)
        return whole;
    // The tracker counts from the phase's start: its "after" and settling follow the change
    // that began the phase, even when the range opens later.
    const qint64 originMs = std::min(phaseStartMs.value_or(range.startMs), range.startMs);
    for (const Samples &samples : series) {
        CheckTracker tracker(check);
        tracker.observe(0, std::nullopt, phase); // the phase begins at the origin, not at its first sample
        const auto first = std::lower_bound(samples.timestampsMs.begin(), samples.timestampsMs.end(), range.startMs);
        const auto last = std::upper_bound(first, samples.timestampsMs.end(), range.endMs);
        for (auto it = first; it != last; ++it) {
            const double value = samples.values[std::size_t(it - samples.timestampsMs.begin())];
            tracker.observe(*it - originMs, std::isfinite(value) ? std::optional<double>(value) : std::nullopt, phase);
        }
        CheckVerdict one;
        one.samples = tracker.samples();
        one.worst = tracker.worst();
        one.worstAtMs = originMs + tracker.worstAtMs();
        if (tracker.failedAtMs()) {
            one.failedAtMs = originMs + *tracker.failedAtMs();
            one.failedValue = tracker.failedValue();
        }
        for (const CheckTracker::PhaseResult &result : tracker.phases())
            one.heldAfterMs = result.heldAfterMs ? result.heldAfterMs : one.heldAfterMs;
        foldInto(whole, one, check.condition);
    }
    return whole;
}

std::vector<CheckVerdict> perPhase(const Check &check, const std::vector<Samples> &series,
                                   const std::vector<Phase> &phases)
{
    std::vector<CheckVerdict> verdicts;
    if (phases.empty())
        return verdicts;
    if (phases.size() == 1) {
        verdicts.push_back(
            judge(check, series, phases.front().range, phases.front().startedBy, phases.front().startedAtMs));
        return verdicts;
    }
    CheckVerdict whole;
    whole.applies = false;
    verdicts.push_back(whole);
    for (std::size_t i = 1; i < phases.size(); ++i) {
        verdicts.push_back(judge(check, series, phases[i].range, phases[i].startedBy, phases[i].startedAtMs));
        foldInto(verdicts.front(), verdicts.back(), check.condition);
    }
    verdicts.front().heldAfterMs.reset(); // settling is a phase's, not the run's
    return verdicts;
}

} // namespace CheckJudgement
