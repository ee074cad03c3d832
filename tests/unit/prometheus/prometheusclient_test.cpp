// SPDX-License-Identifier: GPL-3.0-or-later
// The client's requests (URL, parameters, headers) and its handling of faults. A small
// loopback server records what arrives and serves canned faults that a real Prometheus
// cannot be made to produce on demand; real answers are covered by the integration suite.
#include "freeport.h"
#include "httprequest.h"
#include "prometheus/prometheusclient.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHostAddress>
#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <functional>
#include <gtest/gtest.h>
#include <memory>

namespace {

using Kind = Error::Kind;
using QueryFuture = QFuture<Result<PromQueryResult>>;

QByteArray fixture(const QString &name)
{
    QFile file(sourcePath(QStringLiteral("tests/fixtures/prometheus/") + name));
    if (!file.open(QIODevice::ReadOnly))
        ADD_FAILURE() << "missing fixture " << name.toStdString();
    return file.readAll();
}

QByteArray httpResponse(int status, const QByteArray &reason, const QByteArray &contentType, const QByteArray &body)
{
    return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\nContent-Type: " + contentType +
           "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

// Records HTTP/1.1 requests on 127.0.0.1 and lets each test decide what goes back.
class FakeServer : public QObject
{
public:
    using Request = HttpRequest;
    using Handler = std::function<void(QTcpSocket *socket, const Request &request)>;

    FakeServer()
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            ADD_FAILURE() << "cannot listen: " << m_server.errorString().toStdString();
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                ++connections;
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
                connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                    ++disconnects;
                    socket->deleteLater();
                });
            }
        });
    }

    void setHandler(Handler handler) { m_handler = std::move(handler); }
    void answer(const QByteArray &raw)
    {
        setHandler([raw](QTcpSocket *socket, const Request &) {
            socket->write(raw);
            socket->disconnectFromHost();
        });
    }
    QUrl url(const QString &path = QStringLiteral("/")) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path));
    }
    quint16 port() const { return m_server.serverPort(); }
    void close() { m_server.close(); }
    bool listenAgain(quint16 port) { return m_server.listen(QHostAddress::LocalHost, port); }

    QList<Request> requests;
    int connections = 0;
    int disconnects = 0;

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        while (const std::optional<Request> request = takeHttpRequest(buffer)) {
            requests.append(*request);
            if (m_handler)
                m_handler(socket, *request);
        }
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    Handler m_handler;
};

Result<PromQueryResult> await(const QueryFuture &future, int timeoutMs = 10000)
{
    if (!waitFor([&] { return future.isFinished(); }, timeoutMs))
        return Error::make(Kind::Invalid, QStringLiteral("test: the future did not finish in time"));
    if (future.isCanceled() || future.resultCount() == 0)
        return Error::make(Kind::Invalid, QStringLiteral("test: the future was canceled"));
    return future.result();
}

std::string describe(const Result<PromQueryResult> &result)
{
    return result.ok() ? std::string("ok") : result.error().message.toStdString();
}

PrometheusConnection connectionTo(const QUrl &url)
{
    PrometheusConnection connection;
    connection.baseUrl = url;
    connection.timeoutMs = 10000;
    return connection;
}

} // namespace

TEST(PrometheusClient, ApiUrlHonoursAPathPrefixWithOrWithoutSlash)
{
    const auto urlFor = [](const char *base, const char *path) {
        PrometheusClient client(connectionTo(QUrl(QString::fromLatin1(base))));
        return client.apiUrl(QString::fromLatin1(path)).toString();
    };
    EXPECT_EQ(urlFor("http://host:9090", "api/v1/query"), QStringLiteral("http://host:9090/api/v1/query"));
    EXPECT_EQ(urlFor("http://host:9090/", "api/v1/query"), QStringLiteral("http://host:9090/api/v1/query"));
    EXPECT_EQ(urlFor("http://host/prometheus/", "api/v1/query"), QStringLiteral("http://host/prometheus/api/v1/query"));
    EXPECT_EQ(urlFor("http://host/prometheus", "api/v1/query"), QStringLiteral("http://host/prometheus/api/v1/query"));
    EXPECT_EQ(urlFor("https://host/a/b/", "/api/v1/query_range"),
              QStringLiteral("https://host/a/b/api/v1/query_range"));
}

TEST(PrometheusClient, SendsTheQueryEncodedWithBearerTokenAndExtraHeaders)
{
    FakeServer server;
    server.answer(httpResponse(200, "OK", "application/json", fixture(QStringLiteral("vector_up.json"))));
    PrometheusConnection connection = connectionTo(server.url(QStringLiteral("/prometheus")));
    connection.bearerToken = QStringLiteral("s3cret");
    connection.extraHeaders.append(qMakePair(QByteArray("X-Scope-OrgID"), QByteArray("team-a")));
    PrometheusClient client(connection);

    const QString query = QStringLiteral("sum by (job) (rate(x{a=\"b c\"}[1m])) + 1 & ?");
    const auto result = await(client.instantQuery(query, 1700000000123));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->series.size(), 1u);

    ASSERT_EQ(server.requests.size(), 1);
    const FakeServer::Request &request = server.requests.front();
    EXPECT_EQ(request.method, "GET");
    EXPECT_EQ(request.path(), "/prometheus/api/v1/query");
    // '+' must arrive escaped: a form decoder reads a bare '+' as a space.
    EXPECT_TRUE(request.target.contains("%2B")) << request.target.toStdString();
    EXPECT_FALSE(request.target.contains('+')) << request.target.toStdString();
    EXPECT_EQ(request.params().queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded), query);
    EXPECT_EQ(request.params().queryItemValue(QStringLiteral("time")), QStringLiteral("1700000000.123"));
    EXPECT_EQ(request.headers.value("authorization"), "Bearer s3cret");
    EXPECT_EQ(request.headers.value("x-scope-orgid"), "team-a");
    EXPECT_EQ(request.headers.value("accept"), "application/json");
}

TEST(PrometheusClient, SendsBasicAuth)
{
    FakeServer server;
    server.answer(httpResponse(200, "OK", "application/json", fixture(QStringLiteral("vector_empty.json"))));
    PrometheusConnection connection = connectionTo(server.url(QStringLiteral("/prefix/")));
    connection.basicUser = QStringLiteral("alice");
    connection.basicPassword = QStringLiteral("pa:ss");
    PrometheusClient client(connection);
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_TRUE(result.ok()) << describe(result);
    ASSERT_EQ(server.requests.size(), 1);
    EXPECT_EQ(server.requests.front().path(), "/prefix/api/v1/query");
    EXPECT_EQ(server.requests.front().headers.value("authorization"), "Basic " + QByteArray("alice:pa:ss").toBase64());
    EXPECT_FALSE(server.requests.front().params().hasQueryItem(QStringLiteral("time"))); // server's now
}

TEST(PrometheusClient, RangeQueryParameters)
{
    FakeServer server;
    server.answer(httpResponse(200, "OK", "application/json", fixture(QStringLiteral("matrix_up.json"))));
    PrometheusClient client(connectionTo(server.url()));
    // The range of the canned answer's samples (an answer outside the range asked is dropped).
    const auto result = await(client.rangeQuery(QStringLiteral("up"), {1795978989000, 1795979019500}, 1500));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->series.front().timestampsMs.size(), 21u);
    ASSERT_EQ(server.requests.size(), 1);
    const QUrlQuery params = server.requests.front().params();
    EXPECT_EQ(server.requests.front().path(), "/api/v1/query_range");
    EXPECT_EQ(params.queryItemValue(QStringLiteral("query")), QStringLiteral("up"));
    EXPECT_EQ(params.queryItemValue(QStringLiteral("start")), QStringLiteral("1795978989"));
    EXPECT_EQ(params.queryItemValue(QStringLiteral("end")), QStringLiteral("1795979019.500"));
    EXPECT_EQ(params.queryItemValue(QStringLiteral("step")), QStringLiteral("1.500"));
}

TEST(PrometheusClient, AVeryLongQueryIsPostedAsAForm)
{
    FakeServer server;
    server.answer(httpResponse(200, "OK", "application/json", fixture(QStringLiteral("vector_empty.json"))));
    PrometheusConnection connection = connectionTo(server.url(QStringLiteral("/p/")));
    connection.extraHeaders.append(qMakePair(QByteArray("X-Scope-OrgID"), QByteArray("team-b")));
    PrometheusClient client(connection);
    QStringList alternatives;
    for (int i = 0; i < 400; ++i)
        alternatives << QStringLiteral("some_job_name_%1").arg(i);
    const QString query = QStringLiteral("up{job=~\"%1\"} + 0").arg(alternatives.join(QLatin1Char('|')));
    ASSERT_GT(query.size(), 4096);

    const auto result = await(client.instantQuery(query, 1700000000000));
    ASSERT_TRUE(result.ok()) << describe(result);
    ASSERT_EQ(server.requests.size(), 1);
    const FakeServer::Request &request = server.requests.front();
    EXPECT_EQ(request.method, "POST");
    EXPECT_EQ(request.target, "/p/api/v1/query");
    EXPECT_EQ(request.headers.value("content-type"), "application/x-www-form-urlencoded");
    EXPECT_EQ(request.headers.value("x-scope-orgid"), "team-b");
    EXPECT_EQ(request.params().queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded), query);
    EXPECT_EQ(request.params().queryItemValue(QStringLiteral("time")), QStringLiteral("1700000000"));
}

TEST(PrometheusClient, HtmlErrorPageIsAnHttpErrorNamingTheUrl)
{
    FakeServer server;
    server.answer(httpResponse(500, "Internal Server Error", "text/html",
                               "<html><head><title>Upstream exploded</title></head><body>oops</body></html>"));
    PrometheusClient client(connectionTo(server.url(QStringLiteral("/prom/"))));
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Http);
    EXPECT_EQ(result.error().httpStatus, 500);
    EXPECT_EQ(result.error().detail, QStringLiteral("Upstream exploded"));
    const QString message = result.error().message;
    EXPECT_TRUE(message.contains(server.url(QStringLiteral("/prom/api/v1/query")).toString())) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("HTTP 500"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("Upstream exploded"))) << message.toStdString();
    // The server did answer: the source is up, only this query failed.
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_TRUE(reachability.at(0).at(0).toBool());
}

TEST(PrometheusClient, PrometheusErrorJsonIsAQueryError)
{
    FakeServer server;
    server.answer(httpResponse(400, "Bad Request", "application/json", fixture(QStringLiteral("error_bad_data.json"))));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = await(client.instantQuery(QStringLiteral("up{")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Query);
    EXPECT_EQ(result.error().httpStatus, 400);
    EXPECT_TRUE(result.error().message.startsWith(QStringLiteral("Prometheus rejected the query: invalid parameter")))
        << describe(result);
    EXPECT_TRUE(result.error().message.endsWith(QStringLiteral("(bad_data)"))) << describe(result);
}

TEST(PrometheusClient, BodyCutOffBeforeItsContentLengthIsANetworkError)
{
    FakeServer server;
    const QByteArray body = fixture(QStringLiteral("matrix_up.json"));
    server.setHandler([body](QTcpSocket *socket, const FakeServer::Request &) {
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                      QByteArray::number(body.size()) + "\r\n\r\n" + body.left(body.size() / 2));
        socket->disconnectFromHost();
    });
    PrometheusClient client(connectionTo(server.url()));
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Network) << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("middle"))) << describe(result);
}

TEST(PrometheusClient, BodyCutOffWithoutContentLengthIsAParseErrorSayingSo)
{
    FakeServer server;
    const QByteArray body = fixture(QStringLiteral("matrix_up.json"));
    server.setHandler([body](QTcpSocket *socket, const FakeServer::Request &) {
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n" +
                      body.left(body.size() / 2));
        socket->disconnectFromHost();
    });
    PrometheusClient client(connectionTo(server.url()));
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Parse) << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("cut off"))) << describe(result);
    EXPECT_TRUE(result.error().message.contains(server.url().toString())) << describe(result);
}

TEST(PrometheusClient, ConnectionRefusedNamesTheUrlAndMarksTheSourceDown)
{
    const quint16 port = freeLoopbackPort();
    PrometheusClient client(connectionTo(QUrl(QStringLiteral("http://127.0.0.1:%1/prom/").arg(port))));
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Network);
    EXPECT_TRUE(result.error().isSourceDown());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("127.0.0.1:%1/prom/api/v1/query").arg(port)))
        << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("refused"))) << describe(result);
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_FALSE(reachability.at(0).at(0).toBool());
    EXPECT_EQ(reachability.at(0).at(1).toString(), result.error().message);
    EXPECT_EQ(client.isReachable(), std::optional<bool>(false));
}

TEST(PrometheusClient, ReachabilityIsSignalledOnTransitionsOnly)
{
    FakeServer server;
    server.answer(httpResponse(200, "OK", "application/json", fixture(QStringLiteral("vector_empty.json"))));
    const quint16 port = server.port();
    PrometheusClient client(connectionTo(server.url()));
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);

    ASSERT_TRUE(await(client.instantQuery(QStringLiteral("up"))).ok());
    ASSERT_TRUE(await(client.instantQuery(QStringLiteral("up"))).ok());
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_TRUE(reachability.at(0).at(0).toBool());

    server.close();
    EXPECT_EQ(await(client.instantQuery(QStringLiteral("up"))).error().kind, Kind::Network);
    EXPECT_EQ(await(client.instantQuery(QStringLiteral("up"))).error().kind, Kind::Network);
    ASSERT_EQ(reachability.size(), 2);
    EXPECT_FALSE(reachability.at(1).at(0).toBool());

    ASSERT_TRUE(server.listenAgain(port));
    ASSERT_TRUE(await(client.instantQuery(QStringLiteral("up"))).ok());
    ASSERT_EQ(reachability.size(), 3);
    EXPECT_TRUE(reachability.at(2).at(0).toBool());
}

TEST(PrometheusClient, ANeverAnsweringServerTimesOut)
{
    FakeServer server; // reads the request, never answers
    PrometheusConnection connection = connectionTo(server.url());
    connection.timeoutMs = 300;
    PrometheusClient client(connection);
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);
    QElapsedTimer clock;
    clock.start();
    const auto result = await(client.instantQuery(QStringLiteral("up")), 10000);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Timeout) << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("300 ms"))) << describe(result);
    EXPECT_GE(clock.elapsed(), 250);
    EXPECT_LT(clock.elapsed(), 5000);
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_FALSE(reachability.at(0).at(0).toBool());
}

TEST(PrometheusClient, AnOversizedContentLengthIsRefusedWithoutReadingIt)
{
    FakeServer server;
    server.setHandler([](QTcpSocket *socket, const FakeServer::Request &) {
        // Announces 10 GB, sends a little, then keeps the connection open.
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                      "10000000000\r\n\r\n"
                      "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
    });
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxBodyBytes = 1024 * 1024;
    connection.timeoutMs = 30000;
    PrometheusClient client(connection);
    QElapsedTimer clock;
    clock.start();
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::TooLarge) << describe(result);
    EXPECT_EQ(result.error().message,
              QStringLiteral("Prometheus at %1 sent an answer larger than the limit of 1 MiB (at least 9.31 GiB); "
                             "narrow the query, choose a larger step, or raise the limit.")
                  .arg(server.url(QStringLiteral("/api/v1/query")).toString()));
    EXPECT_LT(clock.elapsed(), 5000);                                    // refused on the header, not after a timeout
    EXPECT_TRUE(waitFor([&] { return server.disconnects == 1; }, 5000)); // the client hung up
}

TEST(PrometheusClient, AnOversizedStreamIsCutOffWhileArriving)
{
    FakeServer server;
    server.setHandler([](QTcpSocket *socket, const FakeServer::Request &) {
        // No length announced; far more than the cap arrives, then the server just waits.
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n");
        socket->write(QByteArray(512 * 1024, ' '));
    });
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxBodyBytes = 64 * 1024;
    connection.timeoutMs = 30000;
    PrometheusClient client(connection);
    QElapsedTimer clock;
    clock.start();
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::TooLarge) << describe(result);
    EXPECT_LT(clock.elapsed(), 5000);
    EXPECT_TRUE(waitFor([&] { return server.disconnects == 1; }, 5000));
}

TEST(PrometheusClient, CancelingTheFutureAbortsTheRequest)
{
    FakeServer server; // never answers
    PrometheusClient client(connectionTo(server.url()));
    QueryFuture future = client.instantQuery(QStringLiteral("up"));
    ASSERT_TRUE(waitFor([&] { return server.requests.size() == 1; }, 5000));
    future.cancel();
    EXPECT_TRUE(waitFor([&] { return server.disconnects == 1; }, 5000));
    EXPECT_TRUE(future.isCanceled());
    EXPECT_TRUE(waitFor([&] { return future.isFinished(); }, 5000));
}

TEST(PrometheusClient, DestroyingTheClientCancelsWhatIsPending)
{
    FakeServer server; // never answers
    auto client = std::make_unique<PrometheusClient>(connectionTo(server.url()));
    QueryFuture instant = client->instantQuery(QStringLiteral("up"));
    PrometheusConnection splitting = client->connection();
    splitting.maxPointsPerRequest = 5;
    client->setConnection(splitting);
    QueryFuture range = client->rangeQuery(QStringLiteral("up"), {0, 60000}, 1000);
    ASSERT_TRUE(waitFor([&] { return server.requests.size() >= 2; }, 5000));
    client.reset();
    EXPECT_TRUE(instant.isFinished());
    EXPECT_TRUE(instant.isCanceled());
    EXPECT_TRUE(range.isFinished());
    EXPECT_TRUE(range.isCanceled());
    EXPECT_TRUE(waitFor([&] { return server.disconnects == server.connections; }, 5000));
}

TEST(PrometheusClient, SplitRangeKeepsAtMostFourRequestsInFlight)
{
    FakeServer server;
    int outstanding = 0;
    int maxOutstanding = 0;
    const QByteArray empty = httpResponse(200, "OK", "application/json", fixture(QStringLiteral("matrix_empty.json")));
    server.setHandler([&](QTcpSocket *socket, const FakeServer::Request &) {
        maxOutstanding = std::max(maxOutstanding, ++outstanding);
        // Answer a little later, so that requests overlap.
        QTimer::singleShot(50, socket, [&, socket] {
            --outstanding;
            socket->write(empty);
            socket->disconnectFromHost();
        });
    });
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxPointsPerRequest = 10;
    PrometheusClient client(connection);
    const auto result = await(client.rangeQuery(QStringLiteral("up"), {0, 99000}, 1000));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_TRUE(result->series.empty());
    ASSERT_EQ(server.requests.size(), 10);
    EXPECT_LE(maxOutstanding, 4);
    EXPECT_GE(maxOutstanding, 2);

    QStringList starts;
    for (const FakeServer::Request &request : std::as_const(server.requests))
        starts << request.params().queryItemValue(QStringLiteral("start")) + QLatin1Char('-') +
                      request.params().queryItemValue(QStringLiteral("end"));
    starts.sort();
    EXPECT_EQ(starts.join(QLatin1Char(' ')),
              QStringLiteral("0-9 10-19 20-29 30-39 40-49 50-59 60-69 70-79 80-89 90-99"));
}

TEST(PrometheusClient, TheFirstFailingChunkFailsTheWholeRange)
{
    FakeServer server;
    const QByteArray empty = httpResponse(200, "OK", "application/json", fixture(QStringLiteral("matrix_empty.json")));
    const QByteArray error =
        httpResponse(400, "Bad Request", "application/json", fixture(QStringLiteral("error_too_many_points.json")));
    server.setHandler([&](QTcpSocket *socket, const FakeServer::Request &request) {
        const bool fail = request.params().queryItemValue(QStringLiteral("start")) == QLatin1String("20");
        socket->write(fail ? error : empty);
        socket->disconnectFromHost();
    });
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxPointsPerRequest = 10;
    PrometheusClient client(connection);
    const auto result = await(client.rangeQuery(QStringLiteral("up"), {0, 199000}, 1000));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Query);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("11,000"))) << describe(result);
    EXPECT_LT(server.requests.size(), 20); // the rest were not sent
}

TEST(PrometheusClient, InvalidInputFailsWithoutARequest)
{
    PrometheusClient noScheme(connectionTo(QUrl(QStringLiteral("localhost:9090"))));
    const auto url = await(noScheme.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(url.ok());
    EXPECT_EQ(url.error().kind, Kind::Invalid);

    PrometheusClient client(connectionTo(QUrl(QStringLiteral("http://127.0.0.1:9/"))));
    const auto step = await(client.rangeQuery(QStringLiteral("up"), {0, 1000}, 0));
    ASSERT_FALSE(step.ok());
    EXPECT_EQ(step.error().kind, Kind::Invalid);
    const auto range = await(client.rangeQuery(QStringLiteral("up"), {1000, 0}, 1000));
    ASSERT_FALSE(range.ok());
    EXPECT_EQ(range.error().kind, Kind::Invalid);
    const auto tooMany = await(client.rangeQuery(QStringLiteral("up"), {0, 365ll * 24 * 3600 * 1000}, 1));
    ASSERT_FALSE(tooMany.ok());
    EXPECT_EQ(tooMany.error().kind, Kind::Invalid);
    EXPECT_FALSE(client.isReachable().has_value());
}
