// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timeticks.h"

#include <array>

namespace TimeTicks {

Ticks compute(const TimeRange &range, int pixelWidth, int minSpacingPx, qint64 utcOffsetMs)
{
    static constexpr std::array<qint64, 21> kIntervals{1'000,
                                                       2'000,
                                                       5'000,
                                                       10'000,
                                                       15'000,
                                                       30'000, // seconds
                                                       60'000,
                                                       2 * 60'000LL,
                                                       5 * 60'000LL,
                                                       10 * 60'000LL,
                                                       15 * 60'000LL,
                                                       30 * 60'000LL, // minutes
                                                       3'600'000,
                                                       2 * 3'600'000LL,
                                                       3 * 3'600'000LL,
                                                       6 * 3'600'000LL,
                                                       12 * 3'600'000LL, // hours
                                                       86'400'000,
                                                       2 * 86'400'000LL,
                                                       7 * 86'400'000LL,
                                                       30 * 86'400'000LL};
    Ticks ticks;
    if (range.length() <= 0 || pixelWidth <= 0)
        return ticks;
    const double msPerPixel = double(range.length()) / pixelWidth;
    ticks.intervalMs = kIntervals.back();
    for (qint64 interval : kIntervals) {
        if (double(interval) / msPerPixel >= minSpacingPx) {
            ticks.intervalMs = interval;
            break;
        }
    }
    // Round in local time: tick k sits where (t + offset) is a multiple of the interval.
    const qint64 localStart = range.startMs + utcOffsetMs;
    qint64 first = (localStart / ticks.intervalMs) * ticks.intervalMs;
    if (first < localStart)
        first += ticks.intervalMs;
    for (qint64 local = first; local - utcOffsetMs <= range.endMs; local += ticks.intervalMs)
        ticks.instantsMs.push_back(local - utcOffsetMs);

    if (ticks.intervalMs < 60'000)
        ticks.labelFormat = QStringLiteral("HH:mm:ss");
    else if (ticks.intervalMs < 86'400'000)
        ticks.labelFormat = QStringLiteral("HH:mm");
    else
        ticks.labelFormat = QStringLiteral("MMM d");
    return ticks;
}

} // namespace TimeTicks
