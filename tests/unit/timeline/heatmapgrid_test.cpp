// SPDX-License-Identifier: GPL-3.0-or-later
// A histogram's bucket series as a heatmap's grid: each row its own bucket (not everything
// under it), series of one bound added up, columns at fixed instants, and the rows' spacing.
#include "store/samplestore.h"
#include "timeline/heatmapgrid.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace {

constexpr qint64 kStart = 1'800'000'000'000; // a multiple of every column width used here

// A cumulative bucket series: `rate` observations per second at or under `le`, a sample every
// second for `seconds` seconds from kStart.
QString addBucket(SampleStore &store, const QString &le, double rate, int seconds = 60, const QString &pod = {})
{
    const QString key = QStringLiteral("latency{le=%1,pod=%2}").arg(le, pod);
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < seconds; ++i) {
        t.push_back(kStart + i * 1000);
        v.push_back(rate);
    }
    QMap<QString, QString> labels{{QStringLiteral("le"), le}};
    if (!pod.isEmpty())
        labels.insert(QStringLiteral("pod"), pod);
    store.merge(key, labels, t, v);
    return key;
}

const TimeRange kMinute{kStart, kStart + 59'999};

} // namespace

TEST(HeatmapGrid, EachRowHoldsItsOwnBucketNotEverythingBelowIt)
{
    SampleStore store;
    // 10/s up to 100 ms, 30/s up to 500 ms, 40/s in all: 10, 20 and 10 per second in the rows.
    const std::vector<QString> keys{addBucket(store, QStringLiteral("+Inf"), 40),
                                    addBucket(store, QStringLiteral("0.1"), 10),
                                    addBucket(store, QStringLiteral("0.5"), 30)};
    const HeatmapGrid grid = Heatmap::compute(store, keys, kMinute, 10'000);

    ASSERT_EQ(grid.rows(), 3);
    EXPECT_EQ(grid.upperBounds[0], 0.1);
    EXPECT_EQ(grid.upperBounds[1], 0.5);
    EXPECT_TRUE(std::isinf(grid.upperBounds[2]));
    EXPECT_TRUE(grid.hasOpenBucket());
    ASSERT_EQ(grid.columns, 6);
    for (int column = 0; column < grid.columns; ++column) {
        EXPECT_DOUBLE_EQ(grid.cell(column, 0), 10) << column;
        EXPECT_DOUBLE_EQ(grid.cell(column, 1), 20) << column;
        EXPECT_DOUBLE_EQ(grid.cell(column, 2), 10) << column;
    }
    EXPECT_DOUBLE_EQ(grid.maxCell, 20);
    EXPECT_EQ(grid.summary(QStringLiteral("s")), QStringLiteral("2 buckets up to 500 ms · above 500 ms: 25.0 %"));
    EXPECT_EQ(grid.rowName(0, QStringLiteral("s")), QStringLiteral("≤ 100 ms"));
    EXPECT_EQ(grid.rowName(1, QStringLiteral("s")), QStringLiteral("100 ms – 500 ms"));
    EXPECT_EQ(grid.rowName(2, QStringLiteral("s")), QStringLiteral("> 500 ms"));
}

TEST(HeatmapGrid, SeriesOfOneBoundAreAddedUpAsAQueryWithoutSumByLeReturnsOnePerPod)
{
    SampleStore store;
    const std::vector<QString> keys{
        addBucket(store, QStringLiteral("0.1"), 4, 60, QStringLiteral("a")),
        addBucket(store, QStringLiteral("0.1"), 6, 60, QStringLiteral("b")),
        addBucket(store, QStringLiteral("+Inf"), 5, 60, QStringLiteral("a")),
        addBucket(store, QStringLiteral("+Inf"), 9, 60, QStringLiteral("b")),
    };
    const HeatmapGrid grid = Heatmap::compute(store, keys, kMinute, 10'000);
    ASSERT_EQ(grid.rows(), 2);
    EXPECT_DOUBLE_EQ(grid.cell(0, 0), 10);
    EXPECT_DOUBLE_EQ(grid.cell(0, 1), 4);
}

TEST(HeatmapGrid, AColumnWithoutSamplesIsEmptyNotZeroAndABucketNeverGoesNegative)
{
    SampleStore store;
    // Samples for the first 20 s only; for a moment the 0.1 bucket's rate is above the 0.5
    // one's (a counter reset, scrapes at different instants).
    const std::vector<QString> keys{addBucket(store, QStringLiteral("0.1"), 12, 20),
                                    addBucket(store, QStringLiteral("0.5"), 10, 20)};
    const HeatmapGrid grid = Heatmap::compute(store, keys, kMinute, 10'000);
    ASSERT_EQ(grid.columns, 6);
    EXPECT_DOUBLE_EQ(grid.cell(0, 0), 12);
    EXPECT_DOUBLE_EQ(grid.cell(0, 1), 0);
    EXPECT_TRUE(std::isnan(grid.cell(2, 0)));
    EXPECT_TRUE(std::isnan(grid.cell(5, 1)));
    EXPECT_FALSE(grid.hasOpenBucket());
    EXPECT_EQ(grid.summary(QStringLiteral("s")), QStringLiteral("2 buckets up to 500 ms"));
}

TEST(HeatmapGrid, ColumnsStayAtTheirInstantsWhenTheWindowMovesOn)
{
    SampleStore store;
    const std::vector<QString> keys{addBucket(store, QStringLiteral("1"), 3)};
    const HeatmapGrid first = Heatmap::compute(store, keys, kMinute, 10'000);
    const HeatmapGrid later = Heatmap::compute(store, keys, {kStart + 3'500, kStart + 63'499}, 10'000);
    EXPECT_EQ(first.firstColumnMs, kStart);
    EXPECT_EQ(later.firstColumnMs, kStart); // the column the window starts in, whole
    EXPECT_EQ(later.columnAt(kStart + 15'000), 1);
    EXPECT_EQ(later.columnAt(kStart - 1), std::nullopt);
    EXPECT_EQ(later.columnStartMs(1), kStart + 10'000);
}

TEST(HeatmapGrid, SeriesWithoutABoundAreLeftOut)
{
    SampleStore store;
    store.merge(QStringLiteral("rate"), {{QStringLiteral("job"), QStringLiteral("starter")}},
                std::vector<qint64>{kStart}, std::vector<double>{1});
    store.merge(QStringLiteral("odd"), {{QStringLiteral("le"), QStringLiteral("fast")}}, std::vector<qint64>{kStart},
                std::vector<double>{1});
    const HeatmapGrid grid = Heatmap::compute(store, {QStringLiteral("rate"), QStringLiteral("odd")}, kMinute, 10'000);
    EXPECT_EQ(grid.rows(), 0);
    EXPECT_FALSE(grid.hasData());
    EXPECT_EQ(grid.summary(QStringLiteral("s")), QString());
}

TEST(HeatmapGrid, BoundsAreReadAsPrometheusWritesThem)
{
    EXPECT_EQ(Heatmap::parseBound(QStringLiteral("0.25")), 0.25);
    EXPECT_EQ(Heatmap::parseBound(QStringLiteral("1e-3")), 0.001);
    EXPECT_EQ(Heatmap::parseBound(QStringLiteral("+Inf")), std::numeric_limits<double>::infinity());
    EXPECT_EQ(Heatmap::parseBound(QStringLiteral("fast")), std::nullopt);
    EXPECT_EQ(Heatmap::parseBound(QStringLiteral("NaN")), std::nullopt);
    EXPECT_EQ(Heatmap::parseBound(QString()), std::nullopt);
}

TEST(HeatmapGrid, AColumnIsWholeStepsAndAtLeastFourPixelsWide)
{
    EXPECT_EQ(Heatmap::columnMsFor(1000, 100), 1000); // a step is wider than 4 px
    EXPECT_EQ(Heatmap::columnMsFor(1000, 600), 3000); // 4 px are 2.4 s: three steps
    EXPECT_EQ(Heatmap::columnMsFor(0, 10), 1000);     // step unknown: a second
    EXPECT_EQ(Heatmap::columnMsFor(15000, 1000), 15000);
}

TEST(HeatmapGrid, LogRowsGrowByTheBoundsFactorsAndLinearRowsByTheirValues)
{
    const double inf = std::numeric_limits<double>::infinity();
    // 10 ms, 100 ms, 1 s and the open bucket: each a decade, so four equal rows.
    const std::vector<double> log = Heatmap::rowEdges({0.01, 0.1, 1, inf}, true);
    ASSERT_EQ(log.size(), 5u);
    for (std::size_t i = 0; i < log.size(); ++i)
        EXPECT_NEAR(log[i], double(i) / 4, 1e-12) << i;
    // 1, 2, 4 from zero: a quarter, a quarter and a half.
    const std::vector<double> linear = Heatmap::rowEdges({1, 2, 4}, false);
    ASSERT_EQ(linear.size(), 4u);
    EXPECT_DOUBLE_EQ(linear[0], 0);
    EXPECT_DOUBLE_EQ(linear[1], 0.25);
    EXPECT_DOUBLE_EQ(linear[2], 0.5);
    EXPECT_DOUBLE_EQ(linear[3], 1);
    // A bound a logarithm cannot place: equal rows.
    const std::vector<double> equal = Heatmap::rowEdges({0, 1, inf}, true);
    ASSERT_EQ(equal.size(), 4u);
    EXPECT_NEAR(equal[1], 1.0 / 3, 1e-12);
    EXPECT_NEAR(equal[2], 2.0 / 3, 1e-12);
    EXPECT_TRUE(Heatmap::rowEdges({}, true).size() == 1u);
}
