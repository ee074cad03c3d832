// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/fetchcoverage.h"

#include "fetching/historytext.h"

#include <algorithm>

void FetchCoverage::record(const TimeRange &range, qint64 stepMs)
{
    m_fetchedUntil = std::max(m_fetchedUntil.value_or(range.endMs), range.endMs);
    // Tail polls touch the previous fetch at the same step: join them, so the list stays as
    // short as the number of distinct resolutions the user has looked at.
    Fetched fetched{range, stepMs};
    for (auto it = m_fetched.begin(); it != m_fetched.end();) {
        const bool touches = it->stepMs == fetched.stepMs &&
                             fetched.range.startMs <= it->range.endMs + fetched.stepMs &&
                             fetched.range.endMs >= it->range.startMs - fetched.stepMs;
        if (touches) {
            fetched.range.startMs = std::min(fetched.range.startMs, it->range.startMs);
            fetched.range.endMs = std::max(fetched.range.endMs, it->range.endMs);
            it = m_fetched.erase(it);
        } else {
            ++it;
        }
    }
    m_fetched.push_back(fetched);
}

bool FetchCoverage::isCovered(const TimeRange &range, qint64 stepMs) const
{
    // Covered when fetches at this resolution or finer, taken together, span the range.
    std::vector<TimeRange> spans;
    for (const Fetched &f : m_fetched) {
        if (f.stepMs <= stepMs)
            spans.push_back(f.range);
    }
    std::sort(spans.begin(), spans.end(), [](const TimeRange &a, const TimeRange &b) { return a.startMs < b.startMs; });
    qint64 reached = range.startMs;
    for (const TimeRange &span : spans) {
        if (span.startMs > reached + stepMs)
            break;
        reached = std::max(reached, span.endMs);
        if (reached >= range.endMs - stepMs)
            return true;
    }
    return false;
}

void FetchCoverage::clear()
{
    m_fetched.clear();
    m_fetchedUntil.reset();
}

QStringList FetchCoverage::describe(qint64 originMs) const
{
    QStringList lines;
    for (const Fetched &f : m_fetched) {
        lines << QStringLiteral("%1 step %2").arg(HistoryText::range(f.range, originMs), HistoryText::step(f.stepMs));
    }
    if (m_fetchedUntil)
        lines << QStringLiteral("until %1").arg(HistoryText::time(*m_fetchedUntil, originMs));
    return lines;
}
