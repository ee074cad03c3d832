// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios as CI and blog authors run them: the real app, headless, steering the real
// starter, waiting on a condition read from the real Prometheus, writing screenshots — and
// an exit code that says which step failed.
#include "apprun.h"
#include "prometheusprocess.h"
#include "testbedprocess.h"
#include "testfiles.h"
#include "testpaths.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

// Scenarios run for minutes: a longer guard against a hang than the default.
AppRun runApp(const QStringList &arguments)
{
    return runChaoscope(arguments, 180000);
}

class ScenarioHeadless : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
        ASSERT_TRUE(starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(),
                                                    QStringLiteral("--rate"), QStringLiteral("10")}))
            << starter.errorString().toStdString();
        ASSERT_TRUE(prometheus.start({{QStringLiteral("starter"), starter.hostPort()}}))
            << prometheus.errorString().toStdString();
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("starter_rate"), 30000));
    }
    QStringList baseArgs() const
    {
        return {QStringLiteral("--prometheus"), prometheus.url().toString(),
                QStringLiteral("--dashboard"),  QStringLiteral("testbed"),
                QStringLiteral("--admin"),      starter.baseUrl(),
                QStringLiteral("--output-dir"), dir.path()};
    }
    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
    QTemporaryDir dir;
};

} // namespace

TEST_F(ScenarioHeadless, StepsSteerTheStarterWaitForPrometheusAndWriteScreenshots)
{
    const QString file = writeTestFile(dir, QStringLiteral("ok.json"), R"({"title": "t", "steps": [
        {"at": "+1s", "annotate": "start"},
        {"setRate": 25},
        {"waitFor": "starter_rate == 25", "timeout": "30s"},
        {"after": "1s", "screenshot": "after.png"}]})");
    const AppRun run = runApp(baseArgs() << QStringLiteral("--scenario") << file);
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("all 4 steps succeeded"))) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("Chaoscope starter left running: rate 25 /s")))
        << "quitting says what the load is left doing: " << run.err.toStdString();
    const QString png = dir.filePath(QStringLiteral("after.png"));
    EXPECT_TRUE(run.out.contains(png)) << "the screenshot's full path is printed";
    EXPECT_FALSE(QImage(png).isNull());
}

TEST_F(ScenarioHeadless, AFailedStepStopsTheRunAndIsNamed)
{
    const QString file = writeTestFile(dir, QStringLiteral("fail.json"), R"({"steps": [
        {"waitFor": "vector(0) > 1", "timeout": "2s"},
        {"screenshot": "never.png"}]})");
    const AppRun run = runApp(baseArgs() << QStringLiteral("--scenario") << file);
    EXPECT_EQ(run.exitCode, 1) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("step 1 (wait for vector(0) > 1"))) << run.err.toStdString();
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("never.png"))));
}

TEST_F(ScenarioHeadless, ContinueOnErrorGoesOnButTheRunStillFails)
{
    const QString file = writeTestFile(dir, QStringLiteral("cont.json"), R"({"steps": [
        {"setRate": 999999999, "continueOnError": true},
        {"screenshot": "still.png"}]})");
    const AppRun run = runApp(baseArgs() << QStringLiteral("--scenario") << file);
    EXPECT_EQ(run.exitCode, 1) << run.err.toStdString();
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("still.png"))));
}

TEST_F(ScenarioHeadless, ABrokenFileIsReportedWithItsPlaceAndNothingRuns)
{
    const QString file = writeTestFile(dir, QStringLiteral("bad.json"), R"({"steps": [{"at": "soon", "setRate": 5}]})");
    const AppRun run = runApp(baseArgs() << QStringLiteral("--scenario") << file);
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.contains(QStringLiteral("steps[0].at"))) << run.err.toStdString();
}
