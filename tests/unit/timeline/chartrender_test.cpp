// SPDX-License-Identifier: GPL-3.0-or-later
// A chart's render job without a widget: what it makes of a store for one visible range (the
// decimated columns, gaps, value extents, legend statistics), how it keeps its caches, and the
// log of store changes between two jobs.
#include "store/samplestore.h"
#include "timeline/chartrender.h"
#include "timeline/chartrenderer.h"
#include "timeline/timewindow.h"

#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <vector>

namespace {

constexpr qint64 kStart = 1'800'000'000'000;

// count samples at stepMs from kStart, value f(i).
void fill(SampleStore &store, const QString &key, int count, qint64 stepMs, double (*f)(int))
{
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < count; ++i) {
        t.push_back(kStart + i * stepMs);
        v.push_back(f(i));
    }
    store.merge(key, {}, t, v);
}

ChartRenderInput inputFor(const SampleStore &store, std::vector<QString> keys, qint64 columnMs, qint64 gapMs)
{
    ChartRenderInput input;
    input.store = &store;
    input.caches = std::make_shared<ChartRenderCaches>();
    input.range = {kStart, kStart + 9'999};
    input.columnMs = columnMs;
    input.gapMs = gapMs;
    input.keys = std::move(keys);
    return input;
}

Decimator::Points m4Of(const SampleStore &store, const QString &key, const ChartRenderInput &input)
{
    const SampleStore::Series *series = store.series(key);
    return Decimator::m4(series->timestampsMs(), series->values(), input.range, input.columnMs, input.gapMs);
}

} // namespace

TEST(ChartRender, EachColumnKeepsItsMinimumAndMaximumAndTheExtentAndStatisticsAreTheRanges)
{
    SampleStore store;
    // 10 s at 10 ms: a saw from 0 to 9 every 100 ms, one spike of 500 at 4.321 s.
    fill(store, QStringLiteral("saw"), 1000, 10, [](int i) { return i == 432 ? 500.0 : double(i % 10); });
    const ChartRenderInput input = inputFor(store, {QStringLiteral("saw")}, 100, 0);

    const ChartRenderOutput out = ChartRender::run(input);
    EXPECT_EQ(out.range, input.range);
    ASSERT_EQ(out.points.size(), 1u);
    const Decimator::Points &points = out.points[0];
    EXPECT_EQ(points.timestampsMs, m4Of(store, QStringLiteral("saw"), input).timestampsMs)
        << "the job draws exactly Decimator::m4's points";
    EXPECT_EQ(points.values, m4Of(store, QStringLiteral("saw"), input).values);
    EXPECT_LE(points.values.size(), 4u * 100 + 2) << "at most first, min, max, last per column";
    // Every 100 ms column has its 0 and its 9 (or the spike), whatever it dropped in between.
    for (int column = 0; column < 100; ++column) {
        double low = std::numeric_limits<double>::infinity();
        double high = -low;
        for (std::size_t i = 0; i < points.values.size(); ++i) {
            if ((points.timestampsMs[i] - kStart) / 100 == column) {
                low = std::min(low, points.values[i]);
                high = std::max(high, points.values[i]);
            }
        }
        EXPECT_EQ(low, 0.0) << "column " << column;
        EXPECT_EQ(high, column == 43 ? 500.0 : 9.0) << "column " << column;
    }
    ASSERT_EQ(out.extents.size(), 1u);
    EXPECT_EQ(out.extents[0], std::make_pair(0.0, 500.0));
    ASSERT_EQ(out.stats.size(), 1u);
    EXPECT_EQ(out.stats[0].count, 1000);
    EXPECT_EQ(out.stats[0].min, 0.0);
    EXPECT_EQ(out.stats[0].max, 500.0);
    EXPECT_EQ(out.stats[0].last, 9.0);
}

TEST(ChartRender, AGapIsAMarkerBetweenItsTwoSidesAndGapMsFollowsTheStep)
{
    EXPECT_EQ(ChartRender::gapMsFor(0, 10), 2500) << "an unknown step counts as 1 s";
    EXPECT_EQ(ChartRender::gapMsFor(-5, 10), 2500);
    EXPECT_EQ(ChartRender::gapMsFor(1000, 10), 2500);
    EXPECT_EQ(ChartRender::gapMsFor(30'000, 100), 75'000);
    EXPECT_EQ(ChartRender::gapMsFor(1000, 4000), 8000) << "never less than two columns";
    // Where no poller says the step (a picture, a recording): the samples' own, a gap aside.
    const std::vector<qint64> times{0, 15'000, 30'000, 45'000, 120'000, 135'000};
    EXPECT_EQ(ChartRender::typicalStepMs(times, 0, times.size()), 15'000) << "the gap is one distance of five";
    EXPECT_EQ(ChartRender::typicalStepMs(times, 2, 3), 0) << "one sample has no step";

    SampleStore store;
    // 1 s samples with nothing from 3 s to 7 s.
    std::vector<qint64> t;
    std::vector<double> v;
    for (int s = 0; s < 10; ++s) {
        if (s > 2 && s < 7)
            continue;
        t.push_back(kStart + s * 1000);
        v.push_back(10.0 + s);
    }
    store.merge(QStringLiteral("a"), {}, t, v);
    const ChartRenderInput input = inputFor(store, {QStringLiteral("a")}, 10, ChartRender::gapMsFor(1000, 10));
    const ChartRenderOutput out = ChartRender::run(input);
    const Decimator::Points &points = out.points[0];
    int markers = 0;
    for (std::size_t i = 0; i < points.values.size(); ++i) {
        if (std::isfinite(points.values[i]))
            continue;
        ++markers;
        ASSERT_GT(i, 0u);
        ASSERT_LT(i + 1, points.values.size());
        EXPECT_EQ(points.timestampsMs[i - 1], kStart + 2000);
        EXPECT_EQ(points.timestampsMs[i + 1], kStart + 7000);
    }
    EXPECT_EQ(markers, 1) << "one break where four samples are missing";
    EXPECT_EQ(out.extents[0], std::make_pair(10.0, 19.0)) << "the marker is no value";
    EXPECT_EQ(out.stats[0].count, 6);
}

TEST(ChartRender, AnUnknownSeriesIsEmptyInItsPlace)
{
    SampleStore store;
    fill(store, QStringLiteral("b"), 100, 100, [](int i) { return double(i); });
    const ChartRenderOutput out =
        ChartRender::run(inputFor(store, {QStringLiteral("missing"), QStringLiteral("b")}, 100, 0));
    ASSERT_EQ(out.points.size(), 2u) << "one entry per key, in the chart's order";
    EXPECT_TRUE(out.points[0].values.empty());
    EXPECT_EQ(out.extents[0].first, std::numeric_limits<double>::infinity());
    EXPECT_EQ(out.extents[0].second, -std::numeric_limits<double>::infinity());
    EXPECT_EQ(out.stats[0].count, 0);
    EXPECT_EQ(out.extents[1], std::make_pair(0.0, 99.0));
}

TEST(ChartRender, TheCachesForgetWhatChangedAndWhatIsNoLongerShown)
{
    SampleStore store;
    fill(store, QStringLiteral("a"), 1000, 10, [](int i) { return double(i % 7); });
    fill(store, QStringLiteral("b"), 1000, 10, [](int i) { return double(i % 5); });
    ChartRenderInput input = inputFor(store, {QStringLiteral("a"), QStringLiteral("b")}, 100, 0);
    ChartRender::run(input);
    ASSERT_EQ(input.caches->byKey.size(), 2u);

    // A new value in the middle of "a": told, the job draws it.
    const qint64 t = kStart + 5005;
    const double spike = 77;
    store.merge(QStringLiteral("a"), {}, std::span<const qint64>(&t, 1), std::span<const double>(&spike, 1));
    input.changes = {{QStringLiteral("a"), TimeRange{t, t}}};
    ChartRenderOutput out = ChartRender::run(input);
    EXPECT_EQ(out.extents[0].second, 77.0);
    EXPECT_EQ(out.points[0].values, m4Of(store, QStringLiteral("a"), input).values);
    EXPECT_GT(input.caches->byKey[QStringLiteral("a")].reusedColumns(), 90u) << "only the changed column is new";

    // "b" is no longer shown: its cache goes.
    input.changes.clear();
    input.keys = {QStringLiteral("a")};
    out = ChartRender::run(input);
    EXPECT_EQ(input.caches->byKey.count(QStringLiteral("b")), 0u);
    EXPECT_EQ(out.points.size(), 1u);

    // Everything forgotten: all columns computed again.
    input.forgetAll = true;
    ChartRender::run(input);
    EXPECT_EQ(input.caches->byKey[QStringLiteral("a")].reusedColumns(), 0u);
}

TEST(ChartChangeLog, KeepsChangesInOrderAndFoldsThemAboveItsLimit)
{
    ChartChangeLog log;
    log.add(QStringLiteral("b"), {10, 20});
    log.add(QStringLiteral("a"), {5, 6});
    log.add(QStringLiteral("b"), {30, 40});
    ASSERT_EQ(log.changes().size(), 3u);
    EXPECT_EQ(log.changes()[0], std::make_pair(QStringLiteral("b"), TimeRange{10, 20}));
    EXPECT_EQ(log.changes()[2], std::make_pair(QStringLiteral("b"), TimeRange{30, 40}));

    // A view of the past while live ticks arrive: above 256 entries, one span per series.
    for (qint64 i = 0; i < qint64(ChartChangeLog::kFoldAbove) - 3; ++i)
        log.add(QStringLiteral("a"), {1000 + i, 1000 + i});
    EXPECT_EQ(log.changes().size(), ChartChangeLog::kFoldAbove) << "not folded up to the limit";
    log.add(QStringLiteral("c"), {1, 2});
    ASSERT_EQ(log.changes().size(), 3u);
    EXPECT_EQ(log.changes()[0], std::make_pair(QStringLiteral("a"), TimeRange{5, 1000 + 252}));
    EXPECT_EQ(log.changes()[1], std::make_pair(QStringLiteral("b"), TimeRange{10, 40}));
    EXPECT_EQ(log.changes()[2], std::make_pair(QStringLiteral("c"), TimeRange{1, 2}));

    log.forgetAll();
    ChartChangeLog::Taken taken = log.take();
    EXPECT_EQ(taken.changes.size(), 3u);
    EXPECT_TRUE(taken.forgetAll);
    EXPECT_TRUE(log.changes().empty()) << "a job takes the log";
    EXPECT_FALSE(log.forgetsAll());
    taken = log.take();
    EXPECT_TRUE(taken.changes.empty());
    EXPECT_FALSE(taken.forgetAll);
}

TEST(ChartRenderer, ChangesWithinAFrameCauseOneJobAndOnlyShownSeriesNearTheViewCauseAny)
{
    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kStart + 600'000; });
    window.setWindowMs(600'000);
    std::vector<ChartRenderOutput> outputs;
    ChartRenderer renderer(
        &store, &window,
        [] {
            return ChartRenderer::Frame{600, 1000};
        },
        [&](ChartRenderOutput output) { outputs.push_back(std::move(output)); });
    renderer.setKeys({QStringLiteral("shown")});
    ASSERT_TRUE(QTest::qWaitFor([&] { return outputs.size() == 1; }, 5000));
    QTest::qWait(3 * ChartRenderer::kDelayMs);
    ASSERT_EQ(outputs.size(), 1u) << "the construction and setKeys: one job";

    // Ten merges in a row: one job, which sees all of them.
    for (int i = 0; i < 10; ++i) {
        const qint64 t = kStart + 1000 * (i + 1);
        const double v = i;
        store.merge(QStringLiteral("shown"), {}, std::span<const qint64>(&t, 1), std::span<const double>(&v, 1));
    }
    ASSERT_TRUE(QTest::qWaitFor([&] { return outputs.size() == 2; }, 5000));
    QTest::qWait(3 * ChartRenderer::kDelayMs);
    ASSERT_EQ(outputs.size(), 2u);
    EXPECT_EQ(outputs[1].stats[0].count, 10);
    EXPECT_EQ(outputs[1].range, window.range());

    // A series the chart does not show, and a change an hour before the view: no job.
    const qint64 old = kStart - 3'600'000;
    const double v = 1;
    store.merge(QStringLiteral("other"), {}, std::span<const qint64>(&old, 1), std::span<const double>(&v, 1));
    store.merge(QStringLiteral("shown"), {}, std::span<const qint64>(&old, 1), std::span<const double>(&v, 1));
    QTest::qWait(3 * ChartRenderer::kDelayMs);
    EXPECT_EQ(outputs.size(), 2u);

    // A new range: a job.
    window.showRange({kStart, kStart + 5000});
    ASSERT_TRUE(QTest::qWaitFor([&] { return outputs.size() == 3; }, 5000));
    EXPECT_EQ(outputs[2].range, (TimeRange{kStart, kStart + 5000}));
}

TEST(ChartRender, AHeatmapJobHandsBackTheBucketGridAndDecimatesNothing)
{
    SampleStore store;
    std::vector<qint64> t;
    std::vector<double> low;
    std::vector<double> all;
    for (int i = 0; i < 10; ++i) {
        t.push_back(kStart + i * 1000);
        low.push_back(3);
        all.push_back(5);
    }
    store.merge(QStringLiteral("fast"), {{QStringLiteral("le"), QStringLiteral("0.1")}}, t, low);
    store.merge(QStringLiteral("all"), {{QStringLiteral("le"), QStringLiteral("+Inf")}}, t, all);
    ChartRenderInput input = inputFor(store, {QStringLiteral("fast"), QStringLiteral("all")}, 10, 0);
    input.heatmap = true;
    input.heatmapColumnMs = 1000;
    const ChartRenderOutput out = ChartRender::run(input);
    ASSERT_TRUE(out.heatmap.has_value());
    EXPECT_EQ(out.heatmap->rows(), 2);
    EXPECT_EQ(out.heatmap->columns, 10);
    EXPECT_DOUBLE_EQ(out.heatmap->cell(4, 0), 3);
    EXPECT_DOUBLE_EQ(out.heatmap->cell(4, 1), 2);
    ASSERT_EQ(out.points.size(), 2u) << "one entry per series still, as the chart expects";
    EXPECT_TRUE(out.points[0].timestampsMs.empty()) << "no curve is drawn";
    EXPECT_TRUE(input.caches->byKey.empty());
}
