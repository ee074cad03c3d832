// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timerange.h"

#include <span>
#include <vector>

// Reduces a series to what can change a pixel: per pixel column, the first, minimum, maximum
// and last sample (M4). Columns are anchored to absolute time (column k covers
// [k*columnMs, (k+1)*columnMs)), so a live update only changes the last column.
// Gaps (no sample for longer than gapMs) are kept as gaps: a NaN point is emitted between
// the two samples around the gap, which the chart draws as a break.
namespace Decimator {

struct Points
{
    std::vector<qint64> timestampsMs;
    std::vector<double> values;
};

// columnMs = visible span / plot width in pixels (at least 1). Samples outside range are
// ignored except the one just before and just after it, so lines run to the plot edges.
// gapMs <= 0 disables gap detection. Non-finite input values are treated as gaps.
Points m4(std::span<const qint64> timestampsMs, std::span<const double> values,
          const TimeRange &range, qint64 columnMs, qint64 gapMs);

} // namespace Decimator
