// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/seriesstatistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

SeriesStatistics SeriesStatistics::compute(std::span<const qint64> timestampsMs, std::span<const double> values,
                                           const TimeRange &range)
{
    SeriesStatistics stats;
    const auto first = std::lower_bound(timestampsMs.begin(), timestampsMs.end(), range.startMs);
    const auto last = std::upper_bound(first, timestampsMs.end(), range.endMs);
    const std::size_t begin = std::size_t(first - timestampsMs.begin());
    const std::size_t end = std::min(std::size_t(last - timestampsMs.begin()), values.size());
    // Every chart computes this over its whole visible range on every render (a day of
    // samples each second): one pass without branches on the values, non-finite samples
    // counted out by selects rather than skipped.
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    double sum = 0;
    qsizetype count = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const double v = values[i];
        const bool finite = std::isfinite(v);
        low = finite && v < low ? v : low;
        high = finite && v > high ? v : high;
        sum += finite ? v : 0.0;
        count += finite ? 1 : 0;
    }
    if (count == 0)
        return stats;
    stats.min = low;
    stats.max = high;
    stats.count = count;
    stats.mean = sum / double(count);
    for (std::size_t i = end; i > begin; --i) {
        if (std::isfinite(values[i - 1])) {
            stats.last = values[i - 1];
            stats.lastTimestampMs = timestampsMs[i - 1];
            break;
        }
    }
    return stats;
}

std::optional<double> SeriesStatistics::quantile(std::vector<double> &values, double q)
{
    if (values.empty())
        return std::nullopt;
    const std::size_t rank = std::size_t(std::ceil(std::clamp(q, 0.0, 1.0) * double(values.size())));
    const auto nth = values.begin() + std::ptrdiff_t(std::max<std::size_t>(rank, 1) - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

void SeriesStatistics::collectFinite(std::span<const qint64> timestampsMs, std::span<const double> values,
                                     const TimeRange &range, std::vector<double> &out)
{
    const auto first = std::lower_bound(timestampsMs.begin(), timestampsMs.end(), range.startMs);
    const auto last = std::upper_bound(first, timestampsMs.end(), range.endMs);
    for (auto it = first; it != last; ++it) {
        const std::size_t i = std::size_t(it - timestampsMs.begin());
        if (i < values.size() && std::isfinite(values[i]))
            out.push_back(values[i]);
    }
}
