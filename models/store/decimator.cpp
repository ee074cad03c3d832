// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/decimator.h"

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
    // out is sized to `expected` points ahead and cut to what was written by finish().
    M4Writer(std::span<const qint64> timestamps, std::span<const double> values, qint64 columnMs, qint64 gapMs,
             Points &out, std::size_t expected)
        : m_timestamps(timestamps), m_values(values), m_columnMs(columnMs), m_gapMs(gapMs), m_out(out)
    {
        m_out.timestampsMs.resize(expected);
        m_out.values.resize(expected);
    }

    // Points written so far, and points from elsewhere (a cache) appended in order.
    std::size_t size() const { return m_count; }
    void append(std::span<const qint64> timestamps, std::span<const double> values)
    {
        makeRoom(timestamps.size());
        std::copy(timestamps.begin(), timestamps.end(), m_out.timestampsMs.begin() + std::ptrdiff_t(m_count));
        std::copy(values.begin(), values.end(), m_out.values.begin() + std::ptrdiff_t(m_count));
        m_count += timestamps.size();
    }
    void finish()
    {
        m_out.timestampsMs.resize(m_count);
        m_out.values.resize(m_count);
    }

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
        if (m_haveFinite && (m_brokenSinceLastFinite || (m_gapMs > 0 && t - m_lastFiniteMs > m_gapMs)))
            m_gaps.push_back({i, m_lastFiniteMs + (t - m_lastFiniteMs) / 2});
        m_haveFinite = true;
        m_brokenSinceLastFinite = false;
        m_lastFiniteMs = t;

        if (!m_columnOpen) {
            m_columnOpen = true;
            // Usually the next column: no 64-bit division (the costliest step per column).
            const bool next = m_columnEndMs != 0 && t >= m_columnEndMs &&
                              m_columnEndMs <= std::numeric_limits<qint64>::max() - 2 * m_columnMs &&
                              t < m_columnEndMs + m_columnMs;
            m_columnEndMs = next ? m_columnEndMs + m_columnMs : columnEnd(t);
            m_first = m_min = m_max = m_last = i;
            return;
        }
        m_last = i;
        if (v < m_values[m_min])
            m_min = i;
        if (v > m_values[m_max])
            m_max = i;
    }

    // Adds sample i and the samples after it (before limit) that lie in the same column, as
    // add() would, and returns the index after the last one added. This is where decimation
    // spends its time, so the common case (finite samples without a gap between them) is
    // done in passes without a dependency from one sample to the next that the CPU would
    // have to wait for: find the column's end, then min and max with independent
    // accumulators, then the first index of each. Anything else goes through add().
    std::size_t addRun(std::size_t i, std::size_t limit)
    {
        add(i);
        if (!m_columnOpen || m_last != i)
            return i + 1; // non-finite: no column to extend
        const qint64 *t = m_timestamps.data();
        const double *v = m_values.data();
        const qint64 columnEndMs = m_columnEndMs;
        // Unsigned: a difference beyond gapMs, an overflowing one included, is a gap; the
        // sample after it goes through add(), which notes the gap.
        const quint64 gapMs = m_gapMs > 0 ? quint64(m_gapMs) : std::numeric_limits<quint64>::max();
        // Two samples a step, each into its own running min and max with the index where it
        // was reached (first occurrence: only a strictly better value replaces it), written
        // so that the compiler uses conditional moves. Non-finite values are rare: the
        // comparisons skip NaN, and a sum turns NaN or infinite when one is there, which
        // sends the run through add() instead.
        double low0 = v[i], low1 = low0, high0 = low0, high1 = low0;
        std::size_t lowAt0 = i, lowAt1 = i, highAt0 = i, highAt1 = i;
        double sum0 = 0, sum1 = 0;
        qint64 previous = t[i];
        std::size_t k = i + 1;
        for (; k + 1 < limit; k += 2) {
            const qint64 ta = t[k];
            const qint64 tb = t[k + 1];
            if ((tb >= columnEndMs) | (quint64(ta - previous) > gapMs) | (quint64(tb - ta) > gapMs))
                break;
            previous = tb;
            const double a = v[k];
            const double b = v[k + 1];
            const bool lowerA = a<low0, lowerB = b<low1, higherA = a> high0, higherB = b> high1;
            low0 = lowerA ? a : low0;
            lowAt0 = lowerA ? k : lowAt0;
            low1 = lowerB ? b : low1;
            lowAt1 = lowerB ? k + 1 : lowAt1;
            high0 = higherA ? a : high0;
            highAt0 = higherA ? k : highAt0;
            high1 = higherB ? b : high1;
            highAt1 = higherB ? k + 1 : highAt1;
            sum0 += a;
            sum1 += b;
        }
        for (; k < limit; ++k) {
            const qint64 ta = t[k];
            if ((ta >= columnEndMs) | (quint64(ta - previous) > gapMs))
                break;
            previous = ta;
            const double a = v[k];
            const bool lowerA = a<low0, higherA = a> high0;
            low0 = lowerA ? a : low0;
            lowAt0 = lowerA ? k : lowAt0;
            high0 = higherA ? a : high0;
            highAt0 = higherA ? k : highAt0;
            sum0 += a;
        }
        const std::size_t end = k;
        if (end == i + 1)
            return end;
        if (!std::isfinite(sum0 + sum1)) {
            for (k = i + 1; k < end; ++k)
                add(k);
            return end;
        }
        // The two lanes together: the better value, the earlier index on a tie. Then the
        // column so far (add() of sample i may have been preceded by others).
        const bool lane1Low = low1 < low0 || (low1 == low0 && lowAt1 < lowAt0);
        const bool lane1High = high1 > high0 || (high1 == high0 && highAt1 < highAt0);
        const double low = lane1Low ? low1 : low0;
        const double high = lane1High ? high1 : high0;
        if (low < v[m_min])
            m_min = lane1Low ? lowAt1 : lowAt0;
        if (high > v[m_max])
            m_max = lane1High ? highAt1 : highAt0;
        m_last = end - 1;
        m_lastFiniteMs = previous;
        return end;
    }

    bool haveFinite() const { return m_haveFinite; }
    void markBroken() { m_brokenSinceLastFinite = m_haveFinite; }

    // Continues after samples that were not added (their columns came from a cache): the
    // gap state is what adding them would have left. Call with no column open.
    void resume(bool haveFinite, qint64 lastFiniteMs, bool brokenSinceLastFinite)
    {
        m_haveFinite = haveFinite;
        m_lastFiniteMs = lastFiniteMs;
        m_brokenSinceLastFinite = haveFinite && brokenSinceLastFinite;
    }

    // Writes the open column, if any. Also used to keep an edge sample in a column of its own.
    Q_ALWAYS_INLINE void flush()
    {
        if (!m_columnOpen)
            return;
        m_columnOpen = false;

        // first <= min, max <= last by construction: only min and max need ordering. Runs
        // once per column, so it is kept free of a general sort.
        const std::size_t low = std::min(m_min, m_max);
        const std::size_t high = std::max(m_min, m_max);
        makeRoom(8); // 4 points, each perhaps after a marker: one check per column
        if (m_gaps.empty()) {
            emit(m_first);
            if (low != m_first)
                emit(low);
            if (high != low)
                emit(high);
            if (m_last != high)
                emit(m_last);
            return;
        }
        std::array<std::size_t, 4> picked{m_first, low, high, m_last};
        const auto pickedEnd = std::unique(picked.begin(), picked.end());

        // Every gap event of this column lies at or before its last sample; it belongs in
        // front of the first emitted point at or after it. One marker per interval is enough.
        auto gap = m_gaps.begin();
        for (auto p = picked.begin(); p != pickedEnd; ++p) {
            bool marked = false;
            for (; gap != m_gaps.end() && gap->index <= *p; ++gap) {
                if (!marked) {
                    put(gap->markerMs, std::numeric_limits<double>::quiet_NaN());
                    marked = true;
                }
            }
            emit(*p);
        }
        m_gaps.clear();
    }

private:
    // The output grows through a cursor into presized vectors: one room check per column
    // instead of two push_backs per point.
    void makeRoom(std::size_t points)
    {
        if (m_count + points <= m_out.timestampsMs.size())
            return;
        const std::size_t size = std::max(m_out.timestampsMs.size() * 2, m_count + points + 64);
        m_out.timestampsMs.resize(size);
        m_out.values.resize(size);
    }
    Q_ALWAYS_INLINE void put(qint64 t, double v)
    {
        m_out.timestampsMs[m_count] = t;
        m_out.values[m_count] = v;
        ++m_count;
    }
    Q_ALWAYS_INLINE void emit(std::size_t i) { put(m_timestamps[i], m_values[i]); }

    struct GapEvent
    {
        std::size_t index; // the first finite sample after the gap
        qint64 markerMs;
    };

    qint64 columnEnd(qint64 t) const
    {
        const qint64 start = floorDiv(t, m_columnMs) * m_columnMs;
        // Saturate instead of overflowing for timestamps within a column of the maximum.
        return start > std::numeric_limits<qint64>::max() - m_columnMs ? std::numeric_limits<qint64>::max()
                                                                       : start + m_columnMs;
    }

    std::span<const qint64> m_timestamps;
    std::span<const double> m_values;
    const qint64 m_columnMs;
    const qint64 m_gapMs;
    Points &m_out;
    std::size_t m_count = 0;

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

Points m4(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range, qint64 columnMs,
          qint64 gapMs)
{
    Points out;
    const std::size_t count = std::min(timestampsMs.size(), values.size());
    timestampsMs = timestampsMs.first(count);
    values = values.first(count);
    if (count == 0 || range.isEmpty())
        return out;
    columnMs = std::max<qint64>(1, columnMs);

    const auto begin = timestampsMs.begin();
    const std::size_t first =
        static_cast<std::size_t>(std::lower_bound(begin, timestampsMs.end(), range.startMs) - begin);
    const std::size_t last = static_cast<std::size_t>(
        std::upper_bound(begin + static_cast<std::ptrdiff_t>(first), timestampsMs.end(), range.endMs) - begin);

    // At most 4 points per column and never more than the samples themselves, plus the edges
    // and a few markers; the markers of very gappy data grow the vectors as they come.
    // Unsigned so that absurd ranges wrap (the estimate is only a hint) instead of overflowing.
    const quint64 columns = static_cast<quint64>(floorDiv(range.endMs, columnMs)) -
                            static_cast<quint64>(floorDiv(range.startMs, columnMs)) + 1;
    const std::size_t inRange = last - first;
    const std::size_t estimate = (columns < inRange / 4 ? columns * 4 : inRange) + 4;
    M4Writer writer(timestampsMs, values, columnMs, gapMs, out, estimate);
    if (first > 0) {
        writer.add(first - 1);
        writer.flush();
    }
    for (std::size_t i = first; i < last;)
        i = writer.addRun(i, last);
    writer.flush();
    if (last < count) {
        writer.add(last);
        writer.flush();
    }
    writer.finish();
    return out;
}

namespace {

qint64 ceilDiv(qint64 a, qint64 b)
{
    return -floorDiv(-a, b);
}

constexpr qint64 kMinMs = std::numeric_limits<qint64>::min();

// Index of the first sample at or after t.
std::size_t lowerIndex(std::span<const qint64> timestamps, qint64 t)
{
    return static_cast<std::size_t>(std::lower_bound(timestamps.begin(), timestamps.end(), t) - timestamps.begin());
}

} // namespace

void M4Cache::invalidate(const TimeRange &span)
{
    for (Level &level : m_levels) {
        // Merged into one span when many pile up while a level is not used.
        if (level.pendingChanges.size() >= 16) {
            TimeRange &all = level.pendingChanges.front();
            for (const TimeRange &change : level.pendingChanges) {
                all.startMs = std::min(all.startMs, change.startMs);
                all.endMs = std::max(all.endMs, change.endMs);
            }
            level.pendingChanges.resize(1);
        }
        level.pendingChanges.push_back(span);
    }
}

void M4Cache::clear()
{
    m_levels.clear();
}

M4Cache::Level &M4Cache::levelFor(qint64 columnMs, qint64 gapMs)
{
    ++m_uses;
    for (Level &level : m_levels) {
        if (level.columnMs == columnMs && level.gapMs == gapMs) {
            level.lastUse = m_uses;
            return level;
        }
    }
    if (m_levels.size() >= kMaxLevels) {
        const auto oldest = std::min_element(m_levels.begin(), m_levels.end(),
                                             [](const Level &a, const Level &b) { return a.lastUse < b.lastUse; });
        m_levels.erase(oldest);
    }
    Level level;
    level.columnMs = columnMs;
    level.gapMs = gapMs;
    level.lastUse = m_uses;
    m_levels.push_back(std::move(level));
    return m_levels.back();
}

void M4Cache::applyChanges(Level &level, std::span<const qint64> timestampsMs)
{
    // Samples dropped at the old end (retention) change the columns up to the new first one.
    // (Called with at least one sample.)
    const qint64 first = timestampsMs.front();
    if (level.firstSampleMs && *level.firstSampleMs != first)
        level.pendingChanges.push_back({kMinMs, std::max(*level.firstSampleMs, first)});
    level.firstSampleMs = first;
    const qint64 c = level.columnMs;
    const qint64 runEnd = level.firstColumn + qint64(level.columns.size());
    for (const TimeRange &change : level.pendingChanges) {
        if (level.columns.empty())
            break;
        // A change also moves the gap marker in front of the next sample after it, which may
        // lie several (empty) columns later.
        const std::size_t next = static_cast<std::size_t>(
            std::upper_bound(timestampsMs.begin(), timestampsMs.end(), change.endMs) - timestampsMs.begin());
        const qint64 lastColumn =
            next < timestampsMs.size() ? floorDiv(timestampsMs[next], c) : std::numeric_limits<qint64>::max();
        const qint64 firstColumn = floorDiv(change.startMs, c);
        const qint64 from = std::max(firstColumn, level.firstColumn);
        const qint64 to =
            std::min(lastColumn == std::numeric_limits<qint64>::max() ? runEnd - 1 : lastColumn, runEnd - 1);
        for (qint64 k = from; k <= to; ++k)
            level.columns[std::size_t(k - level.firstColumn)].valid = false;
    }
    level.pendingChanges.clear();
}

Points M4Cache::m4(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range,
                   qint64 columnMs, qint64 gapMs)
{
    m_reused = 0;
    m_computed = 0;
    const std::size_t count = std::min(timestampsMs.size(), values.size());
    timestampsMs = timestampsMs.first(count);
    values = values.first(count);
    columnMs = std::max<qint64>(1, columnMs);
    if (count == 0 || range.isEmpty())
        return Decimator::m4(timestampsMs, values, range, columnMs, gapMs);

    const std::size_t first = lowerIndex(timestampsMs, range.startMs);
    const std::size_t last = static_cast<std::size_t>(
        std::upper_bound(timestampsMs.begin() + static_cast<std::ptrdiff_t>(first), timestampsMs.end(), range.endMs) -
        timestampsMs.begin());
    // Whole columns: [fullBegin, fullEnd). Caching pays only when columns hold several
    // samples; for absurdly narrow columns (a column per millisecond) plain m4() is the answer.
    const qint64 fullBegin = ceilDiv(range.startMs, columnMs);
    const qint64 fullEnd = range.endMs == std::numeric_limits<qint64>::max() ? floorDiv(range.endMs, columnMs)
                                                                             : floorDiv(range.endMs + 1, columnMs);
    if (fullEnd <= fullBegin || quint64(fullEnd - fullBegin) > std::max<quint64>(64, (last - first) / 2))
        return Decimator::m4(timestampsMs, values, range, columnMs, gapMs);

    Level &level = levelFor(columnMs, gapMs);
    applyChanges(level, timestampsMs);

    Points out;
    const std::size_t estimate = std::min<std::size_t>(quint64(fullEnd - fullBegin) * 4, last - first) + 8;
    M4Writer writer(timestampsMs, values, columnMs, gapMs, out, estimate);

    // The new run of whole columns replaces the old one: columns that left the range go.
    std::vector<Column> columns(std::size_t(fullEnd - fullBegin));
    Points kept;
    kept.timestampsMs.reserve(estimate);
    kept.values.reserve(estimate);
    auto keep = [&](std::span<const qint64> t, std::span<const double> v, std::size_t k, bool valid) {
        Column &column = columns[k];
        column.begin = std::uint32_t(kept.timestampsMs.size());
        kept.timestampsMs.insert(kept.timestampsMs.end(), t.begin(), t.end());
        kept.values.insert(kept.values.end(), v.begin(), v.end());
        column.end = std::uint32_t(kept.timestampsMs.size());
        column.valid = valid;
    };

    if (first > 0) {
        writer.add(first - 1);
        writer.flush();
    }
    std::size_t i = first;
    const std::size_t headEnd = std::min(last, lowerIndex(timestampsMs, fullBegin * columnMs));
    while (i < headEnd)
        i = writer.addRun(i, headEnd);

    auto cachedAt = [&](qint64 k) -> const Column * {
        const qint64 inRun = k - level.firstColumn;
        return inRun >= 0 && inRun < qint64(level.columns.size()) && level.columns[std::size_t(inRun)].valid
                   ? &level.columns[std::size_t(inRun)]
                   : nullptr;
    };
    for (qint64 k = fullBegin; k < fullEnd;) {
        writer.flush();
        // A cached column was computed knowing the last finite sample before it; so is this
        // pass once it has seen a finite sample. Before that (a range starting in a run of
        // NaN) the column is computed, and not kept.
        if (writer.haveFinite() && cachedAt(k)) {
            // Take the whole run of cached columns, then skip their samples at once.
            for (; k < fullEnd; ++k) {
                const Column *cached = cachedAt(k);
                if (!cached)
                    break;
                const std::size_t length = cached->end - cached->begin;
                const auto t = std::span<const qint64>(level.points.timestampsMs).subspan(cached->begin, length);
                const auto v = std::span<const double>(level.points.values).subspan(cached->begin, length);
                writer.append(t, v);
                keep(t, v, std::size_t(k - fullBegin), true);
                ++m_reused;
            }
            const std::size_t end =
                std::size_t(std::lower_bound(timestampsMs.begin() + std::ptrdiff_t(i),
                                             timestampsMs.begin() + std::ptrdiff_t(last), k * columnMs) -
                            timestampsMs.begin());
            if (end > i) {
                // The state adding the skipped samples would have left: the last finite one,
                // and whether non-finite ones follow it.
                std::size_t j = end;
                bool broken = false;
                while (j > i && !std::isfinite(values[j - 1])) {
                    --j;
                    broken = true;
                }
                if (j > i)
                    writer.resume(true, timestampsMs[j - 1], broken);
                else
                    writer.markBroken(); // only non-finite samples in the skipped columns
                i = end;
            }
            continue;
        }
        const bool globalState = writer.haveFinite();
        const std::size_t mark = writer.size();
        const qint64 columnEndMs = (k + 1) * columnMs;
        while (i < last && timestampsMs[i] < columnEndMs)
            i = writer.addRun(i, last);
        writer.flush();
        keep(std::span<const qint64>(out.timestampsMs).subspan(mark, writer.size() - mark),
             std::span<const double>(out.values).subspan(mark, writer.size() - mark), std::size_t(k - fullBegin),
             globalState);
        ++m_computed;
        ++k;
    }
    while (i < last)
        i = writer.addRun(i, last);
    writer.flush();
    if (last < count) {
        writer.add(last);
        writer.flush();
    }
    writer.finish();

    level.firstColumn = fullBegin;
    level.columns = std::move(columns);
    level.points = std::move(kept);
    return out;
}

qint64 columnMsFor(const TimeRange &visible, int plotWidthPx)
{
    const qint64 span = std::max<qint64>(1, visible.length());
    const qint64 width = std::max(1, plotWidthPx);
    return std::max<qint64>(1, (span + width - 1) / width);
}

} // namespace Decimator
