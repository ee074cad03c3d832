// SPDX-License-Identifier: GPL-3.0-or-later
// Dashboard variables against the real Prometheus scraping the real testbed: a label-values
// variable gets its choices from Prometheus, and choosing another value asks the panel's
// query again over the whole window, so the panel shows the new value's series only.
#include "dashboard/loader/dashboardloader.h"
#include "fetching/dashboardpoller.h"
#include "fetching/variablevaluesloader.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "store/samplestore.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "timeline/timewindow.h"
#include "waitfor.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

namespace {

class VariablesAgainstPrometheus : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_engine = new TestbedProcess;
        ASSERT_TRUE(s_engine->start(engineBinary(), {})) << s_engine->errorString().toStdString();
        s_starter = new TestbedProcess;
        ASSERT_TRUE(s_starter->start(starterBinary(), {QStringLiteral("--target"), s_engine->baseUrl(),
                                                       QStringLiteral("--rate"), QStringLiteral("10")}))
            << s_starter->errorString().toStdString();
        s_prometheus = new PrometheusProcess;
        ASSERT_TRUE(s_prometheus->start(
            {{QStringLiteral("engine"), s_engine->hostPort()}, {QStringLiteral("starter"), s_starter->hostPort()}}))
            << s_prometheus->errorString().toStdString();
        // Every target scraped once, Prometheus itself too: all three jobs have a series.
        ASSERT_TRUE(s_prometheus->waitForSeries(
            QStringLiteral("count(up{job=~\"engine|starter|prometheus\"} == 1) == 3"), 30000))
            << s_prometheus->log().toStdString();
    }
    static void TearDownTestSuite()
    {
        delete s_prometheus;
        delete s_starter;
        delete s_engine;
        s_prometheus = nullptr;
        s_starter = nullptr;
        s_engine = nullptr;
    }

    void SetUp() override
    {
        PrometheusConnection connection;
        connection.baseUrl = s_prometheus->url();
        m_client = std::make_unique<PrometheusClient>(connection);
    }

    static VariableDefinition jobVariable(const QString &match)
    {
        VariableDefinition job;
        job.name = QStringLiteral("job");
        job.labelName = QStringLiteral("job");
        job.labelMatch = match;
        job.value = QStringLiteral("prometheus");
        return job;
    }

    static PrometheusProcess *s_prometheus;
    static TestbedProcess *s_engine;
    static TestbedProcess *s_starter;
    std::unique_ptr<PrometheusClient> m_client;
};
PrometheusProcess *VariablesAgainstPrometheus::s_prometheus = nullptr;
TestbedProcess *VariablesAgainstPrometheus::s_engine = nullptr;
TestbedProcess *VariablesAgainstPrometheus::s_starter = nullptr;

} // namespace

TEST_F(VariablesAgainstPrometheus, ALabelValuesVariableGetsItsChoicesFromPrometheus)
{
    VariableValuesLoader loader(m_client.get());
    QSignalSpy loaded(&loader, &VariableValuesLoader::loaded);
    QSignalSpy failed(&loader, &VariableValuesLoader::failed);
    loader.load(jobVariable(QStringLiteral("up{job=~\".+\"}")));
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 15000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().at(1).toString().toStdString();
    EXPECT_EQ(loaded.first().at(0).toString(), QStringLiteral("job"));
    EXPECT_EQ(loaded.first().at(1).toStringList(), (QStringList{"engine", "prometheus", "starter"}));

    // Only the series the selector matches count.
    loaded.clear();
    loader.load(jobVariable(QStringLiteral("starter_requests_sent_total")));
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 15000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().at(1).toString().toStdString();
    EXPECT_EQ(loaded.first().at(1).toStringList(), (QStringList{"prometheus", "starter"}))
        << "the value in use stays, first, though no such series has it";

    // A selector Prometheus cannot parse: the reason, not a crash or an empty list.
    loader.load(jobVariable(QStringLiteral("up{")));
    ASSERT_TRUE(waitFor([&] { return !failed.isEmpty(); }, 15000));
    EXPECT_EQ(failed.first().at(0).toString(), QStringLiteral("job"));
    EXPECT_FALSE(failed.first().at(1).toString().isEmpty());
}

TEST_F(VariablesAgainstPrometheus, ChoosingAnotherValueRefetchesTheWholeWindow)
{
    const auto loadedDashboard = DashboardLoader::fromJson(R"json({
        "refresh": "1s", "window": "2m",
        "variables": { "job": { "labelValues": { "label": "job", "match": "up" }, "default": "prometheus" } },
        "panels": [{ "title": "up", "series": [{ "query": "up{job=\"$job\"} + 0 * count_over_time(up{job=\"$job\"}[$__rate_interval])",
                                                 "legend": "{{job}}" }] }]
    })json");
    ASSERT_TRUE(loadedDashboard.issues.isEmpty()) << loadedDashboard.issues.first().toString().toStdString();
    SampleStore store;
    TimeWindow window;
    window.setWindowMs(2 * 60'000);
    DashboardPoller poller(m_client.get(), &store, &window);
    poller.setDashboard(loadedDashboard.dashboard);
    poller.setPanelWidth(0, 2000);
    poller.start();

    const auto legends = [&] {
        QStringList out;
        for (const DashboardPoller::SeriesBinding &binding : poller.seriesOfPanel(0))
            out << binding.legend;
        return out;
    };
    ASSERT_TRUE(waitFor([&] { return legends() == QStringList{"prometheus"}; }, 15000))
        << legends().join(QLatin1Char(',')).toStdString() << " " << poller.panelStatus(0).message.toStdString();
    const QString oldKey = poller.seriesOfPanel(0).front().key;
    EXPECT_TRUE(oldKey.contains(QStringLiteral("$job=prometheus/"))) << oldKey.toStdString();

    // Enough of the starter's history for the refetch to show it.
    ASSERT_TRUE(s_prometheus->waitForSeries(QStringLiteral("count_over_time(up{job=\"starter\"}[1m]) >= 10"), 30000));
    QSignalSpy replaced(&poller, &DashboardPoller::seriesReplaced);
    const qint64 chosenAtMs = window.now();
    ASSERT_TRUE(poller.setVariable(QStringLiteral("job"), QStringLiteral("starter")));
    ASSERT_EQ(replaced.size(), 1);
    EXPECT_EQ(replaced.first().first().value<QList<int>>(), QList<int>{0});
    EXPECT_FALSE(store.contains(oldKey)) << "the old value's samples are not the new value's";

    ASSERT_TRUE(waitFor([&] { return legends() == QStringList{"starter"}; }, 15000))
        << legends().join(QLatin1Char(',')).toStdString() << " " << poller.panelStatus(0).message.toStdString();
    const QString newKey = poller.seriesOfPanel(0).front().key;
    EXPECT_TRUE(newKey.contains(QStringLiteral("$job=starter/"))) << newKey.toStdString();
    const SampleStore::Series *series = store.series(newKey);
    ASSERT_NE(series, nullptr);
    EXPECT_EQ(series->labels().value(QStringLiteral("job")), QStringLiteral("starter"));
    // The whole window, not only what comes after the choice: the starter has been scraped
    // since the suite started.
    ASSERT_FALSE(series->isEmpty());
    EXPECT_LT(series->timestampsMs().front(), chosenAtMs - 5000);
    // And it goes on live under the new value.
    const qint64 newest = *store.newestTimestamp(newKey);
    ASSERT_TRUE(waitFor([&] { return *store.newestTimestamp(newKey) >= newest + 2000; }, 15000));
    EXPECT_EQ(poller.panelStatus(0).state, PanelStatus::State::Ok) << poller.panelStatus(0).message.toStdString();
    EXPECT_FALSE(store.contains(oldKey)) << "no late answer of the old value came back";
}
