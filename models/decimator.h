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
// Pure functions without shared state: safe to call from QtConcurrent on copies (or on spans
// whose owner does not change them meanwhile).
namespace Decimator {

struct Points
{
    std::vector<qint64> timestampsMs;
    std::vector<double> values;
};

// The input must be sorted by time without duplicates (as SampleStore keeps it).
// columnMs = visible span / plot width in pixels (at least 1; see columnMsFor). Samples
// outside range are ignored except the one just before and just after it, so lines run to
// the plot edges (a non-finite one is left out). gapMs <= 0 disables gap detection.
// Non-finite input values are treated as gaps.
//
// Output, in time order: per column its first, min, max and last finite samples (the first
// occurrence of the min and of the max; a sample that is several of these is emitted once),
// so at most 4 points per column plus the 2 edge samples. A NaN marker (timestamp halfway
// between the two samples around the gap) separates two emitted points that have a gap
// between them; at most one marker between any two emitted points.
Points m4(std::span<const qint64> timestampsMs, std::span<const double> values,
          const TimeRange &range, qint64 columnMs, qint64 gapMs);

// The column width for a plot: the visible span divided by the plot width in pixels, rounded
// up, at least 1 ms. Constant while the window length and the width are, so live updates
// keep the columns (and their decimated points) stable.
qint64 columnMsFor(const TimeRange &visible, int plotWidthPx);

} // namespace Decimator
