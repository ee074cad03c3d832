// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <optional>
#include <span>

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
};
