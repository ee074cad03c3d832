// SPDX-License-Identifier: GPL-3.0-or-later
// Load shapes and the ceiling search as a Chaos Day run meets them: the real app, headless,
// steering the real starter in front of the real engine, measuring through the real
// Prometheus. A ramp and stairs reach their set-points and mark themselves as a few regions,
// not a mark per move; the built-in "ceiling" scenario finds the engine's capacity, known
// from its flags, and draws the capacity curve.
#include "apprun.h"
#include "blockinghttp.h"
#include "prometheusprocess.h"
#include "session/format/sessionreader.h"
#include "testbedprocess.h"
#include "testfiles.h"
#include "testpaths.h"

#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

class LoadShapesAndCeiling : public ::testing::Test
{
protected:
    void startStack(const QStringList &engineFlags)
    {
        ASSERT_TRUE(engine.start(engineBinary(), engineFlags)) << engine.errorString().toStdString();
        ASSERT_TRUE(
            starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                            QStringLiteral("10"), QStringLiteral("--pool-size"), QStringLiteral("20")}))
            << starter.errorString().toStdString();
        ASSERT_TRUE(prometheus.start(
            {{QStringLiteral("starter"), starter.hostPort()}, {QStringLiteral("engine"), engine.hostPort()}}))
            << prometheus.errorString().toStdString();
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("starter_rate"), 30000));
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("engine_workers"), 30000));
    }
    AppRun run(const QString &scenario, const QStringList &extra = {})
    {
        return runChaoscope(QStringList{QStringLiteral("--prometheus"), prometheus.url().toString(),
                                        QStringLiteral("--dashboard"), QStringLiteral("testbed"),
                                        QStringLiteral("--admin"), starter.baseUrl(), QStringLiteral("--output-dir"),
                                        dir.path(), QStringLiteral("--scenario"), scenario}
                                << extra,
                            420000);
    }
    double starterRate() const
    {
        return BlockingHttp::get(starter.baseUrl() + QStringLiteral("/admin/status"))
            .json()
            .value(QStringLiteral("rate"))
            .toDouble();
    }
    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
    QTemporaryDir dir;
};

} // namespace

TEST_F(LoadShapesAndCeiling, ARampAndStairsReachTheirSetPointsAndMarkRegionsNotEveryMove)
{
    startStack(
        {QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--service-time"), QStringLiteral("0.02")});
    const QString file = writeTestFile(dir, QStringLiteral("shapes.json"), R"json({"steps": [
        {"ramp": {"from": 10, "to": 40, "over": "6s"}},
        {"stairs": {"from": 50, "step": 10, "every": "2s", "until": 70}},
        {"hold": "1s"}]})json");
    const QString session = dir.filePath(QStringLiteral("shapes.chaoscope"));
    const AppRun result = run(file, {QStringLiteral("--record"), session});
    ASSERT_EQ(result.exitCode, 0) << result.err.toStdString();
    EXPECT_EQ(starterRate(), 70.0) << "the last stair is where the load stays";

    const Result<SessionContents> contents = SessionReader::readFile(session);
    ASSERT_TRUE(contents) << contents.error().message.toStdString();
    QStringList regions;
    int actionMarks = 0;
    for (const Annotation &annotation : contents->annotations) {
        if (annotation.source == Annotation::Source::Action)
            ++actionMarks;
        else if (annotation.isRegion())
            regions << annotation.text;
    }
    // Seven moves of the ramp (10 → 40 over 6 s, one a second) and three stairs: four regions.
    EXPECT_EQ(actionMarks, 0) << "no mark per move";
    EXPECT_EQ(regions, (QStringList{QStringLiteral("ramp 10 → 40 /s over 6s"), QStringLiteral("stair 50 /s"),
                                    QStringLiteral("stair 60 /s"), QStringLiteral("stair 70 /s"),
                                    QStringLiteral("hold for 1s")}))
        << regions.join(QStringLiteral(" | ")).toStdString();
}

TEST_F(LoadShapesAndCeiling, TheBuiltInCeilingSearchFindsTheEnginesCapacityAndDrawsTheCurve)
{
    // 4 workers × 20 ms: the engine completes 200 requests/s; the starter's pool of 20
    // connections could carry 1,000/s at 20 ms each, so the engine is the ceiling.
    startStack(
        {QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--service-time"), QStringLiteral("0.02")});
    const AppRun result = run(QStringLiteral("ceiling"));
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString();
    const QRegularExpressionMatch found =
        QRegularExpression(QStringLiteral("ceiling (\\d+) /s, confirmed")).match(result.err);
    ASSERT_TRUE(found.hasMatch()) << result.err.toStdString();
    const double ceiling = found.captured(1).toDouble();
    EXPECT_GE(ceiling, 180.0) << result.err.toStdString();
    EXPECT_LE(ceiling, 220.0) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("(computed: 200 /s)"))) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral(" /s FAILED: "))) << "a stair above the ceiling failed";
    EXPECT_NEAR(starterRate(), ceiling, 0.5) << "the load is left at the ceiling found";

    const QImage curve(dir.filePath(QStringLiteral("capacity-curve.png")));
    ASSERT_FALSE(curve.isNull()) << result.out.toStdString();
    EXPECT_EQ(curve.size(), QSize(2400, 1440));
    EXPECT_TRUE(result.out.contains(QStringLiteral("capacity curve: "))) << result.out.toStdString();
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("ceiling.png"))));
}

TEST_F(LoadShapesAndCeiling, AGuardThatLetsTheScenarioGoOnStillEndsTheRampItActedAgainst)
{
    startStack(
        {QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--service-time"), QStringLiteral("0.02")});
    // Without the guard the ramp would take the rate to 300 /s; the guard brings it to 20 /s at
    // 100 /s, and a ramp left running would raise it again on its next move.
    const QString file = writeTestFile(dir, QStringLiteral("guarded-ramp.json"), R"json({"steps": [
        {"ramp": {"from": 10, "to": 300, "over": "40s"}},
        {"annotate": "after the guard"},
        {"after": "3s", "annotate": "end"}],
      "guards": [{"name": "rate cap", "query": "max(starter_rate)", "holds": "< 100", "continueScenario": true,
                  "then": {"setRate": 20}}]})json");
    const AppRun result = run(file);
    EXPECT_EQ(result.exitCode, 4) << "the guard tripped: the verdict fails\n" << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("cut short by guard rate cap"))) << result.err.toStdString();
    EXPECT_TRUE(result.err.contains(QStringLiteral("annotate \"end\"): ok"))) << "the steps went on\n"
                                                                              << result.err.toStdString();
    EXPECT_EQ(starterRate(), 20.0) << "the guard's rate, not the ramp's";
}
