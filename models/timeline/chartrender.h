// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "store/decimator.h"
#include "store/seriesstatistics.h"
#include "timeline/heatmapgrid.h"

#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

class SampleStore;

// The render job of a chart (TimelineChart): what it draws of the store for one visible
// range, decimated to its pixel columns, with each series' legend statistics and value extent.
// Pure: it reads the store and its caches and nothing else, so it runs on a worker thread and
// a test runs it without a widget.

// The decimated columns of each series of a chart, kept between its render jobs so that a
// live tick recomputes only the newest column (Decimator::M4Cache). Used by one job at a
// time: a chart never runs two.
struct ChartRenderCaches
{
    std::map<QString, Decimator::M4Cache> byKey;
};

// What a render job needs. The samples are not in it: the job reads them from the store in
// place, under its read lock.
struct ChartRenderInput
{
    const SampleStore *store = nullptr;
    std::shared_ptr<ChartRenderCaches> caches;
    TimeRange range;
    qint64 columnMs = 1;
    qint64 gapMs = 0;
    std::vector<QString> keys; // of the chart's series, in its order
    // What changed in the store since the last job: the caches forget those columns.
    std::vector<std::pair<QString, TimeRange>> changes;
    bool forgetAll = false; // a series was removed or the store cleared
    // A heatmap panel: the series are a histogram's buckets, drawn as a grid of cells this
    // wide (Heatmap::columnMsFor) instead of as lines, so nothing is decimated.
    bool heatmap = false;
    qint64 heatmapColumnMs = 1000;
};

// What it hands back, one entry per key of the input, in its order.
struct ChartRenderOutput
{
    TimeRange range;
    std::vector<Decimator::Points> points;
    std::vector<std::pair<double, double>> extents; // min, max in the range (inf, -inf: none)
    std::vector<SeriesStatistics> stats;
    std::optional<HeatmapGrid> heatmap; // set for a heatmap job
};

namespace ChartRender {

// Decimates every series of the input, computes its statistics and its extent in the range.
// Reads the store one series at a time under its read lock (a merge on the UI thread waits at
// most for one series); the caches of series no longer shown are dropped.
ChartRenderOutput run(const ChartRenderInput &input);

// Longer than this without a sample is a gap, not a line: two and a half of the poll step
// (1 s when unknown), and never less than two pixel columns. The one gap rule of the screen
// and of every export.
qint64 gapMsFor(qint64 stepMs, qint64 columnMs);
// The step samples were fetched at, where no poller says it (a picture, a recording): the
// median distance of the samples [first, last) (of the first 512), 0 for fewer than two.
qint64 typicalStepMs(std::span<const qint64> timestampsMs, std::size_t first, std::size_t last);

} // namespace ChartRender

// The store changes to a chart's series since its last render job started, for the caches.
// While the view shows the past, live changes schedule no render: above kFoldAbove entries
// they are folded into one span per series, so that they cannot pile up for hours.
class ChartChangeLog
{
public:
    static constexpr std::size_t kFoldAbove = 256;

    struct Taken
    {
        std::vector<std::pair<QString, TimeRange>> changes;
        bool forgetAll = false;
    };

    void add(const QString &key, const TimeRange &span);
    // A series was removed or the store cleared: the caches forget everything.
    void forgetAll() { m_forgetAll = true; }
    // What a job starting now is given; the log is empty afterwards.
    Taken take();

    const std::vector<std::pair<QString, TimeRange>> &changes() const { return m_changes; }
    bool forgetsAll() const { return m_forgetAll; }

private:
    std::vector<std::pair<QString, TimeRange>> m_changes;
    bool m_forgetAll = false;
};
