// SPDX-License-Identifier: GPL-3.0-or-later
#include "decimator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace Decimator {
namespace {

// Division that rounds towards minus infinity, so that columns stay anchored for timestamps
// before the epoch too (C++ division truncates towards zero).
qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Walks the samples once in time order, gathering one column at a time, and writes the M4
// points with gap markers. State carried from column to column is what gap detection needs:
// the last finite sample and whether non-finite samples followed it.
class M4Writer
{
public:
    M4Writer(std::span<const qint64> timestamps, std::span<const double> values, qint64 columnMs,
             qint64 gapMs, Points &out)
        : m_timestamps(timestamps), m_values(values), m_columnMs(columnMs), m_gapMs(gapMs),
          m_out(out)
    {}

    // Adds sample i; closes the current column first when i lies beyond it.
    void add(std::size_t i)
    {
        const double v = m_values[i];
        if (!std::isfinite(v)) {
            m_brokenSinceLastFinite = m_haveFinite;
            return;
        }
        const qint64 t = m_timestamps[i];
        if (m_columnOpen && t >= m_columnEndMs)
            flush();
        if (m_haveFinite &&
            (m_brokenSinceLastFinite || (m_gapMs > 0 && t - m_lastFiniteMs > m_gapMs)))
            m_gaps.push_back({i, m_lastFiniteMs + (t - m_lastFiniteMs) / 2});
        m_haveFinite = true;
        m_brokenSinceLastFinite = false;
        m_lastFiniteMs = t;

        if (!m_columnOpen) {
            m_columnOpen = true;
            m_columnEndMs = columnEnd(t);
            m_first = m_min = m_max = m_last = i;
            return;
        }
        m_last = i;
        if (v < m_values[m_min])
            m_min = i;
        if (v > m_values[m_max])
            m_max = i;
    }

    // Writes the open column, if any. Also used to keep an edge sample in a column of its own.
    void flush()
    {
        if (!m_columnOpen)
            return;
        m_columnOpen = false;

        std::array<std::size_t, 4> picked{m_first, m_min, m_max, m_last};
        std::sort(picked.begin(), picked.end());
        const auto pickedEnd = std::unique(picked.begin(), picked.end());

        // Every gap event of this column lies at or before its last sample; it belongs in
        // front of the first emitted point at or after it. One marker per interval is enough.
        auto gap = m_gaps.begin();
        for (auto p = picked.begin(); p != pickedEnd; ++p) {
            bool marked = false;
            for (; gap != m_gaps.end() && gap->index <= *p; ++gap) {
                if (!marked) {
                    m_out.timestampsMs.push_back(gap->markerMs);
                    m_out.values.push_back(std::numeric_limits<double>::quiet_NaN());
                    marked = true;
                }
            }
            m_out.timestampsMs.push_back(m_timestamps[*p]);
            m_out.values.push_back(m_values[*p]);
        }
        m_gaps.clear();
    }

private:
    struct GapEvent
    {
        std::size_t index; // the first finite sample after the gap
        qint64 markerMs;
    };

    qint64 columnEnd(qint64 t) const
    {
        const qint64 start = floorDiv(t, m_columnMs) * m_columnMs;
        // Saturate instead of overflowing for timestamps within a column of the maximum.
        return start > std::numeric_limits<qint64>::max() - m_columnMs
                   ? std::numeric_limits<qint64>::max()
                   : start + m_columnMs;
    }

    std::span<const qint64> m_timestamps;
    std::span<const double> m_values;
    const qint64 m_columnMs;
    const qint64 m_gapMs;
    Points &m_out;

    bool m_haveFinite = false;
    bool m_brokenSinceLastFinite = false;
    qint64 m_lastFiniteMs = 0;

    bool m_columnOpen = false;
    qint64 m_columnEndMs = 0;
    std::size_t m_first = 0;
    std::size_t m_min = 0;
    std::size_t m_max = 0;
    std::size_t m_last = 0;
    std::vector<GapEvent> m_gaps; // of the open column; usually empty
};

} // namespace

Points m4(std::span<const qint64> timestampsMs, std::span<const double> values,
          const TimeRange &range, qint64 columnMs, qint64 gapMs)
{
    Points out;
    const std::size_t count = std::min(timestampsMs.size(), values.size());
    timestampsMs = timestampsMs.first(count);
    values = values.first(count);
    if (count == 0 || range.isEmpty())
        return out;
    columnMs = std::max<qint64>(1, columnMs);

    const auto begin = timestampsMs.begin();
    const std::size_t first = static_cast<std::size_t>(
        std::lower_bound(begin, timestampsMs.end(), range.startMs) - begin);
    const std::size_t last =
        static_cast<std::size_t>(std::upper_bound(begin + static_cast<std::ptrdiff_t>(first),
                                                  timestampsMs.end(), range.endMs) -
                                 begin);

    // At most 4 points per column and never more than the samples themselves, plus the edges
    // and a few markers; the markers of very gappy data grow the vectors as they come.
    // Unsigned so that absurd ranges wrap (the estimate is only a hint) instead of overflowing.
    const quint64 columns = static_cast<quint64>(floorDiv(range.endMs, columnMs)) -
                            static_cast<quint64>(floorDiv(range.startMs, columnMs)) + 1;
    const std::size_t inRange = last - first;
    const std::size_t estimate = (columns < inRange / 4 ? columns * 4 : inRange) + 4;
    out.timestampsMs.reserve(estimate);
    out.values.reserve(estimate);

    M4Writer writer(timestampsMs, values, columnMs, gapMs, out);
    if (first > 0) {
        writer.add(first - 1);
        writer.flush();
    }
    for (std::size_t i = first; i < last; ++i)
        writer.add(i);
    writer.flush();
    if (last < count) {
        writer.add(last);
        writer.flush();
    }
    return out;
}

qint64 columnMsFor(const TimeRange &visible, int plotWidthPx)
{
    const qint64 span = std::max<qint64>(1, visible.length());
    const qint64 width = std::max(1, plotWidthPx);
    return std::max<qint64>(1, (span + width - 1) / width);
}

} // namespace Decimator
