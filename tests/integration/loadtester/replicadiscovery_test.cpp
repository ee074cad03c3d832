// SPDX-License-Identifier: GPL-3.0-or-later
// A dashboard that names no admin addresses, only a Prometheus job: the replicas are found
// from what the real Prometheus scrapes (two real starters behind an admin token read from an
// environment variable), steered together, and their set-point is recorded as a series.
#include "dashboard/loader/dashboardloader.h"
#include "dashboard/loadtesterfield.h"
#include "loadtester/loadtesterconnector.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtesterseries.h"
#include "loadtester/replicadiscovery.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "store/samplestore.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <array>
#include <gtest/gtest.h>

namespace {

constexpr const char *kToken = "s3cret-admin-token";

class ReplicaDiscoveryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_tokenDir.isValid());
        const QString tokenFile = m_tokenDir.filePath(QStringLiteral("token"));
        QFile file(tokenFile);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(kToken);
        file.close();

        ASSERT_TRUE(m_engine.start(engineBinary(), {})) << m_engine.errorString().toStdString();
        QList<PrometheusProcess::Target> targets;
        for (size_t i = 0; i < m_starters.size(); ++i) {
            ASSERT_TRUE(m_starters[i].start(starterBinary(),
                                            {QStringLiteral("--target"), m_engine.baseUrl(), QStringLiteral("--rate"),
                                             QStringLiteral("10"), QStringLiteral("--admin-token-file"), tokenFile,
                                             QStringLiteral("--instance"), QStringLiteral("starter-%1").arg(i)}))
                << m_starters[i].errorString().toStdString();
            targets.append({QStringLiteral("starter"), m_starters[i].hostPort()});
        }
        ASSERT_TRUE(m_prometheus.start(targets))
            << m_prometheus.errorString().toStdString() << m_prometheus.log().toStdString();
        PrometheusConnection connection;
        connection.baseUrl = m_prometheus.url();
        m_client = std::make_unique<PrometheusClient>(connection);
    }

    QTemporaryDir m_tokenDir;
    TestbedProcess m_engine;
    std::array<TestbedProcess, 2> m_starters;
    PrometheusProcess m_prometheus;
    std::unique_ptr<PrometheusClient> m_client;
};

TEST_F(ReplicaDiscoveryTest, FindsEveryTargetOfTheJobAsAnAdminEndpoint)
{
    // Right after start Prometheus may not have synced its targets yet.
    ASSERT_TRUE(m_prometheus.waitForSeries(QStringLiteral("count(up{job=\"starter\"}) == 2"), 15000));
    ReplicaDiscovery discovery(m_client.get());
    QSignalSpy found(&discovery, &ReplicaDiscovery::found);
    discovery.discover(QStringLiteral("starter"));
    ASSERT_TRUE(found.wait(15000));
    const QList<QUrl> urls = found.first().first().value<QList<QUrl>>();
    QStringList expected{m_starters[0].baseUrl(), m_starters[1].baseUrl()};
    expected.sort();
    QStringList got;
    for (const QUrl &url : urls)
        got.append(url.toString());
    EXPECT_EQ(got, expected);
}

TEST_F(ReplicaDiscoveryTest, AnUnknownJobIsReportedWithTheJobsThatExist)
{
    ASSERT_TRUE(m_prometheus.waitForSeries(QStringLiteral("count(up{job=\"starter\"}) == 2"), 15000));
    ReplicaDiscovery discovery(m_client.get());
    QSignalSpy failed(&discovery, &ReplicaDiscovery::failed);
    discovery.discover(QStringLiteral("startr"));
    ASSERT_TRUE(failed.wait(15000));
    const QString message = failed.first().first().toString();
    EXPECT_TRUE(message.contains(QStringLiteral("\"startr\""))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("prometheus, starter"))) << message.toStdString();
}

TEST_F(ReplicaDiscoveryTest, DashboardJobAndTokenVariableSteerBothReplicasAndRecordTheSetPoint)
{
    const QByteArray dashboardJson = R"json({
        "title": "Discovered",
        "loadTester": {"kind": "starter", "discover": {"job": "starter"}, "tokenEnv": "CHAOSCOPE_TEST_ADMIN_TOKEN"},
        "panels": [{"title": "Load", "series": [
            {"query": "sum(rate(starter_requests_sent_total[10s]))"},
            {"loadTester": "rate", "legend": "set-point"}]}]
    })json";
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromJson(dashboardJson);
    ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.first().toString().toStdString();

    const auto environment = [](const QString &name) {
        return name == QLatin1String("CHAOSCOPE_TEST_ADMIN_TOKEN") ? QString::fromLatin1(kToken) : QString();
    };
    const LoadTesterPlan plan = LoadTesterPlan::resolve({}, loaded.dashboard.loadTester, environment);
    ASSERT_TRUE(plan.problems.isEmpty()) << plan.problems.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(plan.tokenSource, QStringLiteral("$CHAOSCOPE_TEST_ADMIN_TOKEN"));

    LoadTesterController controller;
    controller.setPollIntervalMs(250);
    SampleStore store;
    LoadTesterSeriesRecorder recorder(&controller, &store);
    LoadTesterConnector connector(&controller, m_client.get(), plan);
    connector.setRetryIntervalMs(500); // Prometheus may not list the targets at first
    QSignalSpy found(&connector, &LoadTesterConnector::replicasFound);
    connector.start();
    ASSERT_TRUE(waitFor([&] { return found.size() == 1; }, 20000));
    EXPECT_EQ(controller.replicaCount(), 2);

    // Both answer with the token; the recorded rate is their sum.
    const QString rateKey = LoadTesterFields::storeKey(LoadTesterField::Rate);
    const auto lastRate = [&]() -> double {
        const SampleStore::Series *series = store.series(rateKey);
        return series && series->size() > 0 ? series->values().back() : -1;
    };
    ASSERT_TRUE(waitFor([&] { return lastRate() == 20.0; }, 15000)) << "rate series: " << lastRate();

    std::optional<ActionReport> report;
    QObject::connect(&controller, &LoadTesterController::actionFinished, &controller,
                     [&](const ActionReport &r) { report = r; });
    LoadTesterAction action;
    action.kind = LoadTesterAction::Kind::SetRate;
    action.value = 35;
    ASSERT_TRUE(controller.apply(action));
    ASSERT_TRUE(waitFor([&] { return report.has_value(); }, 15000));
    EXPECT_TRUE(report->allConfirmed()) << report->summary(controller.capabilities()).toStdString();
    EXPECT_TRUE(waitFor([&] { return lastRate() == 70.0; }, 15000)) << "rate series: " << lastRate();

    // One replica dies: the sum is no longer known, so the set-point line stops (a gap) rather
    // than dropping to 35 /s as if someone had halved the load.
    // (Discovery lists the replicas in the order of their URLs, so either may be this one.)
    m_starters[1].stop();
    ASSERT_TRUE(waitFor([&] { return controller.statusError(0) || controller.statusError(1); }, 15000));
    const int survivor = controller.statusError(0) ? 1 : 0;
    const qsizetype samplesWhenItDied = store.series(rateKey)->size();
    QSignalSpy polled(&controller, &LoadTesterController::statusUpdated);
    ASSERT_TRUE(waitFor([&] { return polled.size() >= 4; }, 15000));
    ASSERT_TRUE(controller.status(survivor).has_value()); // the other replica still answers
    const std::span<const double> values = store.series(rateKey)->values();
    for (size_t i = size_t(samplesWhenItDied); i < values.size(); ++i)
        EXPECT_EQ(values[i], 70.0) << "sample " << i << " after one of two replicas stopped";
    EXPECT_LE(values.size(), size_t(samplesWhenItDied) + 1); // at most a poll that was under way
}

TEST_F(ReplicaDiscoveryTest, WithoutTheTokenEveryReplicaRefusesAndSaysSo)
{
    LoadTesterDefinition definition;
    definition.discoverJob = QStringLiteral("starter");
    definition.tokenEnv = QStringLiteral("CHAOSCOPE_TEST_UNSET_TOKEN");
    const LoadTesterPlan plan = LoadTesterPlan::resolve({}, definition, [](const QString &) { return QString(); });
    ASSERT_EQ(plan.problems.size(), 1);
    EXPECT_TRUE(plan.problems.first().contains(QStringLiteral("$CHAOSCOPE_TEST_UNSET_TOKEN is not set")));

    LoadTesterController controller;
    controller.setPollIntervalMs(250);
    LoadTesterConnector connector(&controller, m_client.get(), plan);
    connector.setRetryIntervalMs(500);
    QSignalSpy found(&connector, &LoadTesterConnector::replicasFound);
    connector.start();
    ASSERT_TRUE(waitFor([&] { return found.size() == 1; }, 20000));
    ASSERT_TRUE(waitFor([&] { return controller.statusError(0) && controller.statusError(1); }, 15000));
    EXPECT_EQ(controller.statusError(0)->httpStatus, 401) << controller.statusError(0)->message.toStdString();
}

} // namespace
