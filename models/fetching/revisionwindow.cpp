// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/revisionwindow.h"

#include <algorithm>
#include <cmath>

qint64 RevisionWindow::overlapMs(qint64 stepMs) const
{
    return std::max(kMinSteps * std::max<qint64>(1, stepMs), m_learnedMs);
}

bool RevisionWindow::observe(const TimeRange &asked, qint64 stepMs, std::optional<qint64> oldestRevisedMs)
{
    // Only a change at the far end of what was asked again means that more may have changed
    // before it; one within the overlap was caught by it.
    if (!oldestRevisedMs || *oldestRevisedMs > asked.startMs + std::max<qint64>(0, stepMs - 1))
        return false;
    // Twice what this answer asked for, not twice the overlap of now: the queries of one merged
    // request each report the same revision, and growing from the current overlap would double
    // it once a query (19 times for the Camunda dashboard: five minutes at once).
    const qint64 grown = std::min(kMaxMs, std::max(2 * asked.length(), asked.length() + 2 * stepMs));
    if (grown <= m_learnedMs)
        return false;
    m_learnedMs = grown;
    return true;
}

bool RevisionWindow::isRevision(double before, double after)
{
    if (before == after || (std::isnan(before) && std::isnan(after)))
        return false;
    if (!std::isfinite(before) || !std::isfinite(after))
        return true; // a gap or an infinity against anything else
    return std::abs(after - before) > kRoundingNoise * std::max(std::abs(before), std::abs(after));
}

std::optional<qint64> RevisionWindow::oldestRevision(std::span<const qint64> storedMs,
                                                     std::span<const double> storedValues,
                                                     std::span<const qint64> answerMs,
                                                     std::span<const double> answerValues, const TimeRange &asked,
                                                     std::optional<qint64> askedUntilMs)
{
    const std::size_t n = std::min(answerMs.size(), answerValues.size());
    const std::size_t stored = std::min(storedMs.size(), storedValues.size());
    const auto answeredBefore = [&](qint64 t) { return askedUntilMs && t <= *askedUntilMs; };
    // Both walked together in time order, from the start of what was asked.
    std::size_t s =
        std::size_t(std::lower_bound(storedMs.begin(), storedMs.begin() + std::ptrdiff_t(stored), asked.startMs) -
                    storedMs.begin());
    std::size_t a = std::size_t(
        std::lower_bound(answerMs.begin(), answerMs.begin() + std::ptrdiff_t(n), asked.startMs) - answerMs.begin());
    while (s < stored || a < n) {
        const bool storedNext = s < stored && storedMs[s] <= asked.endMs;
        if (!storedNext && a >= n)
            break;
        if (storedNext && a < n && storedMs[s] == answerMs[a]) {
            if (isRevision(storedValues[s], answerValues[a]))
                return answerMs[a];
            ++s;
            ++a;
        } else if (storedNext && (a >= n || storedMs[s] < answerMs[a])) {
            if (answeredBefore(storedMs[s]))
                return storedMs[s]; // the answer no longer has it
            ++s;
        } else {
            if (answeredBefore(answerMs[a]))
                return answerMs[a]; // appeared where the server had answered nothing
            ++a;
        }
    }
    return std::nullopt;
}
