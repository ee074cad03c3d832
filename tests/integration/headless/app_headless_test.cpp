// SPDX-License-Identifier: GPL-3.0-or-later
// The app as a user runs it headless: the real binary against the real Prometheus, writing a
// screenshot whose plot areas must hold drawn curves — and failing loudly when Prometheus is
// not there.
#include "apprun.h"
#include "faultserver.h"
#include "freeport.h"
#include "prometheusprocess.h"
#include "testpaths.h"

#include <QDateTime>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrlQuery>
#include <gtest/gtest.h>

namespace {

// Pixels that are clearly a series colour: saturated, not the grey of grid, text or frame.
bool isCurvePixel(QRgb pixel)
{
    const int r = qRed(pixel), g = qGreen(pixel), b = qBlue(pixel);
    const int spread = std::max({r, g, b}) - std::min({r, g, b});
    return spread > 60;
}

} // namespace

TEST(AppHeadless, ScreenshotOfPrometheusSelfHasCurvesInsideThePlotAreas)
{
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.startOrShare()) << prometheus.errorString().toStdString();
    // Three scrapes, not one: a range query is evaluated at whole steps, and a server seconds
    // old answers it with nothing until a step lies after its first sample.
    ASSERT_TRUE(
        prometheus.waitForSeries(QStringLiteral("count_over_time(prometheus_tsdb_head_series[1m]) >= 3"), 30000));

    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    const QString layout = dir.filePath(QStringLiteral("layout.json"));
    const AppRun run = runChaoscope({QStringLiteral("--prometheus"), prometheus.url().toString(),
                                     QStringLiteral("--dashboard"), QStringLiteral("prometheus-self"),
                                     QStringLiteral("--window"), QStringLiteral("5m"), QStringLiteral("--screenshot"),
                                     png, QStringLiteral("--screenshot-layout"), layout, QStringLiteral("--after"),
                                     QStringLiteral("8s"), QStringLiteral("--size"), QStringLiteral("1400x900")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("screenshot: "))) << run.out.toStdString();
    // A headless run says what matters, not the offscreen platform's noise (once dozens of lines).
    EXPECT_FALSE(run.err.contains(QStringLiteral("propagateSizeHints"))) << run.err.toStdString();

    QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), 1400);
    QFile layoutFile(layout);
    ASSERT_TRUE(layoutFile.open(QIODevice::ReadOnly));
    const QJsonArray panels =
        QJsonDocument::fromJson(layoutFile.readAll()).object().value(QStringLiteral("panels")).toArray();
    ASSERT_GE(panels.size(), 4);

    // Panels whose query yields data within seconds of a fresh Prometheus start.
    int panelsWithCurves = 0;
    for (const QJsonValue &value : panels) {
        const QJsonObject rect = value.toObject();
        const QRect plot(rect.value(QStringLiteral("x")).toInt(), rect.value(QStringLiteral("y")).toInt(),
                         rect.value(QStringLiteral("width")).toInt(), rect.value(QStringLiteral("height")).toInt());
        ASSERT_TRUE(image.rect().contains(plot)) << "plot area outside the screenshot";
        int curvePixels = 0;
        for (int y = plot.top(); y <= plot.bottom(); ++y) {
            for (int x = plot.left(); x <= plot.right(); ++x)
                curvePixels += isCurvePixel(image.pixel(x, y)) ? 1 : 0;
        }
        if (curvePixels > 40)
            ++panelsWithCurves;
    }
    EXPECT_GE(panelsWithCurves, 3) << "curves drawn in too few panels";
}

TEST(AppHeadless, ExitsNonZeroWithTheReasonWhenPrometheusIsUnreachable)
{
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("down.png"));
    const quint16 port = freeLoopbackPort(); // nobody listens there
    const AppRun run =
        runChaoscope({QStringLiteral("--prometheus"), QStringLiteral("http://127.0.0.1:%1/").arg(port),
                      QStringLiteral("--screenshot"), png, QStringLiteral("--after"), QStringLiteral("3s")});
    EXPECT_NE(run.exitCode, 0);
    EXPECT_TRUE(run.err.contains(QStringLiteral("unreachable"))) << run.err.toStdString();
    EXPECT_TRUE(QFile::exists(png)) << "the screenshot still shows what the user would see";
}

TEST(AppHeadless, BrokenDashboardFileNamesTheFieldAndTheAppStillRuns)
{
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.startOrShare()) << prometheus.errorString().toStdString();
    // The good panel draws: three scrapes, so that a whole step lies after the first sample.
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("count_over_time(up[1m]) >= 3"), 30000));
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("broken.json"));
    QFile out(file);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(R"({"title": "Half broken", "panels": [
        {"title": "good", "series": [{"query": "up"}]},
        {"title": "bad", "series": [{"legend": "no query here"}]}]})");
    out.close();
    const AppRun run =
        runChaoscope({QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"), file,
                      QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png")), QStringLiteral("--after"),
                      QStringLiteral("4s")});
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("panels[1].series[0].query: missing"))) << run.err.toStdString();
}

// A server that answers range queries wrongly: a string (which was once drawn as a sample at
// the answer's own time, 1970 here) must fail the headless run with the reason; a matrix whose
// first answer holds only a sample from 1970 must neither be drawn nor make every later
// refresh ask from 1970 (which once broke the panel for good), and the panel recovers.
TEST(AppHeadless, AWrongRangeAnswerFailsTheRunAndNeverStretchesTheNextQuery)
{
    QTemporaryDir dir;
    const QString dashboard = dir.filePath(QStringLiteral("one.json"));
    QFile out(dashboard);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(R"json({"title": "One", "panels": [{"title": "throughput", "series": [{"query": "rate(m[1m])"}]}]})json");
    out.close();
    const auto run = [&](FaultServer &server) {
        return runChaoscopeServing({QStringLiteral("--prometheus"), server.url().toString(),
                                    QStringLiteral("--dashboard"), dashboard, QStringLiteral("--window"),
                                    QStringLiteral("5m"), QStringLiteral("--refresh"), QStringLiteral("1s"),
                                    QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png")),
                                    QStringLiteral("--after"), QStringLiteral("4s")});
    };
    const QByteArray fallback = R"({"status":"success","data":[]})";

    FaultServer stringServer;
    stringServer.script("", FaultServer::Handler([&](const FaultServer::Request &request) {
                            if (request.path().endsWith("/api/v1/query_range"))
                                return FaultServer::json(
                                    R"({"status":"success","data":{"resultType":"string","result":[5,"oops"]}})");
                            return FaultServer::json(fallback);
                        }));
    const AppRun failed = run(stringServer);
    EXPECT_EQ(failed.exitCode, 2) << failed.err.toStdString();
    EXPECT_TRUE(failed.err.contains(QStringLiteral("not a matrix"))) << failed.err.toStdString();

    const qint64 startedMs = QDateTime::currentMSecsSinceEpoch();
    int rangeAnswers = 0;
    FaultServer strayServer;
    strayServer.script("", FaultServer::Handler([&](const FaultServer::Request &request) {
                           if (!request.path().endsWith("/api/v1/query_range"))
                               return FaultServer::json(fallback);
                           if (rangeAnswers++ == 0)
                               return FaultServer::json(FaultServer::matrixBody(1, {{5.0, "7"}}));
                           const QUrlQuery params = request.params();
                           const double start = params.queryItemValue(QStringLiteral("start")).toDouble();
                           const double end = params.queryItemValue(QStringLiteral("end")).toDouble();
                           const double step = params.queryItemValue(QStringLiteral("step")).toDouble();
                           QList<QPair<double, QByteArray>> samples;
                           for (double t = std::ceil(start / step) * step;
                                t <= end && step > 0 && samples.size() < 2000; t += step)
                               samples.append({t, "150"});
                           return FaultServer::json(FaultServer::matrixBody(1, samples));
                       }));
    const AppRun recovered = run(strayServer);
    EXPECT_EQ(recovered.exitCode, 0) << recovered.err.toStdString();
    EXPECT_GE(rangeAnswers, 2);
    const double windowStart = double(startedMs - 5 * 60'000 - 60'000) / 1000; // a minute of slack
    for (const FaultServer::Request &request : std::as_const(strayServer.requests)) {
        if (request.path().endsWith("/api/v1/query_range")) {
            EXPECT_GE(request.params().queryItemValue(QStringLiteral("start")).toDouble(), windowStart)
                << "asked from before the window: " << request.target.constData();
        }
    }
}

TEST(AppHeadless, HelpAndVersion)
{
    const AppRun help = runChaoscope({QStringLiteral("--help")});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_TRUE(help.out.contains(QStringLiteral("--prometheus")));
    EXPECT_TRUE(help.out.contains(QStringLiteral("--screenshot")));
    const AppRun version = runChaoscope({QStringLiteral("--version")});
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_TRUE(version.out.startsWith(QStringLiteral("chaoscope ")));
    const AppRun bad = runChaoscope({QStringLiteral("--after"), QStringLiteral("soon")});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.err.contains(QStringLiteral("--after")));
}
