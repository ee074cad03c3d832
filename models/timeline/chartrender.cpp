// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/chartrender.h"

#include "store/samplestore.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ChartRender {

ChartRenderOutput run(const ChartRenderInput &input)
{
    ChartRenderOutput out;
    out.range = input.range;
    if (input.heatmap) {
        // Its cells stand for whole columns of samples: there is nothing to decimate, and the
        // legend (a line's statistics) is not shown.
        input.caches->byKey.clear();
        out.points.resize(input.keys.size());
        out.extents.assign(input.keys.size(),
                           {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
        out.stats.resize(input.keys.size());
        out.heatmap = Heatmap::compute(*input.store, input.keys, input.range, input.heatmapColumnMs);
        return out;
    }
    auto &caches = input.caches->byKey;
    if (input.forgetAll)
        caches.clear();
    for (const auto &[key, span] : input.changes) {
        if (const auto it = caches.find(key); it != caches.end())
            it->second.invalidate(span);
    }
    // Series the chart no longer shows take no memory.
    for (auto it = caches.begin(); it != caches.end();) {
        const bool shown = std::find(input.keys.begin(), input.keys.end(), it->first) != input.keys.end();
        it = shown ? std::next(it) : caches.erase(it);
    }
    for (const QString &key : input.keys) {
        Decimator::Points decimated;
        SeriesStatistics stats;
        {
            const QReadLocker locked = input.store->readLock();
            if (const SampleStore::Series *series = input.store->series(key)) {
                decimated =
                    caches[key].m4(series->timestampsMs(), series->values(), input.range, input.columnMs, input.gapMs);
                stats = SeriesStatistics::compute(series->timestampsMs(), series->values(), input.range);
            }
        }
        double low = std::numeric_limits<double>::infinity();
        double high = -low;
        for (std::size_t i = 0; i < decimated.values.size(); ++i) {
            const double y = decimated.values[i];
            if (std::isfinite(y) && input.range.contains(decimated.timestampsMs[i])) {
                low = std::min(low, y);
                high = std::max(high, y);
            }
        }
        out.extents.emplace_back(low, high);
        out.points.push_back(std::move(decimated));
        out.stats.push_back(stats);
    }
    return out;
}

qint64 gapMsFor(qint64 stepMs, qint64 columnMs)
{
    const qint64 step = stepMs > 0 ? stepMs : 1000;
    return std::max<qint64>(step * 5 / 2, columnMs * 2);
}

qint64 typicalStepMs(std::span<const qint64> timestampsMs, std::size_t first, std::size_t last)
{
    std::vector<qint64> deltas;
    for (std::size_t i = first + 1; i < last && deltas.size() < 512; ++i)
        deltas.push_back(timestampsMs[i] - timestampsMs[i - 1]);
    if (deltas.empty())
        return 0;
    std::nth_element(deltas.begin(), deltas.begin() + std::ptrdiff_t(deltas.size() / 2), deltas.end());
    return deltas[deltas.size() / 2];
}

} // namespace ChartRender

void ChartChangeLog::add(const QString &key, const TimeRange &span)
{
    // Every change reaches the caches, also one outside the view: they may hold columns of
    // another zoom level that covers it.
    m_changes.emplace_back(key, span);
    if (m_changes.size() <= kFoldAbove)
        return;
    std::map<QString, TimeRange> folded;
    for (const auto &[changedKey, changed] : m_changes) {
        const auto [it, added] = folded.try_emplace(changedKey, changed);
        if (!added)
            it->second =
                TimeRange{std::min(it->second.startMs, changed.startMs), std::max(it->second.endMs, changed.endMs)};
    }
    m_changes.assign(folded.begin(), folded.end());
}

ChartChangeLog::Taken ChartChangeLog::take()
{
    return Taken{std::exchange(m_changes, {}), std::exchange(m_forgetAll, false)};
}
