// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <map>
#include <mutex>
#include <vector>

// http_client_request_seconds: time from scheduling to answer, one series per HTTP status
// (599 = no HTTP answer). Recorded by the scheduler thread, read by /metrics.
class LatencyHistogram
{
public:
    struct Series
    {
        std::vector<quint64> bucketCounts; // per bucket, not cumulative; last = above all bounds
        double sum = 0;
        quint64 count = 0;
    };

    explicit LatencyHistogram(QList<double> upperBounds = defaultBounds());

    static QList<double> defaultBounds();

    void record(int status, double seconds);

    const QList<double> &upperBounds() const { return m_bounds; }
    std::map<int, Series> snapshot() const;

private:
    const QList<double> m_bounds;
    mutable std::mutex m_mutex;
    std::map<int, Series> m_series;
};
