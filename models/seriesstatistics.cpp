// SPDX-License-Identifier: GPL-3.0-or-later
#include "seriesstatistics.h"

#include <algorithm>
#include <cmath>

SeriesStatistics SeriesStatistics::compute(std::span<const qint64> timestampsMs,
                                           std::span<const double> values, const TimeRange &range)
{
    SeriesStatistics stats;
    const auto first = std::lower_bound(timestampsMs.begin(), timestampsMs.end(), range.startMs);
    const auto last = std::upper_bound(first, timestampsMs.end(), range.endMs);
    double sum = 0;
    for (auto it = first; it != last; ++it) {
        const double v = values[std::size_t(it - timestampsMs.begin())];
        if (!std::isfinite(v))
            continue;
        if (stats.count == 0) {
            stats.min = stats.max = v;
        } else {
            stats.min = std::min(stats.min, v);
            stats.max = std::max(stats.max, v);
        }
        sum += v;
        ++stats.count;
        stats.last = v;
        stats.lastTimestampMs = *it;
    }
    if (stats.count > 0)
        stats.mean = sum / double(stats.count);
    return stats;
}
