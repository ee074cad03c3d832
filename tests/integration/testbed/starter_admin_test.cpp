// SPDX-License-Identifier: GPL-3.0-or-later
// The real chaoscope-starter binary against a tiny in-test target: the admin API's rules as a
// client sees them (docs/admin-api.md), the metrics, and the overload valves of seed 000.
#include "freeport.h"
#include "loadtester.pb.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <memory>

using chaoscope::admin::v1::LoadStatus;

namespace {

// A keep-alive HTTP/1.1 server that answers every request with 200 {} — or, with
// answering = false, accepts connections and never answers (a target that hangs).
class TinyTarget : public QObject
{
public:
    explicit TinyTarget(bool answering = true) : m_answering(answering)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            qFatal("TinyTarget cannot listen");
    }

    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    int requests() const { return m_requests; }

private:
    void serve(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        if (!m_answering)
            return;
        for (;;) {
            const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
            if (headerEnd < 0)
                return;
            static const QRegularExpression lengthPattern(QStringLiteral("content-length:\\s*(\\d+)"),
                                                          QRegularExpression::CaseInsensitiveOption);
            const auto match = lengthPattern.match(QString::fromLatin1(buffer.left(headerEnd)));
            const qsizetype length = match.hasMatch() ? match.captured(1).toLongLong() : 0;
            if (buffer.size() < headerEnd + 4 + length)
                return;
            buffer.remove(0, headerEnd + 4 + length);
            ++m_requests;
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        }
    }

    bool m_answering;
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_requests = 0;
};

struct Answer
{
    int status = 0;
    QByteArray contentType;
    QByteArray body;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// The starter binary on a free loopback port; terminated (and expected to exit cleanly) at
// the end of the test.
class StarterProcess
{
public:
    bool start(const QStringList &arguments)
    {
        m_process.setProgram(starterBinary());
        m_process.setArguments(arguments);
        m_process.start();
        if (!m_process.waitForStarted(10000))
            return false;
        const bool listening = waitFor(
            [this] {
                m_stdout += m_process.readAllStandardOutput();
                return m_stdout.contains('\n') || m_process.state() != QProcess::Running;
            },
            15000);
        const QRegularExpressionMatch match =
            QRegularExpression(QStringLiteral("^listening on http://127\\.0\\.0\\.1:(\\d+)\n$"))
                .match(QString::fromUtf8(m_stdout));
        if (!listening || !match.hasMatch())
            return false;
        m_port = match.captured(1).toUShort();
        return true;
    }

    // SIGTERM; the exit code (-1 on a crash or a hang).
    int terminate()
    {
        if (m_process.state() == QProcess::NotRunning)
            return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
            return -1;
        }
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }

    ~StarterProcess() { terminate(); }

    QProcess &process() { return m_process; }
    QByteArray standardOutput() { return m_stdout += m_process.readAllStandardOutput(); }
    QString log() { return QString::fromUtf8(m_process.readAllStandardError()); }

    Answer request(const QByteArray &method, const QString &path, const QByteArray &body = {},
                   const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path)));
        request.setTransferTimeout(15000);
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
        QNetworkReply *reply = m_network.sendCustomRequest(request, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        Answer answer;
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        answer.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        answer.body = reply->readAll();
        reply->deleteLater();
        return answer;
    }

    LoadStatus status(const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        const Answer answer = request("GET", QStringLiteral("/admin/status"), {}, headers);
        LoadStatus status;
        EXPECT_EQ(answer.status, 200) << answer.body.constData();
        EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(answer.body.toStdString(), &status).ok())
            << answer.body.constData();
        return status;
    }

    // The value of one sample line of /metrics, NaN when absent.
    double metric(const QByteArray &series)
    {
        const Answer answer = request("GET", QStringLiteral("/metrics"));
        for (const QByteArray &line : answer.body.split('\n')) {
            if (line.startsWith(series + ' '))
                return line.mid(series.size() + 1).toDouble();
        }
        return std::numeric_limits<double>::quiet_NaN();
    }

private:
    QProcess m_process;
    QByteArray m_stdout;
    QNetworkAccessManager m_network;
    quint16 m_port = 0;
};

const QByteArray contentTypeHeader = "Content-Type";
const QByteArray jsonType = "application/json";

QStringList baseArguments(const TinyTarget &target)
{
    return {QStringLiteral("--port"),     QString::number(freeLoopbackPort()),
            QStringLiteral("--target"),   target.url(),
            QStringLiteral("--rate"),     QStringLiteral("50"),
            QStringLiteral("--instance"), QStringLiteral("test-starter")};
}

void expectProblem(const Answer &answer, int status, const char *what)
{
    EXPECT_EQ(answer.status, status) << what << ": " << answer.body.constData();
    EXPECT_EQ(answer.contentType, "application/problem+json") << what;
    const QJsonObject problem = answer.json();
    EXPECT_EQ(problem.value(QLatin1String("status")).toInt(), status) << what;
    for (const char *field : {"type", "title", "detail"})
        EXPECT_FALSE(problem.value(QLatin1String(field)).toString().isEmpty()) << what << ": " << field;
}

// The set-points and version: what bad input must leave alone.
std::tuple<double, int, bool, qint64> setPoints(const LoadStatus &status)
{
    return {status.rate(), status.inflight_limit(), status.paused(), status.version()};
}

} // namespace

TEST(StarterAdmin, BadInputIsRefusedAndChangesNothing)
{
    TinyTarget target;
    StarterProcess starter;
    ASSERT_TRUE(
        starter.start(baseArguments(target) + QStringList{QStringLiteral("--max-rate"), QStringLiteral("1000")}))
        << qPrintable(starter.log());
    const auto before = setPoints(starter.status());

    struct Case
    {
        const char *what;
        QByteArray path;
        QByteArray contentType;
        QByteArray body;
    };
    const QList<Case> cases = {
        {"negative rate", "/admin/rate", jsonType, R"({"rate": -1})"},
        {"NaN rate", "/admin/rate", jsonType, R"({"rate": "NaN"})"},
        {"infinite rate", "/admin/rate", jsonType, R"({"rate": "Infinity"})"},
        {"text rate", "/admin/rate", jsonType, R"({"rate": "fast"})"},
        {"huge rate", "/admin/rate", jsonType, R"({"rate": 1e300})"},
        {"over --max-rate", "/admin/rate", jsonType, R"({"rate": 1001})"},
        {"unknown field", "/admin/rate", jsonType, R"({"rate": 10, "burst": 5})"},
        {"empty object", "/admin/rate", jsonType, R"({})"},
        {"not JSON", "/admin/rate", jsonType, "rate=10"},
        {"wrong content type", "/admin/rate", "text/plain", R"({"rate": 10})"},
        {"no content type", "/admin/rate", {}, R"({"rate": 10})"},
        {"5 MB body", "/admin/rate", jsonType, R"({"rate": 10, "x": ")" + QByteArray(5 * 1024 * 1024, 'x') + R"("})"},
        {"negative limit", "/admin/inflight-limit", jsonType, R"({"limit": -5})"},
        {"fractional limit", "/admin/inflight-limit", jsonType, R"({"limit": 2.5})"},
        {"huge limit", "/admin/inflight-limit", jsonType, R"({"limit": 99999999999999})"},
        {"NaN limit", "/admin/inflight-limit", jsonType, R"({"limit": "NaN"})"},
        {"unknown limit field", "/admin/inflight-limit", jsonType, R"({"limit": 5, "x": 1})"},
    };
    for (const Case &c : cases) {
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!c.contentType.isEmpty())
            headers.append({contentTypeHeader, c.contentType});
        expectProblem(starter.request("PUT", QString::fromLatin1(c.path), c.body, headers), 400, c.what);
    }
    expectProblem(starter.request("POST", QStringLiteral("/admin/pause"), QByteArray(5000, ' ')), 400,
                  "pause with an oversized body");
    expectProblem(starter.request("PUT", QStringLiteral("/admin/rate"), R"({"rate": 10})",
                                  {{contentTypeHeader, jsonType}, {"If-Match", "not-a-version"}}),
                  400, "malformed If-Match");

    EXPECT_EQ(setPoints(starter.status()), before);
    EXPECT_EQ(starter.terminate(), 0) << qPrintable(starter.log());
}

TEST(StarterAdmin, GoodInputChangesTheStateAndTheAnswerShowsIt)
{
    TinyTarget target;
    StarterProcess starter;
    ASSERT_TRUE(starter.start(baseArguments(target))) << qPrintable(starter.log());
    const LoadStatus initial = starter.status();
    EXPECT_EQ(initial.rate(), 50);
    EXPECT_EQ(initial.instance(), "test-starter");
    EXPECT_EQ(initial.pool_size(), 100);
    EXPECT_FALSE(initial.started_at().empty());

    Answer answer =
        starter.request("PUT", QStringLiteral("/admin/rate"), R"({"rate": 80})", {{contentTypeHeader, jsonType}});
    ASSERT_EQ(answer.status, 200) << answer.body.constData();
    LoadStatus status;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(answer.body.toStdString(), &status).ok());
    EXPECT_EQ(status.rate(), 80);
    EXPECT_EQ(status.version(), initial.version() + 1);

    answer = starter.request("PUT", QStringLiteral("/admin/inflight-limit"), R"({"limit": 5000})",
                             {{contentTypeHeader, "application/json; charset=utf-8"}});
    ASSERT_EQ(answer.status, 200) << answer.body.constData();
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(answer.body.toStdString(), &status).ok());
    EXPECT_EQ(status.inflight_limit(), 5000);
    EXPECT_EQ(status.version(), initial.version() + 2);

    // Requests reach the target and come back as successes.
    ASSERT_TRUE(waitFor([&] { return starter.status().succeeded() > 5; }, 10000));
    EXPECT_GT(target.requests(), 5);

    answer = starter.request("POST", QStringLiteral("/admin/pause"));
    ASSERT_EQ(answer.status, 200);
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(answer.body.toStdString(), &status).ok());
    EXPECT_TRUE(status.paused());
    EXPECT_EQ(status.version(), initial.version() + 3);
    EXPECT_EQ(starter.metric("starter_paused"), 1);
    // Paused: the liveness probe still says alive, and nothing more is sent once drained.
    EXPECT_EQ(starter.request("GET", QStringLiteral("/health/liveness")).status, 200);
    ASSERT_TRUE(waitFor([&] { return starter.status().inflight() == 0; }, 10000));
    const qint64 sentWhilePaused = starter.status().sent();

    answer = starter.request("POST", QStringLiteral("/admin/resume"));
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(answer.body.toStdString(), &status).ok());
    EXPECT_FALSE(status.paused());
    EXPECT_EQ(status.version(), initial.version() + 4);
    EXPECT_GE(status.sent(), sentWhilePaused);
    EXPECT_TRUE(waitFor([&] { return starter.status().sent() > sentWhilePaused; }, 10000));

    // Stale If-Match: 412, nothing changes.
    const qint64 version = starter.status().version();
    expectProblem(
        starter.request("PUT", QStringLiteral("/admin/rate"), R"({"rate": 10})",
                        {{contentTypeHeader, jsonType}, {"If-Match", '"' + QByteArray::number(version - 1) + '"'}}),
        412, "stale If-Match");
    EXPECT_EQ(starter.status().rate(), 80);
    answer = starter.request("PUT", QStringLiteral("/admin/rate"), R"({"rate": 10})",
                             {{contentTypeHeader, jsonType}, {"If-Match", '"' + QByteArray::number(version) + '"'}});
    EXPECT_EQ(answer.status, 200) << answer.body.constData();
    EXPECT_EQ(starter.status().rate(), 10);

    EXPECT_EQ(starter.terminate(), 0) << qPrintable(starter.log());
    const QString log = starter.log();
    EXPECT_TRUE(log.contains(QStringLiteral("rate changed from 50 to 80"))) << qPrintable(log);
}

TEST(StarterAdmin, ProtobufAnswerOnRequest)
{
    TinyTarget target;
    StarterProcess starter;
    ASSERT_TRUE(starter.start(baseArguments(target))) << qPrintable(starter.log());
    const Answer answer =
        starter.request("GET", QStringLiteral("/admin/status"), {}, {{"Accept", "application/x-protobuf"}});
    ASSERT_EQ(answer.status, 200);
    EXPECT_EQ(answer.contentType, "application/x-protobuf");
    LoadStatus status;
    ASSERT_TRUE(status.ParseFromString(answer.body.toStdString()));
    EXPECT_EQ(status.rate(), 50);
    EXPECT_EQ(status.instance(), "test-starter");
    EXPECT_EQ(status.pool_size(), 100);
}

TEST(StarterAdmin, LivenessAndMetrics)
{
    TinyTarget target;
    StarterProcess starter;
    ASSERT_TRUE(starter.start(baseArguments(target))) << qPrintable(starter.log());
    const Answer liveness = starter.request("GET", QStringLiteral("/health/liveness"));
    EXPECT_EQ(liveness.status, 200) << liveness.body.constData();

    ASSERT_TRUE(
        waitFor([&] { return starter.metric("starter_requests_received_total{outcome=\"success\"}") > 0; }, 10000));
    const Answer metrics = starter.request("GET", QStringLiteral("/metrics"));
    EXPECT_EQ(metrics.status, 200);
    EXPECT_TRUE(metrics.contentType.startsWith("text/plain")) << metrics.contentType.constData();
    for (const char *family :
         {"starter_requests_sent_total", "starter_requests_received_total", "starter_requests_skipped_total",
          "starter_requests_dropped_total", "starter_requests_inflight", "starter_rate", "starter_inflight_limit",
          "starter_paused", "http_client_pool_leased", "http_client_pool_pending", "http_client_pool_available",
          "http_client_pool_max", "http_client_request_seconds", "process_resident_memory_bytes",
          "process_cpu_seconds_total"}) {
        EXPECT_TRUE(metrics.body.contains(QByteArray("# HELP ") + family + ' ')) << family;
        EXPECT_TRUE(metrics.body.contains(QByteArray("# TYPE ") + family + ' ')) << family;
    }
    EXPECT_TRUE(
        metrics.body.contains("http_client_request_seconds_bucket{method=\"POST\",status=\"200\",le=\"+Inf\"}"));
    EXPECT_EQ(starter.metric("starter_rate"), 50);
    EXPECT_EQ(starter.metric("http_client_pool_max"), 100);
}

TEST(StarterAdmin, TokenIsRequiredForAdminWhenConfigured)
{
    QTemporaryDir dir;
    QFile tokenFile(dir.filePath(QStringLiteral("token")));
    ASSERT_TRUE(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write("correct-horse\n");
    tokenFile.close();

    TinyTarget target;
    StarterProcess starter;
    ASSERT_TRUE(
        starter.start(baseArguments(target) + QStringList{QStringLiteral("--admin-token-file"), tokenFile.fileName()}))
        << qPrintable(starter.log());
    const QList<QPair<QByteArray, QByteArray>> good = {{"Authorization", "Bearer correct-horse"}};
    const auto before = setPoints(starter.status(good));

    expectProblem(starter.request("GET", QStringLiteral("/admin/status")), 401, "no token");
    expectProblem(
        starter.request("GET", QStringLiteral("/admin/status"), {}, {{"Authorization", "Bearer correct-horsf"}}), 401,
        "wrong token");
    expectProblem(starter.request("PUT", QStringLiteral("/admin/rate"), R"({"rate": 10})",
                                  {{contentTypeHeader, jsonType}, {"Authorization", "Bearer wrong"}}),
                  401, "wrong token on a change");
    expectProblem(
        starter.request("POST", QStringLiteral("/admin/pause"), {}, {{"Authorization", "Basic Y29ycmVjdC1ob3JzZQ=="}}),
        401, "wrong scheme");
    EXPECT_EQ(setPoints(starter.status(good)), before);

    // Scrapes and probes stay open.
    EXPECT_EQ(starter.request("GET", QStringLiteral("/metrics")).status, 200);
    EXPECT_EQ(starter.request("GET", QStringLiteral("/health/liveness")).status, 200);

    const Answer changed = starter.request("PUT", QStringLiteral("/admin/rate"), R"({"rate": 20})",
                                           {{contentTypeHeader, jsonType}, good.first()});
    EXPECT_EQ(changed.status, 200) << changed.body.constData();
    EXPECT_EQ(starter.status(good).rate(), 20);
}

TEST(StarterAdmin, RefusesNonLoopbackBindWithoutToken)
{
    QProcess process;
    process.start(starterBinary(), {QStringLiteral("--bind"), QStringLiteral("0.0.0.0"), QStringLiteral("--port"),
                                    QString::number(freeLoopbackPort())});
    ASSERT_TRUE(process.waitForFinished(15000));
    EXPECT_EQ(process.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(process.exitCode(), 2);
    EXPECT_FALSE(process.readAllStandardOutput().contains("listening on"));
    EXPECT_TRUE(process.readAllStandardError().contains("--admin-token-file"));
}

// With a token the same address is fine: it starts, and the admin API wants the token (the
// test talks to it over loopback, which 0.0.0.0 includes; nothing leaves the machine).
TEST(StarterAdmin, NonLoopbackBindWorksWithToken)
{
    QTemporaryDir dir;
    QFile tokenFile(dir.filePath(QStringLiteral("token")));
    ASSERT_TRUE(tokenFile.open(QIODevice::WriteOnly));
    tokenFile.write("wide-open-no-more\n");
    tokenFile.close();
    TinyTarget target;
    const quint16 port = freeLoopbackPort();
    QProcess process;
    process.start(starterBinary(),
                  {QStringLiteral("--bind"), QStringLiteral("0.0.0.0"), QStringLiteral("--port"), QString::number(port),
                   QStringLiteral("--target"), target.url(), QStringLiteral("--rate"), QStringLiteral("1"),
                   QStringLiteral("--admin-token-file"), tokenFile.fileName()});
    QByteArray out;
    ASSERT_TRUE(waitFor(
        [&] {
            out += process.readAllStandardOutput();
            return out.contains('\n') || process.state() == QProcess::NotRunning;
        },
        15000));
    EXPECT_EQ(out, QStringLiteral("listening on http://0.0.0.0:%1\n").arg(port).toUtf8())
        << process.readAllStandardError().constData();

    QNetworkAccessManager network;
    auto get = [&](const QByteArray &authorization) {
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/admin/status").arg(port)));
        request.setTransferTimeout(15000);
        if (!authorization.isEmpty())
            request.setRawHeader("Authorization", authorization);
        QNetworkReply *reply = network.get(request);
        waitFor([reply] { return reply->isFinished(); }, 20000);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        return status;
    };
    EXPECT_EQ(get({}), 401);
    EXPECT_EQ(get("Bearer wide-open-no-moRe"), 401);
    EXPECT_EQ(get("Bearer wide-open-no-more"), 200);

    process.terminate();
    ASSERT_TRUE(process.waitForFinished(10000));
    EXPECT_EQ(process.exitCode(), 0);
}

TEST(StarterAdmin, InvalidFlagsExitWithUsageError)
{
    for (const QStringList &arguments :
         {QStringList{QStringLiteral("--rate"), QStringLiteral("lots")},
          QStringList{QStringLiteral("--pool-size"), QStringLiteral("-3")},
          QStringList{QStringLiteral("--admin-token-file"), QStringLiteral("/nonexistent/token")}}) {
        QProcess process;
        process.start(starterBinary(), arguments);
        ASSERT_TRUE(process.waitForFinished(15000));
        EXPECT_EQ(process.exitCode(), 2) << qPrintable(arguments.join(' '));
        EXPECT_FALSE(process.readAllStandardError().isEmpty());
    }
}

TEST(StarterAdmin, HangingTargetIsBoundedByDeadlineLimitAndPendingCap)
{
    // Seed 000 in miniature: the target never answers. A pool of 2 fills at once, the FIFO
    // behind it is capped at 20, and every request fails as 599 at its deadline.
    TinyTarget target(false);
    StarterProcess starter;
    ASSERT_TRUE(starter.start(
        {QStringLiteral("--port"), QString::number(freeLoopbackPort()), QStringLiteral("--target"), target.url(),
         QStringLiteral("--rate"), QStringLiteral("200"), QStringLiteral("--pool-size"), QStringLiteral("2"),
         QStringLiteral("--deadline"), QStringLiteral("1"), QStringLiteral("--max-pending"), QStringLiteral("20")}))
        << qPrintable(starter.log());

    ASSERT_TRUE(waitFor([&] { return starter.metric("starter_requests_dropped_total") > 0; }, 10000));
    EXPECT_LE(starter.metric("http_client_pool_pending"), 20);
    EXPECT_EQ(starter.metric("http_client_pool_leased"), 2);
    EXPECT_EQ(starter.metric("http_client_pool_available"), 0);
    ASSERT_TRUE(waitFor(
        [&] { return starter.metric("http_client_request_seconds_count{method=\"POST\",status=\"599\"}") >= 2; },
        10000));
    EXPECT_GT(starter.metric("starter_requests_received_total{outcome=\"failure\"}"), 0);
    EXPECT_EQ(starter.request("GET", QStringLiteral("/health/liveness")).status, 200);

    // The in-flight limit takes over from the cap: ticks are skipped, not queued.
    const Answer limited = starter.request("PUT", QStringLiteral("/admin/inflight-limit"), R"({"limit": 5})",
                                           {{contentTypeHeader, jsonType}});
    ASSERT_EQ(limited.status, 200) << limited.body.constData();
    ASSERT_TRUE(waitFor([&] { return starter.metric("starter_requests_skipped_total") > 0; }, 10000));
    ASSERT_TRUE(waitFor([&] { return starter.metric("starter_requests_inflight") <= 5; }, 10000));
    EXPECT_EQ(starter.terminate(), 0) << qPrintable(starter.log());
    EXPECT_TRUE(starter.log().contains(QStringLiteral("pending FIFO is full")));
}
