// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <cstdint>
#include <optional>
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
Points m4(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range, qint64 columnMs,
          qint64 gapMs);

// The column width for a plot: the visible span divided by the plot width in pixels, rounded
// up, at least 1 ms. Constant while the window length and the width are, so live updates
// keep the columns (and their decimated points) stable.
qint64 columnMsFor(const TimeRange &visible, int plotWidthPx);

// m4() that remembers its columns between calls, per zoom level (column width and gap
// setting; the few most recently used are kept). Because columns are anchored to absolute
// time, a column that lies wholly inside the range keeps its points as long as its samples
// do: a live update recomputes only the newest column, a pan only the columns that came into
// view, and a zoom back to a level still kept recomputes nothing but the edges. The result is
// always exactly m4()'s.
//
// The owner reports every change to the samples with invalidate() (SampleStore's
// samplesChanged span); samples dropped at the old end by retention are noticed without it.
// One cache per series. Not thread-safe: use it from one thread at a time (e.g. the one
// render job a chart runs at a time).
class M4Cache
{
public:
    // Samples with timestamps in span were inserted, replaced or removed.
    void invalidate(const TimeRange &span);
    void clear();

    Points m4(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range,
              qint64 columnMs, qint64 gapMs);

    // Of the last m4() call: whole columns taken from the cache, and computed.
    std::size_t reusedColumns() const { return m_reused; }
    std::size_t computedColumns() const { return m_computed; }

    static constexpr std::size_t kMaxLevels = 3;

private:
    struct Column
    {
        std::uint32_t begin = 0; // into Level::points
        std::uint32_t end = 0;
        bool valid = false;
    };
    struct Level
    {
        qint64 columnMs = 0;
        qint64 gapMs = 0;
        qint64 firstColumn = 0;      // column index of columns[0]
        std::vector<Column> columns; // consecutive columns from firstColumn
        Points points;
        std::vector<TimeRange> pendingChanges; // reported since this level was last used
        std::optional<qint64> firstSampleMs;   // when it moves, retention dropped samples
        quint64 lastUse = 0;
    };

    Level &levelFor(qint64 columnMs, qint64 gapMs);
    static void applyChanges(Level &level, std::span<const qint64> timestampsMs);

    std::vector<Level> m_levels;
    quint64 m_uses = 0;
    std::size_t m_reused = 0;
    std::size_t m_computed = 0;
};

} // namespace Decimator
