// SPDX-License-Identifier: GPL-3.0-or-later
// A derived "sent − accepted" that dips to −30 for a second beside a throughput of 400 once
// took the axis to −250, a quarter of the plot for nothing. The axis stays at zero, the dip is
// cut there, and the series' legend row says so: nothing is hidden without a word.
#include "dashboard/loader/dashboardloader.h"
#include "dashboard/panelwidget.h"
#include "store/samplestore.h"
#include "timeline/legendview.h"
#include "timeline/timelinechart.h"
#include "timeline/timewindow.h"

#include <QTest>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kNow = 1'700'000'000'000;

} // namespace

TEST(BelowTheAxis, ASmallDipKeepsTheAxisAtZeroAndTheLegendSaysIt)
{
    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kNow; });
    window.setWindowMs(2 * 60'000);
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [{"title": "Throughput", "unit": "ops/s",
        "series": [{"query": "sent", "legend": "sent/s"}, {"query": "sent - accepted", "legend": "sent − accepted"}]}]})json");
    ASSERT_TRUE(loaded.usable);
    std::vector<qint64> times;
    std::vector<double> sent;
    std::vector<double> difference;
    for (int i = 0; i <= 120; ++i) {
        times.push_back(kNow - 120'000 + i * 1000);
        sent.push_back(400);
        difference.push_back(i == 60 ? -30.2 : 0.1);
    }
    store.merge(QStringLiteral("sent"), {}, times, sent);
    store.merge(QStringLiteral("difference"), {}, times, difference);
    PanelWidget panel(loaded.dashboard.panels[0], &store, &window);
    panel.chart()->addSeries(QStringLiteral("sent"), QStringLiteral("sent/s"), 0);
    panel.chart()->addSeries(QStringLiteral("difference"), QStringLiteral("sent − accepted"), 1);
    panel.resize(640, 320);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto *legend = panel.findChild<LegendView *>(QStringLiteral("legend"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return legend->rows().size() == 2 && !legend->rows()[1].last.isEmpty() &&
                   !legend->rows()[1].check.isEmpty();
        },
        5000));
    EXPECT_DOUBLE_EQ(panel.chart()->valueScale(AxisSide::Left).low, 0) << "no step below zero for the dip";
    EXPECT_TRUE(legend->rows()[1].check.contains(QStringLiteral("below the axis")))
        << legend->rows()[1].check.toStdString();
    EXPECT_TRUE(legend->rows()[1].check.contains(QStringLiteral("30.2"))) << legend->rows()[1].check.toStdString();
    EXPECT_TRUE(legend->rows()[0].check.isEmpty()) << "sent/s is all on the axis";
}

// The in-flight panel after the fix: a limit of 20 beside an in-flight count that reached 800
// during the collapse, on a 0–1k axis. A click on the limit's legend row shows it alone and
// the axis fits it; a click again shows both; Ctrl+click hides one.
TEST(LegendClick, ShowsTheSeriesAloneWithItsAxisFittedAndAClickAgainShowsAll)
{
    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kNow; });
    window.setWindowMs(2 * 60'000);
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [{"title": "In-flight vs limit",
        "series": [{"query": "inflight", "legend": "in flight"}, {"query": "limit", "legend": "in-flight limit"}]}]})json");
    ASSERT_TRUE(loaded.usable);
    std::vector<qint64> times;
    std::vector<double> inflight;
    std::vector<double> limit;
    for (int i = 0; i <= 120; ++i) {
        times.push_back(kNow - 120'000 + i * 1000);
        inflight.push_back(i < 30 ? 800 : 20);
        limit.push_back(20);
    }
    store.merge(QStringLiteral("inflight"), {}, times, inflight);
    store.merge(QStringLiteral("limit"), {}, times, limit);
    PanelWidget panel(loaded.dashboard.panels[0], &store, &window);
    panel.chart()->addSeries(QStringLiteral("inflight"), QStringLiteral("in flight"), 0);
    panel.chart()->addSeries(QStringLiteral("limit"), QStringLiteral("in-flight limit"), 1);
    panel.resize(640, 320);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto *legend = panel.findChild<LegendView *>(QStringLiteral("legend"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return legend->rows().size() == 2 && !legend->rows()[1].last.isEmpty(); }, 5000));
    TimelineChart *chart = panel.chart();
    EXPECT_GE(chart->valueScale(AxisSide::Left).high, 800);

    const int rowHeight = legend->height() / 2;
    const QPoint limitRow(20, rowHeight + rowHeight / 2);
    QTest::mouseClick(legend, Qt::LeftButton, {}, limitRow);
    EXPECT_FALSE(chart->isSeriesVisible(QStringLiteral("inflight")));
    EXPECT_TRUE(chart->isSeriesVisible(QStringLiteral("limit")));
    EXPECT_LE(chart->valueScale(AxisSide::Left).high, 30) << "the axis fits the limit";
    EXPECT_TRUE(legend->rows()[0].hidden) << "the hidden row says so";

    QTest::mouseClick(legend, Qt::LeftButton, {}, limitRow);
    EXPECT_TRUE(chart->isSeriesVisible(QStringLiteral("inflight")));
    EXPECT_GE(chart->valueScale(AxisSide::Left).high, 800) << "both again";

    QTest::mouseClick(legend, Qt::LeftButton, Qt::ControlModifier, QPoint(20, rowHeight / 2));
    EXPECT_FALSE(chart->isSeriesVisible(QStringLiteral("inflight")));
    EXPECT_TRUE(chart->isSeriesVisible(QStringLiteral("limit")));
}
