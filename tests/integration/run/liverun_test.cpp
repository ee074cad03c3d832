// SPDX-License-Identifier: GPL-3.0-or-later
// A live run ends as a user ends it, in the middle of things: a load tester attached and just
// steered, a scenario still waiting on a step, a recording open. Everything the run owns goes
// in the order it was built backwards, so nothing is used after it is gone (the app is built
// with AddressSanitizer in these tests) and the recording is closed properly.
#include "apprun.h"
#include "prometheusprocess.h"
#include "session/format/sessionreader.h"
#include "testbedprocess.h"
#include "testpaths.h"

#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

bool sanitizerSpoke(const QString &err)
{
    return err.contains(QLatin1String("AddressSanitizer")) || err.contains(QLatin1String("LeakSanitizer")) ||
           err.contains(QLatin1String("runtime error"));
}

} // namespace

TEST(LiveRunShutdown, QuitsCleanlyWithALoadTesterAScenarioInFlightAndARecordingOpen)
{
    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
    QTemporaryDir dir;
    ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
    ASSERT_TRUE(starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                                QStringLiteral("10")}))
        << starter.errorString().toStdString();
    ASSERT_TRUE(prometheus.start({{QStringLiteral("starter"), starter.hostPort()}}))
        << prometheus.errorString().toStdString();
    // Three scrapes of the starter first: a headless run whose panels drew nothing by its end
    // fails (exit 2), and on a loaded machine a Prometheus a few seconds old had nothing to
    // draw within the run's 8 s.
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("count_over_time(up{job=\"starter\"}[1m]) >= 3"), 30000));

    // The scenario steers the starter, then waits for a condition that never holds: the run
    // ends (the screenshot's --after) with the step still waiting.
    QFile scenario(dir.filePath(QStringLiteral("steer.json")));
    ASSERT_TRUE(scenario.open(QIODevice::WriteOnly));
    scenario.write(R"({"steps": [{"setRate": 20}, {"waitFor": "vector(0) > 1", "timeout": "10m"}]})");
    scenario.close();
    const QString recording = dir.filePath(QStringLiteral("run.chaoscope"));
    const AppRun run = runChaoscope(
        {QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"),
         QStringLiteral("testbed"), QStringLiteral("--admin"), starter.baseUrl(), QStringLiteral("--scenario"),
         scenario.fileName(), QStringLiteral("--record"), recording, QStringLiteral("--screenshot"),
         dir.filePath(QStringLiteral("shot.png")), QStringLiteral("--after"), QStringLiteral("8s")});

    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_FALSE(sanitizerSpoke(run.err)) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("scenario step 1 (set rate to 20): ok"))) << run.err.toStdString();
    EXPECT_FALSE(run.err.contains(QStringLiteral("scenario finished"))) << "the second step was still waiting";

    const Result<SessionContents> read = SessionReader::readFile(recording);
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    EXPECT_TRUE(read->closedCleanly) << "the recording was closed, not cut off";
    ASSERT_EQ(read->actions.size(), 1u);
    EXPECT_TRUE(read->actions.front().answered);
    EXPECT_GT(read->sampleCount(), 0);
}
