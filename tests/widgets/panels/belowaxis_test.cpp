// SPDX-License-Identifier: GPL-3.0-or-later
// The value axis fits what a user looks at. A derived "sent − accepted" that dips to −30 for a
// second beside a throughput of 400 once took the axis to −250, a quarter of the plot for
// nothing: the axis stays at zero, the dip is cut there, and the series' legend row says so.
// A limit of 20 beside an in-flight count that reached 800 was a flat line on 0–1k: a click
// on its legend row shows it alone, the axis fitted to it.
#include "chart/legendview.h"
#include "chart/timelinechart.h"
#include "dashboard/loader/dashboardloader.h"
#include "panels/panelwidget.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QTest>
#include <functional>
#include <gtest/gtest.h>
#include <memory>

namespace {

constexpr qint64 kNow = 1'700'000'000'000;

// A panel of two queries ("q0", "q1" in the store), two minutes of one sample a second each,
// shown with its legend filled.
struct TwoSeriesPanel : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    std::unique_ptr<PanelWidget> panel;
    LegendView *legend = nullptr;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(2 * 60'000);
    }

    void show(const char *dashboard, const std::function<double(int)> &first, const std::function<double(int)> &second)
    {
        const auto loaded = DashboardLoader::fromJson(QByteArray(dashboard));
        ASSERT_TRUE(loaded.usable);
        const PanelDefinition &definition = loaded.dashboard.panels[0];
        for (int q = 0; q < 2; ++q) {
            std::vector<qint64> times;
            std::vector<double> values;
            for (int i = 0; i <= 120; ++i) {
                times.push_back(kNow - 120'000 + i * 1000);
                values.push_back(q == 0 ? first(i) : second(i));
            }
            store.merge(QStringLiteral("q%1").arg(q), {}, times, values);
        }
        panel = std::make_unique<PanelWidget>(definition, &store, &window);
        for (int q = 0; q < 2; ++q)
            panel->chart()->addSeries(QStringLiteral("q%1").arg(q), definition.series[std::size_t(q)].legend, q);
        panel->resize(640, 320);
        panel->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(panel.get()));
        legend = panel->findChild<LegendView *>(QStringLiteral("legend"));
        ASSERT_TRUE(
            QTest::qWaitFor([&] { return legend->rows().size() == 2 && !legend->rows()[1].last.isEmpty(); }, 5000));
    }
};

} // namespace

TEST_F(TwoSeriesPanel, ASmallDipKeepsTheAxisAtZeroAndTheLegendSaysIt)
{
    show(R"json({"panels": [{"title": "Throughput", "unit": "ops/s",
        "series": [{"query": "sent", "legend": "sent/s"}, {"query": "sent - accepted", "legend": "sent − accepted"}]}]})json",
         [](int) { return 400.0; }, [](int i) { return i == 60 ? -30.2 : 0.1; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return !legend->rows()[1].note.isEmpty(); }, 5000));
    EXPECT_DOUBLE_EQ(panel->chart()->valueScale(AxisSide::Left).low, 0) << "no step below zero for the dip";
    EXPECT_TRUE(legend->rows()[1].note.contains(QStringLiteral("below the axis")))
        << legend->rows()[1].note.toStdString();
    EXPECT_TRUE(legend->rows()[1].note.contains(QStringLiteral("30.2"))) << legend->rows()[1].note.toStdString();
    // A remark on the axis, not a verdict: no check's place, so it is never drawn green or red.
    EXPECT_TRUE(legend->rows()[1].check.isEmpty()) << legend->rows()[1].check.toStdString();
    EXPECT_TRUE(legend->rows()[0].note.isEmpty()) << "sent/s is all on the axis";
}

// A click on the limit's legend row shows it alone and the axis fits it; a click again shows
// both; Ctrl+click hides one.
TEST_F(TwoSeriesPanel, ALegendClickShowsTheSeriesAloneWithItsAxisFittedAndAClickAgainShowsAll)
{
    show(R"json({"panels": [{"title": "In-flight vs limit",
        "series": [{"query": "inflight", "legend": "in flight"}, {"query": "limit", "legend": "in-flight limit"}]}]})json",
         [](int i) { return i < 30 ? 800.0 : 20.0; }, [](int) { return 20.0; });
    TimelineChart *chart = panel->chart();
    EXPECT_GE(chart->valueScale(AxisSide::Left).high, 800);

    const int rowHeight = legend->height() / 2;
    const QPoint limitRow(20, rowHeight + rowHeight / 2);
    QTest::mouseClick(legend, Qt::LeftButton, {}, limitRow);
    EXPECT_FALSE(chart->isSeriesVisible(QStringLiteral("q0")));
    EXPECT_TRUE(chart->isSeriesVisible(QStringLiteral("q1")));
    EXPECT_LE(chart->valueScale(AxisSide::Left).high, 30) << "the axis fits the limit";
    EXPECT_TRUE(legend->rows()[0].hidden) << "the hidden row says so";

    QTest::mouseClick(legend, Qt::LeftButton, {}, limitRow);
    EXPECT_TRUE(chart->isSeriesVisible(QStringLiteral("q0")));
    EXPECT_GE(chart->valueScale(AxisSide::Left).high, 800) << "both again";

    QTest::mouseClick(legend, Qt::LeftButton, Qt::ControlModifier, QPoint(20, rowHeight / 2));
    EXPECT_FALSE(chart->isSeriesVisible(QStringLiteral("q0")));
    EXPECT_TRUE(chart->isSeriesVisible(QStringLiteral("q1")));
}
