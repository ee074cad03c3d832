// SPDX-License-Identifier: GPL-3.0-or-later
// A derived series in a panel's legend: marked dashed like its line, and the legend's tooltip
// says what it computes ("queue wait (Little's law) = pending / rate") and from which series.
#include "chart/legendview.h"
#include "chart/timelinechart.h"
#include "dashboard/loader/dashboardloader.h"
#include "fetching/dashboardpoller.h"
#include "fetching/derivedseriesupdater.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace {

constexpr qint64 kNow = 1'800'000'000'000;

} // namespace

TEST(DerivedLegend, TheLegendTooltipGivesTheFormulaAndItsInputs)
{
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromJson(R"json({"panels": [
      {"title": "Queue", "unit": "", "rightUnit": "s", "series": [
        {"id": "pending", "query": "sum(engine_queue_length)", "legend": "engine queue length"},
        {"id": "completed", "query": "sum(rate(done[10s]))", "legend": "completed/s"},
        {"derive": "littles_law", "inputs": {"pending": "pending", "rate": "completed"}, "axis": "right"}]}]})json");
    ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.value(0).toString().toStdString();

    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kNow; });
    window.setWindowMs(10 * 60'000);
    // Nothing listens there; the poller is never started.
    PrometheusConnection connection;
    connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9"));
    PrometheusClient client(connection);
    DashboardPoller poller(&client, &store, &window);
    poller.setDashboard(loaded.dashboard);
    DerivedSeriesUpdater derived(&store);
    derived.setDashboard(loaded.dashboard);
    DashboardView view(&poller, &store, &window);
    view.rebuild();
    view.resize(900, 400);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_EQ(view.panels().size(), 1u);
    PanelWidget *panel = view.panels().front();

    std::vector<qint64> t;
    std::vector<double> pending, completed;
    for (int s = 0; s < 60; ++s) {
        t.push_back(kNow - 60'000 + s * 1000LL);
        pending.push_back(2900);
        completed.push_back(180);
    }
    store.merge(QStringLiteral("p0/q0/{}"), {}, t, pending);
    store.merge(QStringLiteral("p0/q1/{}"), {}, t, completed);
    panel->chart()->addSeries(QStringLiteral("p0/q0/{}"), QStringLiteral("engine queue length"), 0);
    panel->chart()->addSeries(QStringLiteral("p0/q1/{}"), QStringLiteral("completed/s"), 1);
    panel->chart()->addSeries(DerivedSeriesUpdater::storeKey(0, 2), QStringLiteral("queue wait (Little's law)"), 2);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return panel->chart()->legend().size() == 3 && panel->chart()->legend()[2].stats.last; }, 5000));

    EXPECT_TRUE(panel->legendToolTip().startsWith(
        QStringLiteral("queue wait (Little's law) = pending / rate\npending: engine queue length · rate: completed/s")))
        << panel->legendToolTip().toStdString();
    // The legend row of the derived series carries a dashed mark, the measured ones a solid one.
    auto *legend = panel->findChild<LegendView *>();
    ASSERT_NE(legend, nullptr);
    ASSERT_EQ(legend->rows().size(), 3u);
    for (const LegendView::Row &row : legend->rows())
        EXPECT_EQ(row.dashed, row.name == QStringLiteral("queue wait (Little's law)")) << row.name.toStdString();
}
