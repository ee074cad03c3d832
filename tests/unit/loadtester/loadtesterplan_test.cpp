// SPDX-License-Identifier: GPL-3.0-or-later
// Which load tester a window steers, from the command line and the dashboard file; where the
// admin token comes from; and that a token never ends up in a dashboard file.
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "loadtester/adapters/locustadapter.h"
#include "loadtester/loadtesterconnector.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtesterplan.h"
#include "loadtester/loadtesterseries.h"
#include "loadtester/replicadiscovery.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

QString noEnvironment(const QString &)
{
    return {};
}

DashboardLoader::LoadResult loadWithLoadTester(const QByteArray &loadTester)
{
    return DashboardLoader::fromJson(R"({"panels": [{"title": "p", "series": [{"query": "up"}]}], "loadTester": )" +
                                     loadTester + "}");
}

TEST(LoadTesterPlan, TheDashboardListsReplicasKindAndTokenVariable)
{
    const auto loaded =
        loadWithLoadTester(R"({"kind": "Locust", "admin": ["http://127.0.0.1:8089", "http://127.0.0.1:8090"],
                                              "tokenEnv": "LOCUST_TOKEN"})");
    ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.first().toString().toStdString();
    const LoadTesterPlan plan = LoadTesterPlan::resolve({}, loaded.dashboard.loadTester, [](const QString &name) {
        return name == QLatin1String("LOCUST_TOKEN") ? QStringLiteral(" abc \n") : QString();
    });
    EXPECT_EQ(plan.kind, QStringLiteral("locust"));
    ASSERT_EQ(plan.adminUrls.size(), 2);
    EXPECT_EQ(plan.adminUrls[1], QUrl(QStringLiteral("http://127.0.0.1:8090")));
    EXPECT_EQ(plan.token, QStringLiteral("abc"));
    EXPECT_TRUE(plan.problems.isEmpty());
    EXPECT_TRUE(plan.isSet());
}

TEST(LoadTesterPlan, LocustsSpawnRateReachesItsAdapters)
{
    const auto loaded = loadWithLoadTester(R"({"kind": "locust", "admin": "http://127.0.0.1:8089", "spawnRate": 25})");
    ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.first().toString().toStdString();
    EXPECT_EQ(loaded.dashboard.loadTester.spawnRate, 25);
    // Kept when a session writes the dashboard down.
    const auto reread = DashboardLoader::fromJson(DashboardWriter::toJson(loaded.dashboard));
    EXPECT_EQ(reread.dashboard.loadTester.spawnRate, 25);

    const LoadTesterPlan plan = LoadTesterPlan::resolve({}, loaded.dashboard.loadTester, noEnvironment);
    LoadTesterController controller;
    LoadTesterConnector connector(&controller, nullptr, plan);
    connector.start();
    ASSERT_EQ(controller.replicaCount(), 1);
    controller.stopPolling();
    const auto *locust = qobject_cast<const LocustAdapter *>(controller.adapter(0));
    ASSERT_NE(locust, nullptr);
    EXPECT_EQ(locust->spawnRate(), 25);
    EXPECT_EQ(locust->effectiveSpawnRate(10, 500), 25) << "not a tenth of the change";

    // Only Locust spawns; a bad value is named where it is.
    const auto starter =
        loadWithLoadTester(R"({"kind": "starter", "admin": "http://127.0.0.1:9091", "spawnRate": 25})");
    ASSERT_EQ(starter.issues.size(), 1);
    EXPECT_EQ(starter.issues.first().path, QStringLiteral("loadTester.spawnRate"));
    EXPECT_TRUE(starter.issues.first().message.contains(QStringLiteral("is for Locust")))
        << starter.issues.first().toString().toStdString();
    EXPECT_EQ(starter.dashboard.loadTester.spawnRate, 0);
    const auto negative =
        loadWithLoadTester(R"({"kind": "locust", "admin": "http://127.0.0.1:8089", "spawnRate": -3})");
    ASSERT_EQ(negative.issues.size(), 1);
    EXPECT_TRUE(negative.issues.first().message.contains(QStringLiteral("above 0")))
        << negative.issues.first().toString().toStdString();
}

TEST(LoadTesterPlan, TheCommandLineWinsFieldByField)
{
    const auto loaded =
        loadWithLoadTester(R"({"kind": "k6", "admin": "http://127.0.0.1:6565", "tokenEnv": "K6_TOKEN"})");
    LoadTesterPlan::CommandLine commandLine;
    commandLine.adminUrls = {QUrl(QStringLiteral("http://127.0.0.1:9999"))};
    commandLine.token = QStringLiteral("from-file");
    const LoadTesterPlan plan = LoadTesterPlan::resolve(commandLine, loaded.dashboard.loadTester, noEnvironment);
    EXPECT_EQ(plan.kind, QStringLiteral("k6")); // not given on the command line: the file's
    EXPECT_EQ(plan.adminUrls, QList<QUrl>{QUrl(QStringLiteral("http://127.0.0.1:9999"))});
    EXPECT_EQ(plan.token, QStringLiteral("from-file"));
    EXPECT_EQ(plan.tokenSource, QStringLiteral("--admin-token-file"));
    EXPECT_TRUE(plan.problems.isEmpty()) << "the unset $K6_TOKEN is not used, so not a problem";
}

TEST(LoadTesterPlan, DiscoveryIsUsedOnlyWithoutListedReplicas)
{
    const auto loaded = loadWithLoadTester(R"({"discover": {"job": "starter", "scheme": "https"}})");
    ASSERT_TRUE(loaded.issues.isEmpty());
    const LoadTesterPlan plan = LoadTesterPlan::resolve({}, loaded.dashboard.loadTester, noEnvironment);
    EXPECT_EQ(plan.discoverJob, QStringLiteral("starter"));
    EXPECT_EQ(plan.discoverScheme, QStringLiteral("https"));
    EXPECT_EQ(plan.kind, QStringLiteral("starter"));
    EXPECT_TRUE(plan.isSet());

    LoadTesterPlan::CommandLine commandLine;
    commandLine.adminUrls = {QUrl(QStringLiteral("http://127.0.0.1:1"))};
    EXPECT_TRUE(LoadTesterPlan::resolve(commandLine, loaded.dashboard.loadTester, noEnvironment).discoverJob.isEmpty());
}

TEST(LoadTesterPlan, TokenFileAndItsProblemsNeverQuoteTheToken)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QFile file(dir.filePath(QStringLiteral("token")));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("tok-123\n");
    file.close();

    LoadTesterDefinition definition;
    definition.adminUrls = {QStringLiteral("http://127.0.0.1:9091")};
    definition.tokenFile = file.fileName();
    LoadTesterPlan plan = LoadTesterPlan::resolve({}, definition, noEnvironment);
    EXPECT_EQ(plan.token, QStringLiteral("tok-123"));
    EXPECT_TRUE(plan.problems.isEmpty());

    definition.tokenFile = dir.filePath(QStringLiteral("missing"));
    plan = LoadTesterPlan::resolve({}, definition, noEnvironment);
    EXPECT_TRUE(plan.token.isEmpty());
    ASSERT_EQ(plan.problems.size(), 1);
    EXPECT_TRUE(plan.problems.first().startsWith(QStringLiteral("loadTester.tokenFile: cannot read")));

    definition.tokenFile.clear();
    definition.tokenEnv = QStringLiteral("ADMIN_TOKEN");
    plan = LoadTesterPlan::resolve({}, definition, noEnvironment);
    ASSERT_EQ(plan.problems.size(), 1);
    EXPECT_EQ(plan.problems.first(),
              QStringLiteral("loadTester.tokenEnv: $ADMIN_TOKEN is not set; the admin calls go without a token"));
}

TEST(LoadTesterPlan, ADashboardCannotSendTheTokenItNamesToAnotherHost)
{
    // A shared dashboard naming this machine's token and pointing its admin calls elsewhere.
    const auto loaded = loadWithLoadTester(R"({"admin": ["http://127.0.0.1:9091", "http://collector.example:80"],
                                              "tokenEnv": "STARTER_TOKEN"})");
    const auto environment = [](const QString &name) {
        return name == QLatin1String("STARTER_TOKEN") ? QStringLiteral("s3cret") : QString();
    };
    LoadTesterPlan plan = LoadTesterPlan::resolve({}, loaded.dashboard.loadTester, environment);
    EXPECT_TRUE(plan.token.isEmpty()) << "the token is not even read";
    ASSERT_EQ(plan.problems.size(), 1);
    EXPECT_TRUE(plan.problems.first().contains(QStringLiteral("collector.example")))
        << plan.problems.first().toStdString();
    EXPECT_TRUE(plan.problems.first().contains(QStringLiteral("--admin-token-file")));
    EXPECT_FALSE(plan.problems.first().contains(QStringLiteral("s3cret")));

    // The user choosing the hosts (--admin) or the token (--admin-token-file) decides.
    LoadTesterPlan::CommandLine typed;
    typed.adminUrls = {QUrl(QStringLiteral("http://starter.example:9091"))};
    plan = LoadTesterPlan::resolve(typed, loaded.dashboard.loadTester, environment);
    EXPECT_EQ(plan.token, QStringLiteral("s3cret"));
    EXPECT_TRUE(plan.problems.isEmpty());

    // Loopback only, as on a laptop running the testbed: used.
    const auto local =
        loadWithLoadTester(R"({"admin": ["http://127.0.0.1:9091", "http://localhost:9092", "http://[::1]:9093"],
                                             "tokenEnv": "STARTER_TOKEN"})");
    plan = LoadTesterPlan::resolve({}, local.dashboard.loadTester, environment);
    EXPECT_EQ(plan.token, QStringLiteral("s3cret"));
    EXPECT_TRUE(plan.problems.isEmpty());
}

TEST(LoadTesterPlan, ATokenWrittenIntoTheDashboardIsRefusedWithTheWayToDoIt)
{
    const auto loaded =
        loadWithLoadTester(R"({"kind": "starter", "token": "oops", "admin": ["ftp://x", "http://127.0.0.1:9091"],
                                              "tokenEnv": "1BAD", "discover": {"scheme": "gopher"}})");
    QStringList issues;
    for (const DashboardIssue &issue : loaded.issues)
        issues.append(issue.toString());
    EXPECT_TRUE(issues.contains(QStringLiteral(
        "loadTester: a token is never kept in a dashboard file; name a \"tokenFile\" or \"tokenEnv\" instead")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(QStringLiteral("loadTester.admin[0]: \"ftp://x\" is not an http(s) URL")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(QStringLiteral("loadTester.tokenEnv: \"1BAD\" is not an environment variable name")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(QStringLiteral("loadTester.discover.scheme: must be \"http\" or \"https\"")))
        << issues.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(issues.contains(
        QStringLiteral("loadTester.discover.job: missing: the Prometheus job whose targets are the replicas")))
        << issues.join(QLatin1Char('\n')).toStdString();
    // The good parts still load, and the token is nowhere in what was read.
    EXPECT_EQ(loaded.dashboard.loadTester.adminUrls, QStringList{QStringLiteral("http://127.0.0.1:9091")});
    EXPECT_FALSE(issues.join(QLatin1Char(' ')).contains(QStringLiteral("oops")));
}

TEST(LoadTesterSeriesDefinition, ASeriesCanDrawALoadTesterValueAsASteppedSetPoint)
{
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [{"title": "Load", "series": [
        {"query": "sum(rate(x[1m]))"}, {"loadTester": "inflightLimit"}, {"loadTester": "speed"}]}]})json");
    ASSERT_EQ(loaded.dashboard.panels.size(), 1u);
    const auto &series = loaded.dashboard.panels[0].series;
    ASSERT_EQ(series.size(), 2u) << "the unknown field is dropped";
    EXPECT_EQ(series[1].loadTester, LoadTesterField::InflightLimit);
    EXPECT_EQ(series[1].style, SeriesStyle::Step);
    EXPECT_EQ(LoadTesterFields::storeKey(series[1].loadTester), QStringLiteral("loadtester/inflightLimit"));
    ASSERT_EQ(loaded.issues.size(), 1);
    EXPECT_EQ(loaded.issues.first().toString(),
              QStringLiteral("panels[0].series[2].loadTester: \"speed\" must be one of \"rate\", \"inflightLimit\", "
                             "\"inflight\", \"pending\", \"paused\""));
}

TEST(ReplicaDiscoveryParse, TargetsOfTheJobBecomeAdminUrls)
{
    const QByteArray json = R"({"status":"success","data":{"activeTargets":[
        {"labels":{"job":"starter","instance":"a"},"scrapeUrl":"http://10.0.0.2:9091/metrics","health":"up"},
        {"labels":{"job":"prometheus"},"scrapeUrl":"http://127.0.0.1:9090/metrics","health":"up"},
        {"labels":{"job":"starter","instance":"b"},"scrapeUrl":"http://10.0.0.1:9091/metrics","health":"down"},
        {"labels":{"job":"starter","instance":"b2"},"scrapeUrl":"http://10.0.0.1:9091/metrics?x=1","health":"up"}]}})";
    const auto urls = ReplicaDiscovery::parseTargets(json, QStringLiteral("starter"), QStringLiteral("http"));
    ASSERT_TRUE(urls.ok());
    EXPECT_EQ(urls.value(),
              (QList<QUrl>{QUrl(QStringLiteral("http://10.0.0.1:9091")), QUrl(QStringLiteral("http://10.0.0.2:9091"))}))
        << "sorted, a down target included (it shows as failing), duplicates once";
}

TEST(ReplicaDiscoveryParse, BadAnswersAreWorded)
{
    EXPECT_EQ(ReplicaDiscovery::parseTargets("<html>", QStringLiteral("s"), QStringLiteral("http")).error().kind,
              Error::Kind::Parse);
    const auto refused = ReplicaDiscovery::parseTargets(R"({"status":"error","error":"nope"})", QStringLiteral("s"),
                                                        QStringLiteral("http"));
    EXPECT_EQ(refused.error().message, QStringLiteral("Prometheus refused the target list: nope"));
    const auto none = ReplicaDiscovery::parseTargets(R"({"status":"success","data":{"activeTargets":[]}})",
                                                     QStringLiteral("s"), QStringLiteral("http"));
    EXPECT_EQ(none.error().message,
              QStringLiteral("Prometheus has no active target for job \"s\" (jobs it scrapes: none)."));
}

} // namespace
