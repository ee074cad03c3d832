// SPDX-License-Identifier: GPL-3.0-or-later
// Importing a Grafana dashboard as a user does: the real app converts a realistic Camunda 8
// export, says what it left out, and the dashboard it wrote opens and draws curves from a
// real Prometheus scraping Camunda-named metrics.
#include "apprun.h"
#include "faultserver.h"
#include "prometheusprocess.h"
#include "testpaths.h"

#include <QDateTime>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>
#include <gtest/gtest.h>
#include <memory>

namespace {

const QString kFixture = sourcePath(QStringLiteral("tests/fixtures/grafana/camunda-grafana.json"));

// Camunda's metric names, as a broker, gateway, starter and worker would expose them, with
// counters growing by the second so that every rate() has something to draw.
QByteArray camundaMetrics(double seconds)
{
    const auto counter = [seconds](double perSecond) { return QByteArray::number(1000 + perSecond * seconds, 'f', 1); };
    const QByteArray ns = "namespace=\"camunda-load\"";
    QByteArray text;
    const auto line = [&text](const QByteArray &name, const QByteArray &labels, const QByteArray &value) {
        text += name + '{' + labels + "} " + value + '\n';
    };
    line("zeebe_element_instance_events_total", "action=\"completed\",type=\"PROCESS\"," + ns, counter(48));
    line("zeebe_process_instance_creations_total", ns, counter(50));
    line("starter_process_instances_started_total", ns + ",pod=\"starter-0\"", counter(55));
    line("zeebe_log_appender_last_committed_position", ns + ",partition=\"1\"", counter(300));
    line("zeebe_exporter_last_exported_position", ns + ",partition=\"1\"", counter(240));
    line("zeebe_exporter_events_total", ns, counter(240));
    line("zeebe_job_events_total", ns + ",action=\"created\"", counter(40));
    line("zeebe_job_events_total", ns + ",action=\"completed\"", counter(37));
    line("zeebe_gateway_job_stream_push_total", ns, counter(30));
    line("zeebe_dropped_request_count_total", ns, counter(3));
    line("zeebe_received_request_count_total", ns, counter(60));
    line("httpcomponents_httpclient_pool_total_connections", ns + ",pod=\"starter-0\",state=\"leased\"", "20");
    line("httpcomponents_httpclient_pool_total_connections", ns + ",pod=\"starter-0\",state=\"available\"", "5");
    line("httpcomponents_httpclient_pool_total_pending", ns + ",pod=\"starter-0\"", "3");
    for (const char *le : {"0.1", "0.5", "1", "+Inf"})
        line("starter_data_availability_latency_seconds_bucket", ns + ",le=\"" + le + '"',
             counter(std::atof(le) > 0.2 ? 50 : 20));
    line("container_cpu_cfs_throttled_periods_total", ns + ",pod=\"zeebe-0\"", counter(2));
    line("container_cpu_cfs_periods_total", ns + ",pod=\"zeebe-0\"", counter(10));
    line("camunda_client_worker_job_activated_total", ns + ",partition=\"1\"", counter(40));
    line("camunda_client_worker_job_handled_total", ns + ",partition=\"1\"", counter(38));
    line("zeebe_flow_control_total", ns + ",outcome=\"accepted\"", counter(50));
    line("zeebe_flow_control_partition_load", ns + ",partition=\"1\"", "0.4");
    return text;
}

// The metrics endpoint answers from its own thread: the test's thread is blocked while the
// app runs.
class CamundaMetricsEndpoint
{
public:
    CamundaMetricsEndpoint()
    {
        m_context.moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            &m_context,
            [this] {
                m_server = std::make_unique<FaultServer>();
                const qint64 started = QDateTime::currentMSecsSinceEpoch();
                m_server->script("/metrics", [started](const FaultServer::Request &) {
                    return FaultServer::text(
                        camundaMetrics(double(QDateTime::currentMSecsSinceEpoch() - started) / 1000), 200,
                        "text/plain; version=0.0.4");
                });
                m_port = m_server->port();
            },
            Qt::BlockingQueuedConnection);
    }
    ~CamundaMetricsEndpoint()
    {
        QThread *home = QThread::currentThread();
        QMetaObject::invokeMethod(
            &m_context,
            [this, home] {
                m_server.reset();
                m_context.moveToThread(home); // destroyed here, after the thread is gone
            },
            Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    QString hostPort() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }

private:
    QThread m_thread;
    QObject m_context; // lives in m_thread, so that what it invokes runs there
    std::unique_ptr<FaultServer> m_server;
    quint16 m_port = 0;
};

AppRun importGrafana(const QString &input, const QString &output)
{
    return runChaoscope({QStringLiteral("--import-grafana"), input, QStringLiteral("--output"), output}, 60000);
}

} // namespace

TEST(GrafanaImport, ConvertsTheCamundaExportAndListsWhatItLeftOut)
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("camunda.json"));
    const AppRun run = importGrafana(kFixture, output);
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_EQ(lines.first(), QStringLiteral("Converted 12 panels, 4 variables to %1").arg(output))
        << "nine lines panels, two stat tiles (a stat and a gauge) and a heatmap";
    for (const char *expected : {
             "not converted: panel 'Disk usage' (piechart): panel type not supported",
             "not converted: panel 'Backpressure (now)' (gauge): a gauge is drawn as a stat tile: its value as a "
             "number over a sparkline, without the dial",
             "not converted: panel 'Rejections by intent' (table): panel type not supported",
             "not converted: panel 'About this dashboard' (text): panel type not supported",
             "not converted: panel 'Gateway errors (logs)' (timeseries): loki data source not supported",
             "not converted: panel 'Data availability latency' (heatmap): [$__interval] replaced by "
             "[$__rate_interval]: a range of one step holds a single scrape at short steps and draws nothing; the "
             "colours and shares are the same, the counts are over the longer range",
             "not converted: variable 'datasource' (datasource): data source variables not supported; "
             "Chaoscope reads from the --prometheus it was started with",
         })
        EXPECT_TRUE(lines.contains(QString::fromUtf8(expected))) << expected << "\n---\n" << run.out.toStdString();
    EXPECT_TRUE(run.err.isEmpty()) << run.err.toStdString();
    EXPECT_TRUE(QFile::exists(output));
}

TEST(GrafanaImport, BadInputNamesTheFileAndTheProblem)
{
    QTemporaryDir dir;
    const QString input = dir.filePath(QStringLiteral("broken.json"));
    QFile file(input);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{\"panels\": [\n  {\"title\": \"x\",}\n]}");
    file.close();
    const QString output = dir.filePath(QStringLiteral("out.json"));
    const AppRun broken = importGrafana(input, output);
    EXPECT_EQ(broken.exitCode, 2);
    EXPECT_TRUE(broken.err.contains(
        input + QStringLiteral(": not valid JSON: object is missing after a comma at line 2, column 17")))
        << broken.err.toStdString();
    EXPECT_FALSE(QFile::exists(output));

    const AppRun missing = importGrafana(dir.filePath(QStringLiteral("nope.json")), output);
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_TRUE(missing.err.contains(QStringLiteral("cannot read"))) << missing.err.toStdString();

    const AppRun chaoscopeFile = importGrafana(sourcePath(QStringLiteral("resources/dashboards/testbed.json")), output);
    EXPECT_EQ(chaoscopeFile.exitCode, 2) << "a Chaoscope dashboard is not a Grafana one";
    EXPECT_TRUE(chaoscopeFile.err.contains(QStringLiteral("not a Grafana dashboard")))
        << chaoscopeFile.err.toStdString();
}

TEST(GrafanaImport, OutputThatCannotBeWrittenOrIsTheInput)
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("grafana.json"));
    ASSERT_TRUE(QFile::copy(kFixture, copy));
    const QByteArray before = [&] {
        QFile f(copy);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();
    const AppRun same = importGrafana(copy, dir.filePath(QStringLiteral("./grafana.json")));
    EXPECT_EQ(same.exitCode, 3);
    EXPECT_TRUE(same.err.contains(QStringLiteral("is the Grafana file being imported"))) << same.err.toStdString();
    QFile after(copy);
    ASSERT_TRUE(after.open(QIODevice::ReadOnly));
    EXPECT_EQ(after.readAll(), before) << "the Grafana file is left as it was";

    const AppRun nowhere = importGrafana(copy, dir.filePath(QStringLiteral("no/such/folder/out.json")));
    EXPECT_EQ(nowhere.exitCode, 3);
    EXPECT_TRUE(nowhere.err.contains(QStringLiteral("cannot write"))) << nowhere.err.toStdString();

    const AppRun noOutput = runChaoscope({QStringLiteral("--import-grafana"), copy});
    EXPECT_EQ(noOutput.exitCode, 2);
    EXPECT_TRUE(noOutput.err.contains(QStringLiteral("--import-grafana needs --output"))) << noOutput.err.toStdString();
}

TEST(GrafanaImport, TheConvertedDashboardOpensAndDrawsEveryPanel)
{
    QTemporaryDir dir;
    const QString dashboard = dir.filePath(QStringLiteral("camunda.json"));
    const AppRun converted = importGrafana(kFixture, dashboard);
    ASSERT_EQ(converted.exitCode, 0) << converted.err.toStdString();

    CamundaMetricsEndpoint camunda;
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.start({{QStringLiteral("camunda"), camunda.hostPort()}}))
        << prometheus.errorString().toStdString();
    // Two scrapes at least, so that rates have something to compute.
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("rate(zeebe_exporter_events_total[5s]) > 0"), 30000))
        << prometheus.log().toStdString();

    const QString png = dir.filePath(QStringLiteral("camunda.png"));
    const QString layout = dir.filePath(QStringLiteral("layout.json"));
    const AppRun run = runChaoscope(
        {QStringLiteral("--prometheus"), prometheus.url().toString(), QStringLiteral("--dashboard"), dashboard,
         QStringLiteral("--window"), QStringLiteral("5m"), QStringLiteral("--no-record"),
         QStringLiteral("--screenshot"), png, QStringLiteral("--screenshot-layout"), layout,
         // Under a loaded sanitizer run the first rates take a while.
         QStringLiteral("--after"), QStringLiteral("15s"), QStringLiteral("--size"), QStringLiteral("1400x1600")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    // The file the importer wrote is a dashboard the loader takes without a single remark.
    EXPECT_FALSE(run.err.contains(QStringLiteral("chaoscope: dashboard "))) << run.err.toStdString();

    const QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), 1400);
    QFile layoutFile(layout);
    ASSERT_TRUE(layoutFile.open(QIODevice::ReadOnly));
    const QJsonArray panels =
        QJsonDocument::fromJson(layoutFile.readAll()).object().value(QStringLiteral("panels")).toArray();
    ASSERT_EQ(panels.size(), 12);
    int drawn = 0;
    QStringList empty;
    for (qsizetype i = 0; i < panels.size(); ++i) {
        const QJsonObject panel = panels.at(i).toObject();
        const QRect plot(panel.value(QStringLiteral("x")).toInt(), panel.value(QStringLiteral("y")).toInt(),
                         panel.value(QStringLiteral("width")).toInt(), panel.value(QStringLiteral("height")).toInt());
        EXPECT_TRUE(image.rect().contains(plot)) << "plot area outside the screenshot";
        EXPECT_GT(plot.height(), 40) << "a panel squeezed flat";
        if (panel.value(QStringLiteral("points")).toInt() > 0 ||
            panel.value(QStringLiteral("heatmap")).toObject().value(QStringLiteral("cells")).toInt() > 0)
            ++drawn;
        else
            empty << QString::number(i);
    }
    EXPECT_EQ(drawn, 12) << "every converted panel draws its series; empty panels (0-based): "
                         << empty.join(QStringLiteral(", ")).toStdString() << "\n"
                         << run.err.toStdString();
}
