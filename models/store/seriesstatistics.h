// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <optional>
#include <span>
#include <vector>

// Last / min / max / mean of the finite samples of a series inside a time range: what the
// legend shows for the visible range.
struct SeriesStatistics
{
    std::optional<double> last;
    std::optional<qint64> lastTimestampMs;
    double min = 0;
    double max = 0;
    double mean = 0;
    qsizetype count = 0; // finite samples in the range

    static SeriesStatistics compute(std::span<const qint64> timestampsMs, std::span<const double> values,
                                    const TimeRange &range);

    // The q-quantile (0 < q <= 1) of the values by nearest rank: the smallest value with at
    // least q of them at or below it (p50, p95, p99 of a phase or a run's steady state). The
    // values are reordered; nullopt when there are none.
    static std::optional<double> quantile(std::vector<double> &values, double q);
    // The finite values with a timestamp in the range, appended to `out`.
    static void collectFinite(std::span<const qint64> timestampsMs, std::span<const double> values,
                              const TimeRange &range, std::vector<double> &out);
};
