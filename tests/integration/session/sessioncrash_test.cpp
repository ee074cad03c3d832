// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions end to end, with the real binaries: the app records a live run of the testbed
// (starter, engine, Prometheus), is killed with SIGKILL in the middle, and the file still
// holds what was on screen up to about the last second — samples equal to what Prometheus
// answers for the same instants, the annotations and the action with its answer — and says
// that its tail was cut. And a recording reopened offline draws the same pictures as live.
#include "blockinghttp.h"
#include "prometheusprocess.h"
#include "session/format/sessionreader.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrlQuery>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <map>

namespace {

// The testbed dashboard's first panel: the starter's send rate and its set-point.
const QString kSentKey = QStringLiteral("p0/q0/{}");
const QString kSentQuery = QStringLiteral("sum(rate(starter_requests_sent_total[10s]))");
const QString kSetPointKey = QStringLiteral("p0/q4/{}");
const QString kSetPointQuery = QStringLiteral("sum(starter_rate)");

class SessionCrashTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(QFileInfo(chaoscopeBinary()).isExecutable()) << chaoscopeBinary().toStdString() << " is not built";
        ASSERT_TRUE(m_engine.start(engineBinary(), {QStringLiteral("--workers"), QStringLiteral("4"),
                                                    QStringLiteral("--service-time"), QStringLiteral("0.02")}))
            << m_engine.errorString().toStdString();
        ASSERT_TRUE(m_starter.start(starterBinary(), {QStringLiteral("--target"), m_engine.baseUrl(),
                                                      QStringLiteral("--rate"), QStringLiteral("20")}))
            << m_starter.errorString().toStdString();
        ASSERT_TRUE(m_prometheus.start(
            {{QStringLiteral("engine"), m_engine.hostPort()}, {QStringLiteral("starter"), m_starter.hostPort()}}))
            << m_prometheus.errorString().toStdString();
        ASSERT_TRUE(m_prometheus.waitForSeries(QStringLiteral("count(up{job=~\"engine|starter\"} == 1) == 2"), 30000))
            << m_prometheus.log().toStdString();
    }

    void TearDown() override
    {
        if (m_app.state() != QProcess::NotRunning) {
            m_app.kill();
            m_app.waitForFinished();
        }
        if (HasFailure())
            std::cerr << "chaoscope said:\n" << m_appOutput.toStdString() << "\n";
    }

    void startApp(const QStringList &arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        m_app.setProcessEnvironment(env);
        m_app.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_app, &QProcess::readyRead, [this] { m_appOutput += QString::fromUtf8(m_app.readAll()); });
        m_app.start(chaoscopeBinary(), arguments);
        ASSERT_TRUE(m_app.waitForStarted());
    }

    int runApp(const QStringList &arguments, int timeoutMs = 120000)
    {
        startApp(arguments);
        if (!m_app.waitForFinished(timeoutMs))
            return -1;
        m_appOutput += QString::fromUtf8(m_app.readAll());
        return m_app.exitStatus() == QProcess::NormalExit ? m_app.exitCode() : -1;
    }

    // What Prometheus answers now for `query` at every second from `start` to `end` (ms).
    std::map<qint64, double> prometheusRange(const QString &query, qint64 startMs, qint64 endMs)
    {
        QUrlQuery params;
        params.addQueryItem(QStringLiteral("query"), query);
        params.addQueryItem(QStringLiteral("start"), QString::number(double(startMs) / 1000, 'f', 3));
        params.addQueryItem(QStringLiteral("end"), QString::number(double(endMs) / 1000, 'f', 3));
        params.addQueryItem(QStringLiteral("step"), QStringLiteral("1"));
        const BlockingHttp::Answer answer =
            BlockingHttp::get(m_prometheus.url().toString() + QStringLiteral("api/v1/query_range?") +
                              params.toString(QUrl::FullyEncoded));
        std::map<qint64, double> values;
        const QJsonArray result =
            answer.json().value(QStringLiteral("data")).toObject().value(QStringLiteral("result")).toArray();
        if (result.isEmpty())
            return values;
        for (const QJsonValue &pair : result.first().toObject().value(QStringLiteral("values")).toArray()) {
            const qint64 t = std::llround(pair.toArray().at(0).toDouble() * 1000);
            values[t] = pair.toArray().at(1).toString().toDouble();
        }
        return values;
    }

    const SessionSeries *seriesOf(const SessionContents &contents, const QString &key)
    {
        for (const SessionSeries &series : contents.series) {
            if (series.key == key)
                return &series;
        }
        return nullptr;
    }

    TestbedProcess m_engine;
    TestbedProcess m_starter;
    PrometheusProcess m_prometheus;
    QProcess m_app;
    QString m_appOutput;
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(SessionCrashTest, AfterSigkillTheRecordingHoldsTheRunUpToTheLastSecond)
{
    // A scenario that notes, then steers, then would go on far longer than the test.
    const QString scenario = m_dir.filePath(QStringLiteral("steer.json"));
    QFile file(scenario);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"title": "crash me", "steps": [
        {"at": "+3s", "annotate": "before the change", "tags": ["phase"]},
        {"at": "+5s", "setRate": 40},
        {"at": "+10m", "annotate": "never reached"}]})");
    file.close();
    const QString session = m_dir.filePath(QStringLiteral("crashed.chaoscope"));
    startApp({QStringLiteral("--prometheus"), m_prometheus.url().toString(), QStringLiteral("--dashboard"),
              QStringLiteral("testbed"), QStringLiteral("--admin"), m_starter.baseUrl(), QStringLiteral("--scenario"),
              scenario, QStringLiteral("--refresh"), QStringLiteral("1s"), QStringLiteral("--window"),
              QStringLiteral("5m"), QStringLiteral("--record"), session});

    // Until the file shows the change answered and a good stretch of samples after it.
    auto recorded = [&]() -> std::optional<SessionContents> {
        Result<SessionContents> read = SessionReader::readFile(session);
        if (!read)
            return std::nullopt;
        return std::move(read).value();
    };
    const bool ready = waitFor(
        [&] {
            const std::optional<SessionContents> contents = recorded();
            if (!contents || contents->actions.empty() || !contents->actions.front().answered)
                return false;
            const SessionSeries *setPoint = seriesOf(*contents, kSetPointKey);
            return setPoint && !setPoint->values.empty() && setPoint->values.back() == 40 &&
                   setPoint->timestampsMs.back() > contents->actions.front().report.requestedAtMs + 12000;
        },
        120'000, 250);
    if (!ready) {
        const std::optional<SessionContents> contents = recorded();
        if (!contents) {
            FAIL() << "the recording cannot be read";
        } else {
            const SessionSeries *setPoint = seriesOf(*contents, kSetPointKey);
            FAIL() << "the recording never showed the action and what followed: " << contents->actions.size()
                   << " action(s), set-point " << (setPoint && !setPoint->values.empty() ? setPoint->values.back() : -1)
                   << ", " << (setPoint ? setPoint->timestampsMs.size() : 0) << " samples";
        }
    }

    const qint64 killedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_app.kill(); // SIGKILL: no chance to close the file
    ASSERT_TRUE(m_app.waitForFinished(10000));
    ASSERT_EQ(m_app.exitStatus(), QProcess::CrashExit);

    const Result<SessionContents> read = SessionReader::readFile(session);
    ASSERT_TRUE(read) << read.error().message.toStdString();
    const SessionContents &contents = read.value();
    EXPECT_FALSE(contents.closedCleanly);
    EXPECT_TRUE(contents.describeProblems().contains(QStringLiteral("not closed")))
        << contents.describeProblems().toStdString();
    EXPECT_EQ(contents.damage.skippedBytes, 0);

    // What was on screen up to about the last second: the newest samples are that recent.
    const SessionSeries *sent = seriesOf(contents, kSentKey);
    const SessionSeries *setPoint = seriesOf(contents, kSetPointKey);
    ASSERT_TRUE(sent && setPoint);
    ASSERT_GT(sent->timestampsMs.size(), 8u);
    EXPECT_GE(setPoint->timestampsMs.back(), killedAtMs - 3500)
        << "newest sample " << (killedAtMs - setPoint->timestampsMs.back()) << " ms before the kill";

    // And every sample equals what Prometheus answers for that instant (the newest few were
    // provisional on screen and may have been completed since).
    for (const auto &[key, query] : {std::pair{kSentKey, kSentQuery}, std::pair{kSetPointKey, kSetPointQuery}}) {
        const SessionSeries *series = seriesOf(contents, key);
        const qint64 settled = series->timestampsMs.back() - 4000;
        const std::map<qint64, double> truth = prometheusRange(query, series->timestampsMs.front(), settled);
        ASSERT_FALSE(truth.empty()) << query.toStdString();
        int compared = 0;
        for (std::size_t i = 0; i < series->timestampsMs.size() && series->timestampsMs[i] <= settled; ++i) {
            const auto it = truth.find(series->timestampsMs[i]);
            if (it == truth.end())
                continue; // an instant Prometheus has no value for now (before the first scrape)
            EXPECT_NEAR(series->values[i], it->second, 1e-9 * std::max(1.0, std::abs(it->second)))
                << query.toStdString() << " at " << series->timestampsMs[i];
            ++compared;
        }
        EXPECT_GE(compared, 8) << query.toStdString();
    }

    // The annotations and the action, with its answer.
    std::vector<QString> texts;
    for (const Annotation &a : contents.annotations)
        texts.push_back(a.text);
    ASSERT_GE(texts.size(), 2u);
    EXPECT_EQ(texts[0], QStringLiteral("before the change"));
    EXPECT_TRUE(texts[1].contains(QStringLiteral("40"))) << texts[1].toStdString();
    ASSERT_EQ(contents.actions.size(), 1u);
    EXPECT_TRUE(contents.actions[0].answered);
    EXPECT_EQ(contents.actions[0].report.action.value, 40);
    ASSERT_EQ(contents.actions[0].report.replicas.size(), 1u);
    EXPECT_TRUE(contents.actions[0].report.replicas[0].confirmed);

    // The crashed file opens offline and draws its panels.
    const QString png = m_dir.filePath(QStringLiteral("offline.png"));
    const int exitCode = runApp({QStringLiteral("--session"), session, QStringLiteral("--screenshot"), png});
    EXPECT_EQ(exitCode, 0);
    EXPECT_FALSE(QImage(png).isNull());
}

namespace {

struct Shot
{
    QImage image;
    std::vector<QRect> plots;
};

Shot loadShot(const QString &png, const QString &layout)
{
    Shot shot{QImage(png), {}};
    QFile file(layout);
    if (!file.open(QIODevice::ReadOnly))
        return shot;
    const QJsonArray panels =
        QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("panels")).toArray();
    for (const QJsonValue &value : panels) {
        const QJsonObject o = value.toObject();
        shot.plots.emplace_back(o.value(QStringLiteral("x")).toInt(), o.value(QStringLiteral("y")).toInt(),
                                o.value(QStringLiteral("width")).toInt(), o.value(QStringLiteral("height")).toInt());
    }
    return shot;
}

bool isCurvePixel(QRgb pixel)
{
    const int spread =
        std::max({qRed(pixel), qGreen(pixel), qBlue(pixel)}) - std::min({qRed(pixel), qGreen(pixel), qBlue(pixel)});
    return spread > 60;
}

} // namespace

TEST_F(SessionCrashTest, AReopenedRecordingDrawsTheSamePicturesAsTheLiveRun)
{
    const QString session = m_dir.filePath(QStringLiteral("run.chaoscope"));
    const QStringList common{QStringLiteral("--size"), QStringLiteral("1400x900")};
    const int live =
        runApp(QStringList{QStringLiteral("--prometheus"), m_prometheus.url().toString(), QStringLiteral("--dashboard"),
                           QStringLiteral("testbed"), QStringLiteral("--window"), QStringLiteral("5m"),
                           QStringLiteral("--refresh"), QStringLiteral("1s"), QStringLiteral("--record"), session,
                           QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("live.png")),
                           QStringLiteral("--screenshot-layout"), m_dir.filePath(QStringLiteral("live.json")),
                           QStringLiteral("--after"), QStringLiteral("15s")} +
               common);
    ASSERT_EQ(live, 0);
    const Result<SessionContents> read = SessionReader::readFile(session);
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->closedCleanly) << "a headless run closes its recording";

    const int offline =
        runApp(QStringList{QStringLiteral("--session"), session, QStringLiteral("--screenshot"),
                           m_dir.filePath(QStringLiteral("offline.png")), QStringLiteral("--screenshot-layout"),
                           m_dir.filePath(QStringLiteral("offline.json"))} +
               common);
    ASSERT_EQ(offline, 0);

    const Shot a = loadShot(m_dir.filePath(QStringLiteral("live.png")), m_dir.filePath(QStringLiteral("live.json")));
    const Shot b =
        loadShot(m_dir.filePath(QStringLiteral("offline.png")), m_dir.filePath(QStringLiteral("offline.json")));
    ASSERT_EQ(a.image.size(), b.image.size());
    ASSERT_EQ(a.plots, b.plots) << "the same panels in the same places";
    ASSERT_GE(a.plots.size(), 6u);
    // Inside every plot the curves are where they were: nearly every curve pixel of the live
    // picture is a curve pixel offline too (antialiasing may move an edge by a pixel). The last
    // few pixels are left out: an answer that arrived after the shot is recorded too.
    int compared = 0;
    for (std::size_t p = 0; p < a.plots.size(); ++p) {
        // Panels scrolled partly out of the window are not in the picture.
        if (!a.image.rect().adjusted(0, 0, 0, -40).contains(a.plots[p]))
            continue;
        ++compared;
        const QRect plot = a.plots[p].adjusted(0, 0, -8, 0);
        int curve = 0, same = 0;
        for (int y = plot.top(); y <= plot.bottom(); ++y) {
            for (int x = plot.left(); x <= plot.right(); ++x) {
                if (!isCurvePixel(a.image.pixel(x, y)))
                    continue;
                ++curve;
                bool near = false;
                for (int dx = -1; dx <= 1 && !near; ++dx) {
                    if (plot.contains(x + dx, y))
                        near = isCurvePixel(b.image.pixel(x + dx, y));
                }
                same += near ? 1 : 0;
            }
        }
        EXPECT_GT(curve, 0) << "panel " << p << " drew nothing";
        if (curve > 0) {
            EXPECT_GE(double(same) / curve, 0.9) << "panel " << p << ": " << same << " of " << curve << " curve pixels";
        }
    }
    EXPECT_GE(compared, 4);
}
