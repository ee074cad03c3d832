// SPDX-License-Identifier: GPL-3.0-or-later
// A team's Grafana dashboard of the testbed, in the classic schema and in Grafana 12's v2
// one, imported by the real app and run against a real Prometheus scraping the real starter
// and engine: every panel draws, the stat tiles show numbers, and the Prometheus annotation
// query marks the rate change when it happened, in the recorded session.
#include "apprun.h"
#include "blockinghttp.h"
#include "prometheusprocess.h"
#include "session/format/sessionreader.h"
#include "testbedprocess.h"
#include "testpaths.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <optional>

namespace {

class GrafanaTestbed : public ::testing::TestWithParam<const char *>
{
};

} // namespace

TEST_P(GrafanaTestbed, ImportsAndDrawsLiveWithStatTilesAndQueryMarks)
{
    QTemporaryDir dir;
    const QString dashboard = dir.filePath(QStringLiteral("testbed.json"));
    const AppRun imported =
        runChaoscope({QStringLiteral("--import-grafana"),
                      sourcePath(QStringLiteral("tests/fixtures/grafana/%1.json").arg(QString::fromUtf8(GetParam()))),
                      QStringLiteral("--output"), dashboard},
                     60000);
    ASSERT_EQ(imported.exitCode, 0) << imported.err.toStdString();
    EXPECT_TRUE(imported.out.startsWith(QStringLiteral("Converted 8 panels, 0 variables")))
        << imported.out.toStdString();
    EXPECT_FALSE(imported.out.contains(QStringLiteral("'Request duration' (heatmap)"))) << imported.out.toStdString();

    TestbedProcess engine;
    ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
    TestbedProcess starter;
    ASSERT_TRUE(starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                                QStringLiteral("40")}))
        << starter.errorString().toStdString();
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.start(
        {{QStringLiteral("engine"), engine.hostPort()}, {QStringLiteral("starter"), starter.hostPort()}}))
        << prometheus.errorString().toStdString();
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("rate(starter_requests_sent_total[5s]) > 0"), 30000))
        << prometheus.log().toStdString();

    // Someone changes the rate: the dashboard's "Rate changed" query marks it.
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const BlockingHttp::Answer changed = BlockingHttp::request("PUT", starter.baseUrl() + QStringLiteral("/admin/rate"),
                                                               R"({"rate": 70})", "application/json");
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    ASSERT_EQ(changed.status, 200) << changed.body.constData();
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("changes(starter_rate[30s]) > 0"), 30000));

    const QString session = dir.filePath(QStringLiteral("run.chaoscope"));
    const QString layoutPath = dir.filePath(QStringLiteral("layout.json"));
    const AppRun run =
        runChaoscope({QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"),
                      dashboard, QStringLiteral("--window"), QStringLiteral("5m"), QStringLiteral("--record"), session,
                      QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("shot.png")),
                      QStringLiteral("--screenshot-layout"), layoutPath, QStringLiteral("--after"),
                      QStringLiteral("12s"), QStringLiteral("--size"), QStringLiteral("1400x1000")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_FALSE(run.err.contains(QStringLiteral("chaoscope: dashboard "))) << run.err.toStdString();

    QFile layoutFile(layoutPath);
    ASSERT_TRUE(layoutFile.open(QIODevice::ReadOnly));
    const QJsonArray panels =
        QJsonDocument::fromJson(layoutFile.readAll()).object().value(QStringLiteral("panels")).toArray();
    ASSERT_EQ(panels.size(), 8);
    std::optional<QJsonObject> heatmap;
    for (qsizetype i = 0; i < panels.size(); ++i) {
        const QJsonObject panel = panels[i].toObject();
        if (panel.contains(QStringLiteral("heatmap")))
            heatmap = panel.value(QStringLiteral("heatmap")).toObject();
        EXPECT_GT(panel.value(QStringLiteral("points")).toInt() +
                      panel.value(QStringLiteral("heatmap")).toObject().value(QStringLiteral("cells")).toInt(),
                  0)
            << "panel " << i << " drew nothing";
    }
    // The request-duration heatmap: the starter's histogram, one row per bucket of it.
    ASSERT_TRUE(heatmap.has_value()) << "the heatmap panel is not drawn as one";
    EXPECT_TRUE(heatmap->value(QStringLiteral("summary"))
                    .toString()
                    .startsWith(QStringLiteral("11 buckets up to 10 s · above 10 s: ")))
        << heatmap->value(QStringLiteral("summary")).toString().toStdString();
    const QJsonArray buckets = heatmap->value(QStringLiteral("buckets")).toArray();
    EXPECT_EQ(buckets.first().toString(), QStringLiteral("5 ms")) << "the lowest bound labels the lowest row";
    EXPECT_EQ(buckets.last().toString(), QStringLiteral("> 10 s")) << "the top bucket is readable as such";
    // The four tiles of the first row (a gauge among them) show a number, not "–".
    for (qsizetype i = 0; i < 4; ++i) {
        const QJsonArray values = panels[i].toObject().value(QStringLiteral("stat")).toArray();
        ASSERT_EQ(values.size(), 1) << "panel " << i << " is not a stat tile";
        EXPECT_NE(values[0].toString(), QStringLiteral("–")) << "panel " << i;
    }
    EXPECT_TRUE(panels[4].toObject().value(QStringLiteral("stat")).isUndefined()) << "Throughput is drawn as lines";
    EXPECT_TRUE(panels[0]
                    .toObject()
                    .value(QStringLiteral("stat"))
                    .toArray()
                    .at(0)
                    .toString()
                    .endsWith(QStringLiteral("ops/s")));

    const Result<SessionContents> read = SessionReader::readFile(session);
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    std::optional<Annotation> mark;
    for (const Annotation &a : read.value().annotations) {
        if (a.source == Annotation::Source::Query && a.author == QStringLiteral("Rate changed"))
            mark = a;
    }
    ASSERT_TRUE(mark.has_value()) << "the annotation query did not mark the rate change";
    EXPECT_TRUE(mark->text.startsWith(QStringLiteral("rate set-point changed"))) << mark->text.toStdString();
    EXPECT_TRUE(mark->endMs.has_value()) << "Grafana's query marks are regions";
    // On the query's 5 s grid, one scrape (1 s) after the change at the latest.
    EXPECT_GE(mark->timeMs, before - 6000);
    EXPECT_LE(mark->timeMs, after + 6000);
}

INSTANTIATE_TEST_SUITE_P(BothSchemas, GrafanaTestbed, ::testing::Values("testbed-classic", "testbed-v2"),
                         [](const ::testing::TestParamInfo<const char *> &schema) {
                             std::string name = schema.param;
                             name.erase(0, name.find('-') + 1);
                             return name;
                         });
