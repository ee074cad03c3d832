// SPDX-License-Identifier: GPL-3.0-or-later
// The live loop against the real Prometheus: panels fill, polls after the first fetch only
// what is new (no duplicates, nothing missing), and failures show in the panel's state.
#include "dashboard/dashboardpoller.h"
#include "freeport.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

namespace {

PrometheusConnection connectionTo(const QUrl &url)
{
    PrometheusConnection connection;
    connection.baseUrl = url;
    return connection;
}

DashboardDefinition dashboardWith(const QStringList &queries)
{
    DashboardDefinition dashboard;
    dashboard.refreshSeconds = 1;
    dashboard.windowMs = 2 * 60'000;
    PanelDefinition panel;
    panel.title = QStringLiteral("p");
    for (const QString &query : queries) {
        SeriesDefinition series;
        series.query = query;
        series.legend = QStringLiteral("{{job}}");
        panel.series.push_back(series);
    }
    dashboard.panels.push_back(panel);
    return dashboard;
}

class PollerAgainstPrometheus : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_prometheus = new PrometheusProcess;
        ASSERT_TRUE(s_prometheus->start()) << s_prometheus->errorString().toStdString();
        ASSERT_TRUE(s_prometheus->waitForSeries(QStringLiteral("up"), 30000));
    }
    static void TearDownTestSuite()
    {
        delete s_prometheus;
        s_prometheus = nullptr;
    }
    static PrometheusProcess *s_prometheus;
};
PrometheusProcess *PollerAgainstPrometheus::s_prometheus = nullptr;

} // namespace

TEST_F(PollerAgainstPrometheus, FillsThenPollsIncrementallyWithoutDuplicates)
{
    PrometheusClient client(connectionTo(s_prometheus->url()));
    SampleStore store;
    TimeWindow window;
    window.setWindowMs(2 * 60'000);
    DashboardPoller poller(&client, &store, &window);
    poller.setDashboard(dashboardWith({QStringLiteral("up")}));
    poller.setPanelWidth(0, 2000); // fine enough that the step is the scrape interval
    QSignalSpy statusChanged(&poller, &DashboardPoller::panelStatusChanged);
    poller.start();

    ASSERT_TRUE(QTest::qWaitFor([&] { return poller.panelStatus(0).state == PanelStatus::State::Ok; }, 15000))
        << poller.panelStatus(0).message.toStdString();
    const auto bindings = poller.seriesOfPanel(0);
    ASSERT_EQ(bindings.size(), 1u);
    EXPECT_EQ(bindings.front().legend, QStringLiteral("prometheus"));
    EXPECT_EQ(poller.panelStatus(0).stepMs, 1000);

    const QString key = bindings.front().key;
    const qint64 firstNewest = *store.newestTimestamp(key);
    // Several refresh ticks later the series has grown at the end, one sample per step.
    ASSERT_TRUE(QTest::qWaitFor([&] { return *store.newestTimestamp(key) >= firstNewest + 4000; }, 15000));
    const SampleStore::Series *series = store.series(key);
    const auto t = series->timestampsMs();
    for (std::size_t i = 1; i < t.size(); ++i) {
        ASSERT_LT(t[i - 1], t[i]) << "duplicate or unsorted sample at " << i;
        ASSERT_EQ(t[i] % 1000, 0) << "instants off the step grid";
    }
    // No instant missing in the newest part, where the incremental polls landed.
    const std::size_t n = t.size();
    ASSERT_GE(n, 5u);
    EXPECT_EQ(t[n - 1] - t[n - 5], 4000);
    EXPECT_GE(poller.stats().succeeded, 3);
    EXPECT_EQ(poller.stats().failed, 0);
}

TEST_F(PollerAgainstPrometheus, ABadQueryShowsItsErrorAndOthersStillDraw)
{
    PrometheusClient client(connectionTo(s_prometheus->url()));
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller(&client, &store, &window);
    DashboardDefinition dashboard = dashboardWith({QStringLiteral("up")});
    dashboard.panels.push_back(dashboardWith({QStringLiteral("rate(up[")}).panels.front());
    dashboard.panels.push_back(dashboardWith({QStringLiteral("no_such_metric_anywhere")}).panels.front());
    poller.setDashboard(dashboard);
    poller.start();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return poller.panelStatus(0).state == PanelStatus::State::Ok &&
                   poller.panelStatus(1).state == PanelStatus::State::QueryError &&
                   poller.panelStatus(2).state == PanelStatus::State::NoData;
        },
        15000))
        << poller.panelStatus(1).message.toStdString();
    EXPECT_TRUE(poller.panelStatus(1).message.contains(QStringLiteral("parse error")))
        << poller.panelStatus(1).message.toStdString();
}

TEST(PollerWithoutPrometheus, UnreachableSourceIsShownAsDown)
{
    PrometheusClient client(connectionTo(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(freeLoopbackPort()))));
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller(&client, &store, &window);
    poller.setDashboard(dashboardWith({QStringLiteral("up")}));
    poller.start();
    ASSERT_TRUE(QTest::qWaitFor([&] { return poller.panelStatus(0).state == PanelStatus::State::SourceDown; }, 15000));
    EXPECT_FALSE(poller.panelStatus(0).message.isEmpty());
    EXPECT_GE(poller.stats().sourceDown, 1);
    EXPECT_EQ(poller.stats().succeeded, 0);
}
