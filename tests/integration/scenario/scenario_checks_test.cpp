// SPDX-License-Identifier: GPL-3.0-or-later
// Expectations and guards as a Chaos Day run meets them: the real app, headless, judging
// checks read from the real Prometheus that scrapes the real starter and engine. A guard
// pauses an overload before the starter's pending queue fills; a guard the starter refuses
// says so; the exit code tells a CI job whether what was expected held.
#include "apprun.h"
#include "blockinghttp.h"
#include "prometheusprocess.h"
#include "testbedprocess.h"
#include "testfiles.h"
#include "testpaths.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

class ScenarioChecks : public ::testing::Test
{
protected:
    // As the demo stack: the engine takes 200 requests/s (4 workers, 20 ms each); the starter
    // queues what its pool of 20 connections cannot carry, and drops ticks once 3,000 wait.
    void startStack(const QStringList &starterExtra = {})
    {
        ASSERT_TRUE(engine.start(engineBinary(), {QStringLiteral("--workers"), QStringLiteral("4"),
                                                  QStringLiteral("--service-time"), QStringLiteral("0.02")}))
            << engine.errorString().toStdString();
        ASSERT_TRUE(starter.start(starterBinary(),
                                  QStringList{QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                              QStringLiteral("10"), QStringLiteral("--pool-size"), QStringLiteral("20"),
                                              QStringLiteral("--max-pending"), QStringLiteral("3000")}
                                      << starterExtra))
            << starter.errorString().toStdString();
        ASSERT_TRUE(prometheus.start({{QStringLiteral("starter"), starter.hostPort()}}))
            << prometheus.errorString().toStdString();
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("starter_rate"), 30000));
    }
    AppRun run(const QString &scenario)
    {
        return runChaoscope({QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"),
                             QStringLiteral("testbed"), QStringLiteral("--admin"), starter.baseUrl(),
                             QStringLiteral("--output-dir"), dir.path(), QStringLiteral("--scenario"), scenario},
                            180000);
    }
    QJsonObject starterStatus() const
    {
        return BlockingHttp::get(starter.baseUrl() + QStringLiteral("/admin/status")).json();
    }
    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
    QTemporaryDir dir;
};

} // namespace

TEST_F(ScenarioChecks, AGuardPausesTheOverloadBeforeThePendingQueueFillsAndTheVerdictFails)
{
    startStack();
    // Seed 000's overload in small: twice what the engine takes, and nothing stops it but the guard.
    const QString file = writeTestFile(dir, QStringLiteral("guarded.json"), R"json({"title": "overload", "steps": [
        {"annotate": "overload"},
        {"setRate": 400},
        {"after": "90s", "screenshot": "never.png"}],
      "guards": [{"name": "pending growth", "query": "sum(http_client_pool_pending)", "holds": "< 150",
                  "for": "2s", "then": {"pause": true}}]})json");
    const AppRun result = run(file);
    EXPECT_EQ(result.exitCode, 4) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("guard tripped: pending growth"))) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("guard pending growth acted: pause the load")))
        << result.err.toStdString();
    EXPECT_TRUE(
        result.err.contains(QStringLiteral("scenario FAILED: expectation failed: pending growth (phase overload)")))
        << result.err.toStdString();
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("never.png")))) << "no step runs after the guard";

    const QJsonObject status = starterStatus();
    EXPECT_TRUE(status.value(QStringLiteral("paused")).toBool()) << "the guard paused the starter";
    const double pending = status.value(QStringLiteral("pending")).toDouble();
    EXPECT_LT(pending, 3000) << "paused before the pending queue was full";
    // The starter counts every tick it had to drop because the queue was full: none.
    EXPECT_EQ(prometheus.instantValue(QStringLiteral("max(starter_requests_dropped_total)")), 0.0);
}

TEST_F(ScenarioChecks, AGuardThatCannotActSaysSoAndStillStopsTheRun)
{
    startStack({QStringLiteral("--max-rate"), QStringLiteral("100")});
    // The guard's answer to a low rate is a rate the starter refuses to take.
    const QString file = writeTestFile(dir, QStringLiteral("refused.json"), R"json({"steps": [
        {"after": "60s", "annotate": "never"}],
      "guards": [{"name": "rate floor", "query": "max(starter_rate)", "holds": ">= 50", "then": {"setRate": 500}}]})json");
    const AppRun result = run(file);
    EXPECT_EQ(result.exitCode, 4) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("guard rate floor COULD NOT ACT: set rate to 500")))
        << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("expectation failed: rate floor"))) << result.err.toStdString();
    EXPECT_EQ(starterStatus().value(QStringLiteral("rate")).toDouble(), 10.0) << "nothing changed";
}

TEST_F(ScenarioChecks, ExpectationsJudgeTheirPhasesAndMakeTheExitCode)
{
    startStack();
    const QString held = writeTestFile(dir, QStringLiteral("held.json"), R"json({"steps": [
        {"annotate": "steady"},
        {"after": "4s", "annotate": "faster"},
        {"setRate": 30},
        {"waitFor": "max(starter_rate) == 30", "timeout": "30s"},
        {"after": "3s", "annotate": "done"}],
      "expect": [{"name": "steady rate", "query": "max(starter_rate)", "holds": "<= 10", "during": "steady"},
                 {"name": "faster rate", "query": "max(starter_rate)", "holds": "> 5", "during": ["faster", "done"]},
                 {"name": "sent", "series": "sent", "holds": ">= 0"}]})json");
    const AppRun passed = run(held);
    EXPECT_EQ(passed.exitCode, 0) << passed.err.toStdString();
    EXPECT_TRUE(passed.err.contains(QStringLiteral("all 5 steps succeeded, 3 checks held")))
        << passed.err.toStdString();
    // A check on the dashboard's series reads what the dashboard polled: it had samples.
    EXPECT_TRUE(passed.err.contains(QStringLiteral("expectation sent: held · worst"))) << passed.err.toStdString();
    EXPECT_TRUE(passed.err.contains(QStringLiteral("expectation steady rate: held · worst 10 at")))
        << passed.err.toStdString();

    // The same rate judged in the phase where it is wrong: the run completes, the verdict fails.
    const QString failed = writeTestFile(dir, QStringLiteral("failed.json"), R"json({"steps": [
        {"annotate": "steady"},
        {"setRate": 30},
        {"waitFor": "max(starter_rate) == 30", "timeout": "30s"},
        {"after": "3s", "annotate": "done"}],
      "expect": [{"name": "rate stays low", "query": "max(starter_rate)", "holds": "<= 10", "during": "steady"}]})json");
    const AppRun failing = run(failed);
    EXPECT_EQ(failing.exitCode, 4) << failing.err.toStdString();
    EXPECT_TRUE(
        failing.err.contains(QStringLiteral("scenario FAILED: expectation failed: rate stays low (phase steady)")))
        << failing.err.toStdString();
    EXPECT_TRUE(failing.err.contains(QStringLiteral("expectation rate stays low: FAILED at")))
        << failing.err.toStdString();

    // A series the dashboard does not have: said before anything runs, nothing changes.
    const QString unknown = writeTestFile(dir, QStringLiteral("unknown.json"), R"json({"steps": [{"setRate": 25}],
      "expect": [{"name": "typo", "series": "snet", "holds": ">= 0"}]})json");
    const AppRun refused = run(unknown);
    EXPECT_EQ(refused.exitCode, 2) << refused.err.toStdString();
    EXPECT_TRUE(
        refused.err.contains(QStringLiteral("expect[0].series: the dashboard has no series with the id \"snet\"")))
        << refused.err.toStdString();
    EXPECT_EQ(starterStatus().value(QStringLiteral("rate")).toDouble(), 30.0) << "the last run's rate, untouched";
}
