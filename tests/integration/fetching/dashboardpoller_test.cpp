// SPDX-License-Identifier: GPL-3.0-or-later
// The live loop against the real Prometheus, and against VictoriaMetrics (a second
// implementation of its query API that teams move to when one Prometheus no longer fits):
// panels fill, polls after the first fetch only what is new (no duplicates, nothing
// missing), what is recorded is what the server answers once its data is complete, and
// failures show in the panel's state.
#include "fetching/dashboardpoller.h"
#include "fetching/revisionwindow.h"
#include "freeport.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "timeline/timewindow.h"
#include "waitfor.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>

namespace {

using Server = PrometheusProcess::Server;

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

Result<PromQueryResult> await(const QFuture<Result<PromQueryResult>> &future)
{
    if (!waitFor([&] { return future.isFinished(); }, 20000) || future.resultCount() == 0)
        return Error::make(Error::Kind::Invalid, QStringLiteral("test: no answer in time"));
    return future.result();
}

// One server of each kind for the whole suite (the one ctest shares, or one started when a
// test first needs it).
class PollerAgainstServer : public ::testing::TestWithParam<Server>
{
protected:
    void SetUp() override
    {
        std::unique_ptr<PrometheusProcess> &server = s_servers[GetParam()];
        if (!server) {
            server = std::make_unique<PrometheusProcess>(GetParam());
            ASSERT_TRUE(server->startOrShare()) << server->errorString().toStdString();
            // A server that has been scraping for a while, as on the day: VictoriaMetrics
            // answers a new series' range queries only some 40 s after its first scrape.
            ASSERT_TRUE(server->waitForRangeSamples(QStringLiteral("up"), 5, 120000)) << server->log().toStdString();
        }
        m_server = server.get();
    }
    static void TearDownTestSuite() { s_servers.clear(); }

    PrometheusProcess *m_server = nullptr;
    static std::map<Server, std::unique_ptr<PrometheusProcess>> s_servers;
};
std::map<Server, std::unique_ptr<PrometheusProcess>> PollerAgainstServer::s_servers;

} // namespace

INSTANTIATE_TEST_SUITE_P(Servers, PollerAgainstServer, ::testing::Values(Server::Prometheus, Server::VictoriaMetrics),
                         [](const ::testing::TestParamInfo<Server> &param) {
                             return param.param == Server::Prometheus ? std::string("Prometheus")
                                                                      : std::string("VictoriaMetrics");
                         });

TEST_P(PollerAgainstServer, FillsThenPollsIncrementallyWithoutDuplicates)
{
    PrometheusClient client(connectionTo(m_server->url()));
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
    EXPECT_EQ(bindings.front().legend, m_server->selfJob());
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

TEST_P(PollerAgainstServer, WhatIsRecordedIsWhatTheServerAnswersOnceItsDataIsComplete)
{
    // A rate that changes at every scrape. VictoriaMetrics answers the last 30 s from data
    // still arriving and revises them afterwards; the tail polls must ask again for all of it,
    // or the recording keeps the provisional values.
    const QString query = QStringLiteral("sum(rate(process_cpu_seconds_total[5s]))");
    ASSERT_TRUE(m_server->waitForRangeSamples(query, 5, 120000));
    PrometheusClient client(connectionTo(m_server->url()));
    SampleStore store;
    TimeWindow window;
    window.setWindowMs(2 * 60'000);
    DashboardPoller poller(&client, &store, &window);
    // Beside it, a sum of many series: a server adds them up in another order from one range
    // asked to the next, and that rounding must not pass for a revision.
    poller.setDashboard(dashboardWith({query, QStringLiteral(R"(sum(rate({__name__=~".+_total"}[5s])))")}));
    poller.setPanelWidth(0, 2000);
    poller.start();
    const auto rateSeries = [&]() -> std::optional<QString> {
        for (const SeriesBinding &binding : poller.seriesOfPanel(0))
            if (binding.query == 0)
                return binding.key;
        return std::nullopt;
    };
    ASSERT_TRUE(QTest::qWaitFor([&] { return rateSeries().has_value(); }, 30000))
        << poller.panelStatus(0).message.toStdString();
    const QString key = *rateSeries();
    const qint64 began = *store.newestTimestamp(key);
    // Long enough for 30 s of samples recorded live to leave a 30 s revision window behind.
    ASSERT_TRUE(QTest::qWaitFor([&] { return *store.newestTimestamp(key) >= began + 70'000; }, 120000));
    poller.stop();

    // Compared from where the live polls began to where the server's answer is final.
    const TimeRange compared{began, *store.newestTimestamp(key) - 36'000};
    const Result<PromQueryResult> final = await(client.rangeQuery(query, compared, 1000));
    ASSERT_TRUE(final.ok()) << final.error().message.toStdString();
    ASSERT_EQ(final->series.size(), 1u);
    const PromSeries &answer = final->series.front();
    const SampleStore::Series *recorded = store.series(key);
    ASSERT_NE(recorded, nullptr);
    const auto t = recorded->timestampsMs();
    const auto v = recorded->values();
    int comparedPoints = 0;
    int differing = 0;
    QString firstDifference;
    for (std::size_t i = 0; i < answer.timestampsMs.size(); ++i) {
        const auto at = std::lower_bound(t.begin(), t.end(), answer.timestampsMs[i]);
        if (at == t.end() || *at != answer.timestampsMs[i])
            continue;
        const double mine = v[std::size_t(at - t.begin())];
        ++comparedPoints;
        if (RevisionWindow::isRevision(mine, answer.values[i])) {
            if (differing++ == 0) {
                firstDifference = QStringLiteral("%1 s before the newest: recorded %2, answered now %3")
                                      .arg((*store.newestTimestamp(key) - answer.timestampsMs[i]) / 1000)
                                      .arg(mine)
                                      .arg(answer.values[i]);
            }
        }
    }
    EXPECT_GE(comparedPoints, 25);
    // And the tail asks again for what the server revises, not more: its rounding noise at the
    // oldest instant once made every refresh ask VictoriaMetrics for five minutes.
    EXPECT_LE(poller.stats().revisedMs, 2 * 32'000);
    EXPECT_EQ(differing, 0) << differing << " of " << comparedPoints
                            << " recorded values are provisional ones; first at " << firstDifference.toStdString();
}

TEST_P(PollerAgainstServer, ABadQueryShowsItsErrorAndOthersStillDraw)
{
    PrometheusClient client(connectionTo(m_server->url()));
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller(&client, &store, &window);
    DashboardDefinition dashboard = dashboardWith({QStringLiteral("up")});
    dashboard.panels.push_back(dashboardWith({QStringLiteral("rate(up[")}).panels.front());
    dashboard.panels.push_back(dashboardWith({QStringLiteral("no_such_metric_anywhere")}).panels.front());
    // A scalar: label_replace refuses it, so a tick's merged request fails as a whole, as it
    // does with the bad query in it; each is then asked alone and shows its own state.
    dashboard.panels.push_back(dashboardWith({QStringLiteral("time()")}).panels.front());
    poller.setDashboard(dashboard);
    poller.start();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return poller.panelStatus(0).state == PanelStatus::State::Ok &&
                   poller.panelStatus(1).state == PanelStatus::State::QueryError &&
                   poller.panelStatus(2).state == PanelStatus::State::NoData &&
                   poller.panelStatus(3).state == PanelStatus::State::Ok && poller.stats().mergedRequests >= 1;
        },
        15000))
        << poller.panelStatus(0).message.toStdString() << " | " << poller.panelStatus(1).message.toStdString()
        << " | merged requests " << poller.stats().mergedRequests;
    // The tail polls go on for the panels that draw, alone now.
    const auto newest = [&](int panel) {
        const auto bindings = poller.seriesOfPanel(panel);
        return bindings.empty() ? 0 : store.newestTimestamp(bindings.front().key).value_or(0);
    };
    const qint64 began = std::min(newest(0), newest(3));
    EXPECT_TRUE(QTest::qWaitFor([&] { return std::min(newest(0), newest(3)) >= began + 2000; }, 15000));
    EXPECT_EQ(poller.panelStatus(3).state, PanelStatus::State::Ok) << poller.panelStatus(3).message.toStdString();
    // Each server words it its own way; the user reads the server's words.
    const QString expected =
        m_server->server() == Server::Prometheus ? QStringLiteral("parse error") : QStringLiteral("unexpected token");
    EXPECT_TRUE(poller.panelStatus(1).message.contains(expected)) << poller.panelStatus(1).message.toStdString();
}

TEST_P(PollerAgainstServer, ATickAsksItsQueriesTogetherAndEachGetsWhatItWouldAlone)
{
    // A raw selector (its series keep __name__), an aggregation and a rate: asked together,
    // each must get the series it gets alone, under the same keys, and nothing of the tag.
    const QStringList queries{QStringLiteral("up"), QStringLiteral("count by(job)(up)"),
                              QStringLiteral("sum by(job)(rate(process_cpu_seconds_total[5s]))")};
    ASSERT_TRUE(m_server->waitForRangeSamples(queries.last(), 5, 120000));
    PrometheusClient client(connectionTo(m_server->url()));
    SampleStore store;
    TimeWindow window;
    window.setWindowMs(2 * 60'000);
    DashboardPoller poller(&client, &store, &window);
    poller.setDashboard(dashboardWith(queries));
    poller.setPanelWidth(0, 2000);
    poller.start();
    ASSERT_TRUE(QTest::qWaitFor([&] { return poller.stats().mergedRequests >= 3; }, 30000))
        << "merged tail requests: " << poller.stats().mergedRequests;
    EXPECT_EQ(poller.stats().failed, 0);

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int q = 0; q < queries.size(); ++q) {
        const Result<PromQueryResult> alone = await(client.rangeQuery(queries[q], {now - 60'000, now}, 1000));
        ASSERT_TRUE(alone.ok()) << alone.error().message.toStdString();
        QStringList expected;
        for (const PromSeries &series : alone->series)
            expected.append(series.labelKey());
        QStringList polled;
        for (const DashboardPoller::SeriesBinding &binding : poller.seriesOfPanel(0)) {
            if (binding.query == q)
                polled.append(binding.key.mid(SeriesKey::queryPrefix(0, q).size()));
        }
        expected.sort();
        polled.sort();
        EXPECT_EQ(polled, expected) << queries[q].toStdString();
    }
    for (const DashboardPoller::SeriesBinding &binding : poller.seriesOfPanel(0)) {
        const SampleStore::Series *series = store.series(binding.key);
        ASSERT_NE(series, nullptr);
        const auto t = series->timestampsMs();
        for (std::size_t i = 1; i < t.size(); ++i)
            ASSERT_LT(t[i - 1], t[i]) << binding.key.toStdString() << ": duplicate or unsorted sample";
        EXPECT_GE(*store.newestTimestamp(binding.key), now - 5000) << binding.key.toStdString();
    }
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
