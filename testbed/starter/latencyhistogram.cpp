// SPDX-License-Identifier: GPL-3.0-or-later
#include "latencyhistogram.h"

#include <algorithm>

LatencyHistogram::LatencyHistogram(QList<double> upperBounds) : m_bounds(std::move(upperBounds)) {}

QList<double> LatencyHistogram::defaultBounds()
{
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

void LatencyHistogram::record(int status, double seconds)
{
    const auto bucket =
        static_cast<std::size_t>(std::lower_bound(m_bounds.cbegin(), m_bounds.cend(), seconds) - m_bounds.cbegin());
    std::lock_guard lock(m_mutex);
    Series &series = m_series[status];
    if (series.bucketCounts.empty())
        series.bucketCounts.assign(static_cast<std::size_t>(m_bounds.size()) + 1, 0);
    ++series.bucketCounts[bucket];
    series.sum += seconds;
    ++series.count;
}

std::map<int, LatencyHistogram::Series> LatencyHistogram::snapshot() const
{
    std::lock_guard lock(m_mutex);
    return m_series;
}
