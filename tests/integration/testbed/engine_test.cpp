// SPDX-License-Identifier: GPL-3.0-or-later
// The real chaoscope-engine binary: command line, admin API rules (bad input is refused and
// changes nothing), /metrics under load, backpressure (503), flow control (429), worker
// changes at runtime, keep-alive and a clean exit on SIGTERM.
#include "blockinghttp.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <vector>

namespace {

const QByteArray kJson = "application/json";

// "name{labels}" -> value for every sample of a text exposition; fails the test on a line
// that is neither a comment nor a sample.
QMap<QString, double> parseMetrics(const QByteArray &text)
{
    static const QRegularExpression sample(
        QStringLiteral(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) ([-+]?(?:[0-9.]+(?:[eE][-+]?[0-9]+)?|Inf|NaN))$)"));
    QMap<QString, double> values;
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QRegularExpressionMatch match = sample.match(line);
        EXPECT_TRUE(match.hasMatch()) << "not a sample line: " << line.toStdString();
        if (match.hasMatch())
            values.insert(match.captured(1), match.captured(2).toDouble());
    }
    return values;
}

double metric(const TestbedProcess &engine, const QString &series)
{
    const BlockingHttp::Answer answer = BlockingHttp::get(engine.baseUrl() + QStringLiteral("/metrics"));
    const QMap<QString, double> values = parseMetrics(answer.body);
    return values.value(series, std::numeric_limits<double>::quiet_NaN());
}

// Many creates at once through one QNetworkAccessManager (6 keep-alive connections), without
// waiting for each: the way a load tester talks to the engine.
class Burst
{
public:
    Burst(const QString &baseUrl, int count)
    {
        for (int i = 0; i < count; ++i) {
            QNetworkRequest request(QUrl(baseUrl + QStringLiteral("/v2/process-instances")));
            request.setHeader(QNetworkRequest::ContentTypeHeader, kJson);
            QNetworkReply *reply = m_network.post(request, QByteArray("{}"));
            QObject::connect(reply, &QNetworkReply::finished, reply, [this, reply] {
                const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                ++m_statuses[status];
                if (status == 200)
                    m_keys << QJsonDocument::fromJson(reply->readAll())
                                  .object()
                                  .value(QStringLiteral("processInstanceKey"))
                                  .toInteger();
                else
                    m_problemBodies << reply->readAll();
                reply->deleteLater();
            });
        }
        m_count = count;
    }

    bool waitDone(int timeoutMs)
    {
        return waitFor([this] { return answered() == m_count; }, timeoutMs);
    }
    int answered() const
    {
        int total = 0;
        for (const int n : m_statuses)
            total += n;
        return total;
    }
    int count(int status) const { return m_statuses.value(status); }
    const QList<qint64> &keys() const { return m_keys; }
    const QList<QByteArray> &problemBodies() const { return m_problemBodies; }

private:
    QNetworkAccessManager m_network;
    QMap<int, int> m_statuses;
    QList<qint64> m_keys;
    QList<QByteArray> m_problemBodies;
    int m_count = 0;
};

class EngineTest : public ::testing::Test
{
protected:
    void startEngine(const QStringList &arguments)
    {
        ASSERT_TRUE(m_engine.start(engineBinary(), arguments)) << m_engine.errorString().toStdString();
    }

    BlockingHttp::Answer putConfig(const QByteArray &body, const QByteArray &contentType = kJson)
    {
        return BlockingHttp::request("PUT", m_engine.baseUrl() + QStringLiteral("/admin/config"), body, contentType);
    }
    QJsonObject config() { return BlockingHttp::get(m_engine.baseUrl() + QStringLiteral("/admin/config")).json(); }

    TestbedProcess m_engine;
};

} // namespace

TEST_F(EngineTest, ServesLivenessAndConfig)
{
    startEngine(
        {QStringLiteral("--workers"), QStringLiteral("3"), QStringLiteral("--service-time"), QStringLiteral("0.02")});
    EXPECT_EQ(BlockingHttp::get(m_engine.baseUrl() + QStringLiteral("/health/liveness")).status, 200);
    const QJsonObject current = config();
    EXPECT_EQ(current.value(QStringLiteral("workers")).toInt(), 3);
    EXPECT_DOUBLE_EQ(current.value(QStringLiteral("serviceTime")).toDouble(), 0.02);
    EXPECT_EQ(BlockingHttp::get(m_engine.baseUrl() + QStringLiteral("/nothing-here")).status, 404);
}

TEST_F(EngineTest, BadAdminInputIs400ProblemJsonAndChangesNothing)
{
    startEngine({QStringLiteral("--workers"), QStringLiteral("4")});
    const QJsonObject before = config();
    ASSERT_FALSE(before.isEmpty());

    struct Case
    {
        const char *what;
        QByteArray body;
        QByteArray contentType;
    };
    const std::vector<Case> cases = {
        {"unknown field", R"({"workers": 2, "threads": 3})", kJson},
        {"wrong type", R"({"workers": "2"})", kJson},
        {"bool", R"({"serviceTime": true})", kJson},
        {"negative workers", R"({"workers": -1})", kJson},
        {"fractional workers", R"({"workers": 2.5})", kJson},
        {"zero service time", R"({"serviceTime": 0})", kJson},
        {"negative export rate", R"({"exportRate": -1})", kJson},
        {"negative backlog", R"({"acceptableBacklog": -10})", kJson},
        {"NaN literal", R"({"serviceTime": NaN})", kJson},
        {"NaN string", R"({"serviceTime": "NaN"})", kJson},
        {"not JSON", "workers=2", kJson},
        {"array", "[2]", kJson},
        {"body over 4 KiB", R"({"workers": 2, "x": ")" + QByteArray(5000, 'a') + R"("})", kJson},
        {"wrong content type", R"({"workers": 2})", "text/plain"},
        {"form content type", R"({"workers": 2})", "application/x-www-form-urlencoded"},
    };
    for (const Case &c : cases) {
        const BlockingHttp::Answer answer = putConfig(c.body, c.contentType);
        EXPECT_EQ(answer.status, 400) << c.what;
        EXPECT_TRUE(answer.contentType.startsWith("application/problem+json"))
            << c.what << ": " << answer.contentType.constData();
        const QJsonObject problem = answer.json();
        EXPECT_EQ(problem.value(QStringLiteral("status")).toInt(), 400) << c.what;
        EXPECT_FALSE(problem.value(QStringLiteral("type")).toString().isEmpty()) << c.what;
        EXPECT_FALSE(problem.value(QStringLiteral("title")).toString().isEmpty()) << c.what;
        EXPECT_FALSE(problem.value(QStringLiteral("detail")).toString().isEmpty()) << c.what;
        EXPECT_EQ(config(), before) << c.what << " changed the configuration";
    }
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_workers")), 4);

    // A good request applies, answers the new configuration and is logged old -> new.
    const BlockingHttp::Answer good = putConfig(R"({"workers": 2, "serviceTime": 0.05})");
    EXPECT_EQ(good.status, 200) << good.body.constData();
    EXPECT_EQ(good.json().value(QStringLiteral("workers")).toInt(), 2);
    EXPECT_DOUBLE_EQ(good.json().value(QStringLiteral("serviceTime")).toDouble(), 0.05);
    EXPECT_EQ(config(), good.json());
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_workers")), 2);
    EXPECT_DOUBLE_EQ(metric(m_engine, QStringLiteral("engine_service_time_seconds")), 0.05);
    EXPECT_TRUE(waitFor([&] { return m_engine.log().contains(QStringLiteral("workers 4 -> 2")); }, 5000))
        << m_engine.log().toStdString();
    EXPECT_TRUE(m_engine.log().contains(QStringLiteral("serviceTime 0.02 -> 0.05")));
}

TEST_F(EngineTest, MetricsParseAndCountersMoveUnderLoad)
{
    startEngine({QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--service-time"),
                 QStringLiteral("0.01"), QStringLiteral("--records-per-instance"), QStringLiteral("7")});
    const BlockingHttp::Answer first = BlockingHttp::get(m_engine.baseUrl() + QStringLiteral("/metrics"));
    EXPECT_EQ(first.status, 200);
    EXPECT_TRUE(first.contentType.startsWith("text/plain")) << first.contentType.constData();
    EXPECT_TRUE(first.contentType.contains("version=0.0.4"));
    for (const char *family :
         {"engine_requests_total", "engine_process_instances_created_total", "engine_process_instances_completed_total",
          "engine_queue_length", "engine_workers_busy", "engine_workers", "engine_records_appended_total",
          "engine_records_exported_total", "engine_exporter_backlog_records", "engine_exporter_rate_limit",
          "engine_service_time_seconds", "process_resident_memory_bytes", "process_cpu_seconds_total"}) {
        EXPECT_TRUE(first.body.contains(QByteArray("# HELP ") + family + ' ')) << family;
        EXPECT_TRUE(first.body.contains(QByteArray("# TYPE ") + family + ' ')) << family;
    }
    const QMap<QString, double> before = parseMetrics(first.body);
    EXPECT_EQ(before.value(QStringLiteral(R"(engine_requests_total{outcome="accepted"})"), -1), 0);
    EXPECT_GT(before.value(QStringLiteral("process_resident_memory_bytes")), 1e6);

    Burst burst(m_engine.baseUrl(), 60);
    ASSERT_TRUE(burst.waitDone(20000)) << burst.answered() << " of 60 answered";
    EXPECT_EQ(burst.count(200), 60);
    QList<qint64> keys = burst.keys();
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end()) << "instance keys must be unique";

    const QMap<QString, double> after =
        parseMetrics(BlockingHttp::get(m_engine.baseUrl() + QStringLiteral("/metrics")).body);
    EXPECT_EQ(after.value(QStringLiteral(R"(engine_requests_total{outcome="accepted"})")), 60);
    EXPECT_EQ(after.value(QStringLiteral(R"(engine_requests_total{outcome="rejected"})")), 0);
    EXPECT_EQ(after.value(QStringLiteral("engine_process_instances_created_total")), 60);
    EXPECT_EQ(after.value(QStringLiteral("engine_process_instances_completed_total")), 60);
    EXPECT_EQ(after.value(QStringLiteral("engine_records_appended_total")), 420);
    EXPECT_EQ(after.value(QStringLiteral("engine_queue_length")), 0);
    EXPECT_EQ(after.value(QStringLiteral("engine_workers_busy")), 0);
    EXPECT_EQ(after.value(QStringLiteral("engine_records_appended_total")) -
                  after.value(QStringLiteral("engine_records_exported_total")),
              after.value(QStringLiteral("engine_exporter_backlog_records")));
    EXPECT_GT(after.value(QStringLiteral("process_cpu_seconds_total")), 0);
}

TEST_F(EngineTest, FullQueueAnswers503ProblemJson)
{
    startEngine({QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--service-time"),
                 QStringLiteral("2"), QStringLiteral("--queue"), QStringLiteral("2")});
    // The first three fit (one in service, two waiting); the other three are refused at once
    // while the first three are still far from done.
    Burst burst(m_engine.baseUrl(), 6);
    ASSERT_TRUE(waitFor([&] { return burst.count(503) == 3; }, 10000)) << burst.answered();
    EXPECT_EQ(burst.count(200), 0);
    for (const QByteArray &body : burst.problemBodies()) {
        const QJsonObject problem = QJsonDocument::fromJson(body).object();
        EXPECT_EQ(problem.value(QStringLiteral("status")).toInt(), 503) << body.constData();
        EXPECT_FALSE(problem.value(QStringLiteral("detail")).toString().isEmpty());
    }
    EXPECT_EQ(metric(m_engine, QStringLiteral(R"(engine_requests_total{outcome="rejected"})")), 3);
    EXPECT_EQ(metric(m_engine, QStringLiteral(R"(engine_requests_total{outcome="accepted"})")), 3);
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_queue_length")), 2);
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_workers_busy")), 1);
}

TEST_F(EngineTest, FlowControlAnswers429WhileTheBacklogIsOverTheLimit)
{
    // Exporter stopped (rate 0): every completed instance adds 10 records to the backlog.
    startEngine({QStringLiteral("--workers"), QStringLiteral("8"), QStringLiteral("--service-time"),
                 QStringLiteral("0.01"), QStringLiteral("--export-rate"), QStringLiteral("0"),
                 QStringLiteral("--acceptable-backlog"), QStringLiteral("25")});
    Burst fill(m_engine.baseUrl(), 3);
    ASSERT_TRUE(fill.waitDone(10000));
    EXPECT_EQ(fill.count(200), 3); // backlog 30 > 25 only after the third
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_exporter_backlog_records")), 30);

    const BlockingHttp::Answer refused =
        BlockingHttp::request("POST", m_engine.baseUrl() + QStringLiteral("/v2/process-instances"), "{}", kJson);
    EXPECT_EQ(refused.status, 429);
    EXPECT_TRUE(refused.contentType.startsWith("application/problem+json"));
    EXPECT_EQ(refused.json().value(QStringLiteral("status")).toInt(), 429);

    // The exporter resumes: the backlog drains and instances are accepted again.
    ASSERT_EQ(putConfig(R"({"exportRate": 1000})").status, 200);
    ASSERT_TRUE(
        waitFor([&] { return metric(m_engine, QStringLiteral("engine_exporter_backlog_records")) == 0; }, 5000));
    EXPECT_EQ(
        BlockingHttp::request("POST", m_engine.baseUrl() + QStringLiteral("/v2/process-instances"), "{}", kJson).status,
        200);
    EXPECT_EQ(metric(m_engine, QStringLiteral(R"(engine_requests_total{outcome="rejected"})")), 1);
}

TEST_F(EngineTest, WorkersSetToZeroHoldWorkUntilTheyComeBack)
{
    startEngine(
        {QStringLiteral("--workers"), QStringLiteral("2"), QStringLiteral("--service-time"), QStringLiteral("0.01")});
    ASSERT_EQ(putConfig(R"({"workers": 0})").status, 200);
    Burst burst(m_engine.baseUrl(), 5);
    ASSERT_TRUE(waitFor([&] { return metric(m_engine, QStringLiteral("engine_queue_length")) == 5; }, 10000));
    EXPECT_EQ(burst.answered(), 0);
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_workers")), 0);

    ASSERT_EQ(putConfig(R"({"workers": 3})").status, 200);
    ASSERT_TRUE(burst.waitDone(10000));
    EXPECT_EQ(burst.count(200), 5);
    EXPECT_EQ(metric(m_engine, QStringLiteral("engine_process_instances_completed_total")), 5);
}

TEST_F(EngineTest, KeepAliveConnectionServesRequestAfterRequest)
{
    startEngine({QStringLiteral("--service-time"), QStringLiteral("0.01")});
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), m_engine.port());
    ASSERT_TRUE(socket.waitForConnected(5000));
    for (int i = 0; i < 3; ++i) {
        socket.write("POST /v2/process-instances HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        QByteArray response;
        const bool complete = waitFor(
            [&] {
                response += socket.readAll();
                const qsizetype end = response.indexOf("\r\n\r\n");
                return end >= 0 && response.endsWith('}');
            },
            5000);
        ASSERT_TRUE(complete) << "request " << i << ": " << response.constData();
        EXPECT_TRUE(response.startsWith("HTTP/1.1 200")) << response.constData();
        EXPECT_TRUE(response.contains("processInstanceKey"));
        EXPECT_EQ(socket.state(), QAbstractSocket::ConnectedState) << "request " << i;
    }
}

TEST_F(EngineTest, ExitsCleanlyOnSigtermWithRequestsWaiting)
{
    startEngine(
        {QStringLiteral("--workers"), QStringLiteral("1"), QStringLiteral("--service-time"), QStringLiteral("30")});
    Burst burst(m_engine.baseUrl(), 3);
    ASSERT_TRUE(waitFor([&] { return metric(m_engine, QStringLiteral("engine_queue_length")) == 2; }, 10000));
    QElapsedTimer clock;
    clock.start();
    EXPECT_EQ(m_engine.stop(5000), 0) << m_engine.log().toStdString();
    EXPECT_LT(clock.elapsed(), 5000);
}

TEST(EngineCommandLine, InvalidValuesExitWithCode2AndAMessage)
{
    const QList<QStringList> invalid = {
        {QStringLiteral("--workers"), QStringLiteral("-1")},
        {QStringLiteral("--service-time"), QStringLiteral("0")},
        {QStringLiteral("--service-time"), QStringLiteral("fast")},
        {QStringLiteral("--service-distribution"), QStringLiteral("normal")},
        {QStringLiteral("--queue"), QStringLiteral("x")},
        {QStringLiteral("--port"), QStringLiteral("70000")},
        {QStringLiteral("--bind"), QStringLiteral("localhost.invalid")},
        {QStringLiteral("--no-such-flag")},
    };
    for (const QStringList &arguments : invalid) {
        QProcess process;
        process.start(engineBinary(), arguments);
        ASSERT_TRUE(process.waitForFinished(10000)) << arguments.join(' ').toStdString();
        EXPECT_EQ(process.exitCode(), 2) << arguments.join(' ').toStdString();
        const QString message = QString::fromUtf8(process.readAllStandardError());
        EXPECT_TRUE(message.startsWith(QStringLiteral("chaoscope-engine: "))) << message.toStdString();
        EXPECT_TRUE(process.readAllStandardOutput().isEmpty());
    }

    QProcess help;
    help.start(engineBinary(), {QStringLiteral("--help")});
    ASSERT_TRUE(help.waitForFinished(10000));
    EXPECT_EQ(help.exitCode(), 0);
    EXPECT_TRUE(help.readAllStandardOutput().contains("--acceptable-backlog"));
}
