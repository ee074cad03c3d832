// SPDX-License-Identifier: GPL-3.0-or-later
// The plot of one panel, offscreen: what lands in the store ends up drawn, decimated, with
// legend statistics; a failing panel says so in the plot; a drag zooms.
#include "panelwidget.h"
#include "samplestore.h"
#include "timelinechart.h"
#include "timewindow.h"

#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

namespace {

constexpr qint64 kNow = 1'800'000'000'000; // a fixed "now" keeps the test repeatable

SeriesDefinition seriesDefinition(const QString &query, AxisSide axis, SeriesStyle style)
{
    SeriesDefinition series;
    series.query = query;
    series.legend = query;
    series.axis = axis;
    series.style = style;
    return series;
}

PanelDefinition twoSeriesPanel()
{
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    panel.series.push_back(seriesDefinition(QStringLiteral("sent"), AxisSide::Left, SeriesStyle::Line));
    panel.series.push_back(seriesDefinition(QStringLiteral("limit"), AxisSide::Right, SeriesStyle::Step));
    return panel;
}

struct Fixture : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(10 * 60'000);
    }
    void fill(const QString &key, int count, double (*f)(int))
    {
        std::vector<qint64> t;
        std::vector<double> v;
        for (int i = 0; i < count; ++i) {
            t.push_back(kNow - qint64(count - i) * 1000);
            v.push_back(f(i));
        }
        store.merge(key, {}, t, v);
    }
};

int countColor(const QImage &image, const QRect &area, QColor color)
{
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - color.red()) + std::abs(c.green() - color.green())
                         + std::abs(c.blue() - color.blue()) < 60 ? 1 : 0;
        }
    }
    return n;
}

} // namespace

TEST_F(Fixture, DrawsStoreSamplesDecimatedWithLegendStatistics)
{
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.resize(800, 300);
    chart.show();
    QSignalSpy rendered(&chart, &TimelineChart::rendered);
    chart.addSeries(QStringLiteral("a"), QStringLiteral("sent/s"), 0);
    fill(QStringLiteral("a"), 600, [](int i) { return 100.0 + (i % 10); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));

    // 600 samples into ~670 columns: nothing to reduce, but never more than 4 per column.
    EXPECT_LE(chart.drawnPointCount(), 4 * chart.plotWidth() + 2);
    ASSERT_EQ(chart.legend().size(), 1);
    const auto &stats = chart.legend().first().stats;
    ASSERT_TRUE(stats.last.has_value());
    EXPECT_DOUBLE_EQ(*stats.last, 109.0);
    EXPECT_DOUBLE_EQ(stats.min, 100.0);
    EXPECT_DOUBLE_EQ(stats.max, 109.0);
    EXPECT_NEAR(stats.mean, 104.5, 1e-9);

    const QImage image = chart.grab().toImage();
    const QRect plot = chart.plotRect().toRect();
    EXPECT_GT(countColor(image, plot, chart.legend().first().color), 200) << "the curve is not drawn";
}

TEST_F(Fixture, ManySamplesAreReducedToAFewPerPixelColumnAndASpikeSurvives)
{
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.resize(700, 300);
    chart.show();
    chart.addSeries(QStringLiteral("dense"), QStringLiteral("dense"), 0);
    // 100 samples a second for 10 minutes, one spike in the middle.
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < 60'000; ++i) {
        t.push_back(kNow - 600'000 + qint64(i) * 10);
        v.push_back(i == 30'000 ? 1000.0 : 1.0);
    }
    store.merge(QStringLiteral("dense"), {}, t, v);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));
    EXPECT_LE(chart.drawnPointCount(), 4 * chart.plotWidth() + 2);
    EXPECT_DOUBLE_EQ(chart.legend().first().stats.max, 1000.0) << "the spike must survive";
}

TEST_F(Fixture, SourceDownIsWrittenInThePlotNotAFlatLine)
{
    PanelWidget panel(twoSeriesPanel(), &store, &window);
    panel.resize(800, 320);
    panel.show();
    const QImage before = panel.grab().toImage();
    PanelStatus status;
    status.state = PanelStatus::State::SourceDown;
    status.message = QStringLiteral("Prometheus at http://127.0.0.1:1/ refused the connection");
    panel.setStatus(status);
    QTest::qWait(0);
    const QImage after = panel.grab().toImage();
    EXPECT_NE(before, after) << "the state must change what is drawn";
    const QRect plot = panel.chart()->plotRect().toRect().translated(panel.chart()->pos());
    EXPECT_GT(countColor(after, plot, QColor(0xB0, 0x00, 0x20)), 30) << "no red source-down message in the plot";
}

TEST_F(Fixture, DragSelectsATimeRangeAndDoubleClickAsksForLive)
{
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.resize(864, 300); // plot width 864 - 128 = 736 px for 10 minutes
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QSignalSpy selected(&chart, &TimelineChart::rangeSelected);
    QSignalSpy reset(&chart, &TimelineChart::resetRequested);
    const QRectF plot = chart.plotRect();
    const QPoint from(int(plot.left() + plot.width() * 0.25), int(plot.center().y()));
    const QPoint to(int(plot.left() + plot.width() * 0.75), int(plot.center().y()));
    QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(chart.viewport(), to);
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, to);
    ASSERT_EQ(selected.size(), 1);
    const auto range = selected.first().first().value<TimeRange>();
    const TimeRange visible = window.range();
    EXPECT_NEAR(double(range.startMs - visible.startMs), visible.length() * 0.25, 2000.0);
    EXPECT_NEAR(double(range.endMs - visible.startMs), visible.length() * 0.75, 2000.0);

    QTest::mouseDClick(chart.viewport(), Qt::LeftButton, {}, from);
    EXPECT_GE(reset.size(), 1);
}
