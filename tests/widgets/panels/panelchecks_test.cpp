// SPDX-License-Identifier: GPL-3.0-or-later
// A dashboard's check on a panel: the level drawn on the series' axis, the legend row of each
// series it judges saying how it fared over the visible range (green ✓, red ✗ with the value
// and when), the level red once a series failed it, and "during" limiting it to its phases.
#include "annotations/annotationmodel.h"
#include "chart/legendview.h"
#include "chart/timelinechart.h"
#include "dashboard/loader/dashboardloader.h"
#include "dashboard/panelchecks.h"
#include "panels/panelwidget.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "theme/uitheme.h"
#include "timeline/timewindow.h"

#include <QDateTime>
#include <QTest>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kNow = 1'700'000'000'000;

// Pending of two replicas over the last minute: "a" stays low, "b" rises above 100 for 20 s
// from 30 s before now.
void writePending(SampleStore &store)
{
    std::vector<qint64> times;
    std::vector<double> low;
    std::vector<double> rising;
    for (int i = 0; i <= 60; ++i) {
        times.push_back(kNow - 60'000 + i * 1000);
        low.push_back(5);
        rising.push_back(i >= 30 && i < 50 ? 150 + i : 10);
    }
    store.merge(QStringLiteral("p0/q0/{pod=\"a\"}"), {}, times, low);
    store.merge(QStringLiteral("p0/q0/{pod=\"b\"}"), {}, times, rising);
}

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

struct PanelChecksTest : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    AnnotationModel annotations;
    DashboardDefinition dashboard;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(2 * 60'000);
        UiTheme::instance()->apply(UiTheme::Choice::Light);
        const auto loaded = DashboardLoader::fromJson(R"json({"panels": [
            {"title": "Pool", "series": [{"query": "pending", "id": "pending", "legend": "{{pod}}"}]}],
          "checks": [{"name": "backlog", "series": "pending", "holds": "< 100", "for": "10s"}]})json");
        ASSERT_TRUE(loaded.usable);
        dashboard = loaded.dashboard;
        writePending(store);
    }
};

} // namespace

TEST_F(PanelChecksTest, TheLegendSaysWhichSeriesFailedAndTheLevelTurnsRed)
{
    PanelWidget panel(dashboard.panels[0], &store, &window);
    panel.chart()->addSeries(QStringLiteral("p0/q0/{pod=\"a\"}"), QStringLiteral("a"), 0);
    panel.chart()->addSeries(QStringLiteral("p0/q0/{pod=\"b\"}"), QStringLiteral("b"), 0);
    panel.setChecks(PanelChecks::of(dashboard, 0, dashboard.checks), &annotations);
    panel.resize(640, 320);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto *legend = panel.findChild<LegendView *>(QStringLiteral("legend"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return legend->rows().size() == 2 && !legend->rows()[1].last.isEmpty(); }, 5000));

    EXPECT_EQ(legend->rows()[0].check, QStringLiteral("✓ < 100"));
    EXPECT_FALSE(legend->rows()[0].checkFailed);
    // Broken from 30 s before now; failed 10 s later, at 150 + 40.
    EXPECT_EQ(legend->rows()[1].check, QStringLiteral("✗ 190 at %1").arg(clock(kNow - 20'000)));
    EXPECT_TRUE(legend->rows()[1].checkFailed);
    ASSERT_EQ(panel.chart()->thresholds().size(), 1U);
    EXPECT_TRUE(panel.chart()->thresholds()[0].failed) << "one replica failed it";
    EXPECT_EQ(panel.chart()->thresholds()[0].label, QStringLiteral("backlog < 100"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.chart()->drawnThresholds().isEmpty(); }, 5000));

    // Judged only after "overload", which starts after the break: nothing failed there.
    dashboard.checks[0].during = QStringList{QStringLiteral("overload")};
    panel.setChecks(PanelChecks::of(dashboard, 0, dashboard.checks), &annotations);
    EXPECT_EQ(legend->rows()[1].check, QStringLiteral("– < 100")) << "no phase named overload yet";
    EXPECT_FALSE(legend->rows()[1].checkJudged);
    // A note is an observation and starts no phase; one the user marks #phase does.
    annotations.add(Annotation::note(kNow - 8000, std::nullopt, QStringLiteral("overload")));
    EXPECT_EQ(legend->rows()[1].check, QStringLiteral("– < 100")) << "a plain note starts no phase";
    annotations.add(Annotation::note(kNow - 8000, std::nullopt, QStringLiteral("overload #phase")));
    EXPECT_EQ(legend->rows()[1].check, QStringLiteral("✓ < 100")) << "the phase the #phase note starts";
    EXPECT_FALSE(panel.chart()->thresholds()[0].failed);
}
