// SPDX-License-Identifier: GPL-3.0-or-later
// The k6 adapter against a fake k6 REST API (k6 is not packaged here). The fake implements
// what k6 ≤ 1.x documents and does: GET/PATCH /v1/status as a JSON:API document, VU changes
// only with the externally-controlled executor, and refusals as {"errors":[…]}.
#include "freeport.h"
#include "httprequest.h"
#include "loadtester/adapters/adapterfactory.h"
#include "loadtester/adapters/k6adapter.h"
#include "loadtester/loadtestercontroller.h"
#include "waitfor.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <gtest/gtest.h>
#include <memory>
#include <optional>

namespace {

using Kind = Error::Kind;

class FakeK6 : public QObject
{
public:
    enum class Mode
    {
        Normal,
        NotJson,
        Hang
    };

    struct Request
    {
        QByteArray method;
        QByteArray path;
        QByteArray contentType;
        QByteArray body;
    };

    FakeK6()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            qFatal("FakeK6 cannot listen");
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

    // The engine's state, as k6 would report it.
    int vus = 5;
    int vusMax = 10;
    bool paused = false;
    bool running = true;
    bool stopped = false;
    bool externallyControlled = true;
    // Like the real executor, which scales after answering: the PATCH answers the old count
    // and this many GETs follow before the new count shows.
    int vusLagReads = 0;
    Mode mode = Mode::Normal;
    QList<Request> requests;

private:
    void serve(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        while (const std::optional<HttpRequest> http = takeHttpRequest(buffer)) {
            Request request;
            request.method = http->method;
            request.path = http->target;
            request.contentType = http->headers.value("content-type");
            request.body = http->body;
            requests.append(request);
            if (mode == Mode::Hang)
                continue;
            socket->write(answer(request));
        }
    }

    static QByteArray response(int status, const QByteArray &contentType, const QByteArray &body)
    {
        return "HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: " + contentType +
               "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

    static QByteArray error(int status, const QString &title, const QString &detail)
    {
        const QJsonObject item{{QStringLiteral("status"), QString::number(status)},
                               {QStringLiteral("title"), title},
                               {QStringLiteral("detail"), detail}};
        const QJsonObject document{{QStringLiteral("errors"), QJsonArray{item}}};
        return response(status, "application/json", QJsonDocument(document).toJson(QJsonDocument::Compact));
    }

    QByteArray statusDocument(int reportedVus) const
    {
        const QJsonObject attributes{{QStringLiteral("status"), 7},        {QStringLiteral("paused"), paused},
                                     {QStringLiteral("vus"), reportedVus}, {QStringLiteral("vus-max"), vusMax},
                                     {QStringLiteral("stopped"), stopped}, {QStringLiteral("running"), running},
                                     {QStringLiteral("tainted"), false}};
        const QJsonObject data{{QStringLiteral("type"), QStringLiteral("status")},
                               {QStringLiteral("id"), QStringLiteral("default")},
                               {QStringLiteral("attributes"), attributes}};
        return response(200, "application/json",
                        QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}).toJson(QJsonDocument::Compact));
    }

    QByteArray answer(const Request &request)
    {
        if (mode == Mode::NotJson)
            return response(200, "text/html", "<html><body>Grafana</body></html>");
        if (request.path != "/v1/status")
            return response(404, "text/plain; charset=utf-8", "404 page not found\n");
        if (request.method == "GET") {
            if (m_staleVus && m_lagLeft-- > 0)
                return statusDocument(*m_staleVus);
            m_staleVus.reset();
            return statusDocument(vus);
        }
        if (request.method != "PATCH")
            return response(405, "text/plain", "Method Not Allowed");

        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return error(400, QStringLiteral("Invalid data"), parseError.errorString());
        const QJsonObject attributes =
            document.object().value(QStringLiteral("data")).toObject().value(QStringLiteral("attributes")).toObject();
        if (attributes.contains(QStringLiteral("paused")))
            paused = attributes.value(QStringLiteral("paused")).toBool();
        if (attributes.contains(QStringLiteral("vus"))) {
            if (!externallyControlled)
                return error(500, QStringLiteral("Execution config error"),
                             QStringLiteral("a externally-controlled executor needs to be configured for live "
                                            "configuration updates"));
            const int wanted = attributes.value(QStringLiteral("vus")).toInt();
            if (wanted > vusMax)
                return error(400, QStringLiteral("Config update error"),
                             QStringLiteral("can't raise vu count (to %1) above vu cap (%2)").arg(wanted).arg(vusMax));
            if (vusLagReads > 0) {
                m_staleVus = vus;
                m_lagLeft = vusLagReads;
            }
            vus = wanted;
            if (m_staleVus)
                return statusDocument(*m_staleVus);
        }
        return statusDocument(vus);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    std::optional<int> m_staleVus;
    int m_lagLeft = 0;
};

std::optional<Result<LoadTesterStatus>> await(const LoadTesterAdapter::Reply &reply, int timeoutMs = 10000)
{
    return awaitResult(reply, timeoutMs);
}

class K6AdapterTest : public ::testing::Test
{
protected:
    FakeK6 k6;
    K6Adapter adapter{k6.url()};
};

TEST_F(K6AdapterTest, ReadsStatus)
{
    const auto status = await(adapter.status());
    ASSERT_TRUE(status && status->ok()) << (status ? status->error().message.toStdString() : "no answer");
    EXPECT_EQ(status->value().rate, 5);
    EXPECT_EQ(status->value().maxRate, 10);
    EXPECT_FALSE(status->value().paused);
    EXPECT_EQ(status->value().state, QStringLiteral("running"));
    EXPECT_FALSE(status->value().inflightLimit.has_value());
    EXPECT_EQ(status->value().instance, k6.url().authority());
    ASSERT_EQ(k6.requests.size(), 1);
    EXPECT_EQ(k6.requests[0].method, "GET");
    EXPECT_EQ(k6.requests[0].path, "/v1/status");
}

TEST_F(K6AdapterTest, SetsVusWithAJsonApiPatch)
{
    const auto status = await(adapter.setRate(8));
    ASSERT_TRUE(status && status->ok()) << (status ? status->error().message.toStdString() : "no answer");
    EXPECT_EQ(status->value().rate, 8);
    EXPECT_EQ(k6.vus, 8);
    ASSERT_EQ(k6.requests.size(), 1);
    EXPECT_EQ(k6.requests[0].method, "PATCH");
    EXPECT_EQ(k6.requests[0].contentType, "application/json");
    EXPECT_EQ(QJsonDocument::fromJson(k6.requests[0].body),
              QJsonDocument::fromJson(R"({"data":{"type":"status","id":"default","attributes":{"vus":8}}})"));
}

TEST_F(K6AdapterTest, ReadsBackUntilTheExecutorHasScaled)
{
    k6.vusLagReads = 3;
    const auto status = await(adapter.setRate(9));
    ASSERT_TRUE(status && status->ok()) << (status ? status->error().message.toStdString() : "no answer");
    EXPECT_EQ(status->value().rate, 9);
    // The PATCH, then GETs until the count showed.
    EXPECT_EQ(k6.requests.size(), 1 + 4);
}

TEST_F(K6AdapterTest, GivesUpWaitingAndAnswersTheStateAsItIs)
{
    k6.vusLagReads = 1000;
    adapter.setSettleTimeoutMs(600);
    const auto status = await(adapter.setRate(9));
    ASSERT_TRUE(status && status->ok());
    EXPECT_EQ(status->value().rate, 5); // honest: still the old count
    const LoadTesterAction action{LoadTesterAction::Kind::SetRate, 9};
    EXPECT_EQ(LoadTesterController::mismatch(action, status->value(), adapter.capabilities()),
              QStringLiteral("VUs read back as 5, not 9 (state running)"));
}

TEST_F(K6AdapterTest, VusAboveTheCapAreRefusedInK6sWords)
{
    const auto status = await(adapter.setRate(20));
    ASSERT_TRUE(status && !status->ok());
    const Error &error = status->error();
    EXPECT_EQ(error.kind, Kind::Query);
    EXPECT_EQ(error.httpStatus, 400);
    EXPECT_EQ(error.detail, QStringLiteral("Config update error: can't raise vu count (to 20) above vu cap (10)"));
    EXPECT_EQ(error.message, QStringLiteral("k6 at %1 refused: Config update error: can't raise vu count (to 20) "
                                            "above vu cap (10) (400)")
                                 .arg(k6.url().authority()));
    EXPECT_EQ(k6.vus, 5);
}

TEST_F(K6AdapterTest, OtherExecutorsCannotBeSteered)
{
    k6.externallyControlled = false;
    const auto status = await(adapter.setRate(3));
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().httpStatus, 500);
    EXPECT_TRUE(status->error().message.contains(QStringLiteral("externally-controlled executor")))
        << status->error().message.toStdString();
}

TEST_F(K6AdapterTest, PausesAndResumes)
{
    auto status = await(adapter.pause());
    ASSERT_TRUE(status && status->ok());
    EXPECT_TRUE(status->value().paused);
    EXPECT_EQ(status->value().state, QStringLiteral("paused"));
    EXPECT_TRUE(k6.paused);
    EXPECT_EQ(QJsonDocument::fromJson(k6.requests.last().body),
              QJsonDocument::fromJson(R"({"data":{"type":"status","id":"default","attributes":{"paused":true}}})"));

    status = await(adapter.resume());
    ASSERT_TRUE(status && status->ok());
    EXPECT_FALSE(status->value().paused);
    EXPECT_FALSE(k6.paused);
}

TEST_F(K6AdapterTest, InflightLimitIsNotAvailable)
{
    const LoadTesterCapabilities capabilities = adapter.capabilities();
    EXPECT_EQ(capabilities.kind, QStringLiteral("k6"));
    EXPECT_EQ(capabilities.rateLabel, QStringLiteral("VUs"));
    EXPECT_TRUE(capabilities.canSetRate);
    EXPECT_TRUE(capabilities.canPause);
    EXPECT_FALSE(capabilities.canSetInflightLimit);
    EXPECT_FALSE(capabilities.inflightLimitUnavailable.isEmpty());

    const auto status = await(adapter.setInflightLimit(100));
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Invalid);
    EXPECT_EQ(status->error().message, capabilities.inflightLimitUnavailable);
    EXPECT_TRUE(k6.requests.isEmpty());
}

TEST_F(K6AdapterTest, FractionalVusAreRefusedWithoutAsking)
{
    const auto status = await(adapter.setRate(2.5));
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Invalid);
    EXPECT_TRUE(k6.requests.isEmpty());
}

TEST_F(K6AdapterTest, AnAnswerThatIsNotJsonIsAnError)
{
    k6.mode = FakeK6::Mode::NotJson;
    const auto status = await(adapter.status());
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Parse);
    EXPECT_TRUE(status->error().message.contains(QStringLiteral("Grafana"))) << status->error().message.toStdString();
}

TEST_F(K6AdapterTest, AWrongPathSaysSo)
{
    K6Adapter wrong(QUrl(k6.url().toString() + QStringLiteral("/api")));
    const auto status = await(wrong.status());
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Http);
    EXPECT_EQ(status->error().httpStatus, 404);
    EXPECT_TRUE(status->error().message.contains(QStringLiteral("--address"))) << status->error().message.toStdString();
    EXPECT_EQ(k6.requests.value(0).path, "/api/v1/status");
}

TEST_F(K6AdapterTest, ASilentServerTimesOut)
{
    k6.mode = FakeK6::Mode::Hang;
    adapter.setTimeoutMs(300);
    const auto status = await(adapter.status());
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Timeout);
    EXPECT_TRUE(status->error().isSourceDown());
    EXPECT_TRUE(status->error().message.contains(k6.url().toString() + QStringLiteral("/v1/status")))
        << status->error().message.toStdString();
}

TEST(K6Adapter, ARefusedConnectionNamesTheUrl)
{
    const QUrl url(QStringLiteral("http://127.0.0.1:%1").arg(freeLoopbackPort()));
    K6Adapter adapter(url);
    const auto status = await(adapter.status());
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Network);
    EXPECT_EQ(status->error().message,
              QStringLiteral("k6 at %1/v1/status refused the connection; is it running, and are host and port right?")
                  .arg(url.toString()));
}

TEST(K6Adapter, DestroyingTheAdapterCancelsWhatIsInFlight)
{
    FakeK6 k6;
    k6.mode = FakeK6::Mode::Hang;
    auto adapter = std::make_unique<K6Adapter>(k6.url());
    const LoadTesterAdapter::Reply reply = adapter->setRate(3);
    ASSERT_TRUE(waitFor([&] { return !k6.requests.isEmpty(); }, 5000));
    adapter.reset();
    ASSERT_TRUE(waitFor([&] { return reply.isFinished(); }, 5000));
    EXPECT_TRUE(reply.isCanceled());
}

TEST(K6Adapter, TheFactoryKnowsIt)
{
    auto adapter = makeLoadTesterAdapter(QStringLiteral("k6"), QUrl(QStringLiteral("http://127.0.0.1:6565")));
    ASSERT_TRUE(adapter);
    EXPECT_EQ(adapter->capabilities().kind, QStringLiteral("k6"));
    EXPECT_FALSE(makeLoadTesterAdapter(QStringLiteral("gatling"), QUrl(QStringLiteral("http://127.0.0.1:1"))));
}

} // namespace
