// SPDX-License-Identifier: GPL-3.0-or-later
// The one HTTP exchange of net/, which the Prometheus client, the admin clients, label-value
// loading and replica discovery all go through, against each fault the fault server serves:
// each ends in the one wording of net/transporterror, with the kind a caller acts on. (TLS is
// in tls_test.cpp, which has the certificates.)
#include "faultserver.h"
#include "net/httpexchange.h"
#include "net/retrypolicy.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <gtest/gtest.h>
#include <memory>

namespace {

using Kind = Error::Kind;
using Reply = FaultServer::Reply;
const QByteArray kPath = "/admin/status";

class HttpExchangeTest : public ::testing::Test
{
protected:
    HttpCall callTo(const QUrl &base)
    {
        HttpCall call;
        call.url = Http::join(base, QString::fromLatin1(kPath));
        return call;
    }

    HttpTarget target(int timeoutMs = 2000)
    {
        HttpTarget target;
        target.who = QStringLiteral("the starter");
        target.timeoutMs = timeoutMs;
        target.deadlineMs = 20'000;
        target.maxBodyBytes = 1024 * 1024;
        return target;
    }

    QFuture<Result<HttpAnswer>> start(const HttpCall &call, const HttpTarget &target)
    {
        return Http::exchange(&network, call, target, owner.get());
    }

    Result<HttpAnswer> exchange(const HttpCall &call, const HttpTarget &target)
    {
        const auto result = awaitResult(start(call, target), 30000);
        if (!result)
            return Error::make(Kind::Invalid, QStringLiteral("the test gave up waiting"));
        return *result;
    }

    // "http://127.0.0.1:<port>/admin/status", as the messages write it.
    QString where() const { return server.url().toString() + QStringLiteral("admin/status"); }

    FaultServer server;
    QNetworkAccessManager network;
    std::unique_ptr<QObject> owner = std::make_unique<QObject>(); // after network: goes first
};

std::string describe(const Result<HttpAnswer> &result)
{
    return result.ok() ? "HTTP " + std::to_string(result->status) : result.error().message.toStdString();
}

} // namespace

TEST_F(HttpExchangeTest, AnyHttpAnswerIsHandedOverWithItsHeaders)
{
    Reply reply = FaultServer::problemJson(404, "Not Found", "no such thing");
    reply.contentType = "Application/Problem+JSON; charset=utf-8";
    server.script(kPath, reply);
    HttpCall call = callTo(server.url());
    call.authorization = Http::bearer(QStringLiteral("t0ken"));
    call.headers.append(qMakePair(QByteArray("X-Scope-OrgID"), QByteArray("team-a")));
    const auto result = exchange(call, target());
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->status, 404);
    EXPECT_EQ(result->reason, QStringLiteral("Not Found"));
    EXPECT_EQ(result->contentType, "application/problem+json");
    EXPECT_TRUE(result->body.contains("no such thing"));
    EXPECT_FALSE(result->retryAfterMs);
    ASSERT_EQ(server.requests.size(), 1);
    const FaultServer::Request &request = server.requests.front();
    EXPECT_EQ(request.headers.value("authorization"), "Bearer t0ken");
    EXPECT_EQ(request.headers.value("x-scope-orgid"), "team-a");
    EXPECT_EQ(request.headers.value("accept"), "application/json");
    EXPECT_TRUE(request.headers.value("user-agent").startsWith("Chaoscope/"));
}

TEST_F(HttpExchangeTest, RefusedSaysWhoAndWhere)
{
    server.stop();
    const auto result = exchange(callTo(server.url()), target());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Network);
    EXPECT_TRUE(result.error().isSourceDown());
    EXPECT_EQ(result.error().message,
              QStringLiteral("The starter at %1 refused the connection; is it running, and are host and port right?")
                  .arg(where()));
}

TEST_F(HttpExchangeTest, AnUnknownHostSaysWhichHost)
{
    // .invalid never resolves (RFC 6761); here the resolver says so at once.
    const auto result = exchange(callTo(QUrl(QStringLiteral("http://chaoscope-test.invalid:9600/"))), target());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Network);
    EXPECT_EQ(result.error().message,
              QStringLiteral("The starter at http://chaoscope-test.invalid:9600/admin/status cannot be reached: the "
                             "host chaoscope-test.invalid was not found; check the URL."));
}

TEST_F(HttpExchangeTest, ASilentServerTimesOut)
{
    server.script(kPath, FaultServer::neverAnswer());
    QElapsedTimer clock;
    clock.start();
    const auto result = exchange(callTo(server.url()), target(300));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Timeout);
    EXPECT_TRUE(result.error().isSourceDown());
    EXPECT_EQ(result.error().message, QStringLiteral("The starter at %1 did not answer within 300 ms.").arg(where()));
    EXPECT_GE(clock.elapsed(), 250);
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 5000)); // and hung up
}

TEST_F(HttpExchangeTest, AnAnswerThatStopsHalfWayTimesOut)
{
    server.script(kPath, FaultServer::trickle(QByteArray(100, ' '), 5000));
    const auto result = exchange(callTo(server.url()), target(300));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Timeout);
    EXPECT_EQ(result.error().httpStatus, 200);
    EXPECT_EQ(result.error().message,
              QStringLiteral("The starter at %1 stopped sending its answer for 300 ms.").arg(where()));
}

TEST_F(HttpExchangeTest, ATrickleBeyondTheDeadlineIsCut)
{
    // One byte every 50 ms never leaves the connection silent for long: only the deadline
    // for the whole answer ends it.
    server.script(kPath, FaultServer::trickle(QByteArray(2000, ' '), 50));
    HttpTarget slow = target(1000);
    slow.deadlineMs = 700;
    QElapsedTimer clock;
    clock.start();
    const auto result = exchange(callTo(server.url()), slow);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Timeout);
    EXPECT_EQ(result.error().httpStatus, 200);
    EXPECT_EQ(result.error().message,
              QStringLiteral("The starter at %1 did not finish its answer within 700 ms; it arrives too slowly.")
                  .arg(where()));
    EXPECT_LT(clock.elapsed(), 5000);
}

TEST_F(HttpExchangeTest, AConnectionClosedOrResetAfterTheHeadersIsNotABody)
{
    for (const Reply &reply : {FaultServer::cutOff(QByteArray(4000, 'x')), FaultServer::reset(QByteArray(4000, 'x'))}) {
        server.script(kPath, reply);
        const auto result = exchange(callTo(server.url()), target());
        ASSERT_FALSE(result.ok()) << describe(result);
        EXPECT_EQ(result.error().kind, Kind::Network);
        EXPECT_EQ(result.error().httpStatus, 200);
        EXPECT_EQ(result.error().message,
                  QStringLiteral("The starter at %1 closed the connection in the middle of its answer.").arg(where()));
    }
}

TEST_F(HttpExchangeTest, AnAnnouncedLengthAboveTheCapIsRefusedUnread)
{
    server.script(kPath, FaultServer::huge(200ll * 1024 * 1024));
    const auto result = exchange(callTo(server.url()), target());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::TooLarge);
    EXPECT_FALSE(result.error().isSourceDown());
    EXPECT_EQ(result.error().message, QStringLiteral("The starter at %1 sent an answer larger than the limit of 1 MiB "
                                                     "(at least 200 MiB); is this the right URL?")
                                          .arg(where()));
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 10000));
    EXPECT_LT(server.bytesStreamed(), 32ll * 1024 * 1024); // most of it was never sent
}

TEST_F(HttpExchangeTest, AStreamAboveTheCapIsCutWhileArriving)
{
    server.script(kPath, FaultServer::huge(200ll * 1024 * 1024, /*announceLength=*/false));
    const auto result = exchange(callTo(server.url()), target());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::TooLarge);
    const QRegularExpression wording(QRegularExpression::anchoredPattern(
        QRegularExpression::escape(QStringLiteral("The starter at %1 sent an answer "
                                                  "larger than the limit of 1 MiB "
                                                  "(at least ")
                                       .arg(where())) +
        QStringLiteral("[0-9.]+ (KiB|MiB)") + QRegularExpression::escape(QStringLiteral("); is this the right URL?"))));
    EXPECT_TRUE(wording.match(result.error().message).hasMatch()) << describe(result);
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 10000));
    EXPECT_LT(server.bytesStreamed(), 64ll * 1024 * 1024);
}

TEST_F(HttpExchangeTest, A503WithRetryAfterIsAnAnswerThatAsksForAPause)
{
    Reply busy = FaultServer::htmlError(503);
    busy.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("2")));
    server.script(kPath, busy);
    const auto result = exchange(callTo(server.url()), target());
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->status, 503);
    EXPECT_EQ(result->retryAfterMs, std::optional<int>(2000));
    // What a retry judges it by: worth another try, after the pause the server asked for.
    const std::optional<Error> reason = Http::retryReason(result);
    ASSERT_TRUE(reason);
    EXPECT_EQ(reason->kind, Kind::Http);
    EXPECT_EQ(reason->httpStatus, 503);
    EXPECT_EQ(RetryPolicy().delayBeforeRetry(1, *reason), std::optional<int>(2000));
    EXPECT_FALSE(Http::retryReason(Result<HttpAnswer>(HttpAnswer{{}, 200, {}, {}, {}, {}})));
}

TEST_F(HttpExchangeTest, ARedirectLoopSaysSo)
{
    server.script(kPath, FaultServer::redirect(kPath));
    const auto result = exchange(callTo(server.url()), target());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Http);
    EXPECT_FALSE(result.error().isSourceDown());
    EXPECT_TRUE(
        result.error().message.startsWith(QStringLiteral("The starter at %1 redirects in a loop (").arg(where())))
        << describe(result);
    EXPECT_TRUE(result.error().message.endsWith(QStringLiteral("); enter the final URL instead."))) << describe(result);
}

TEST_F(HttpExchangeTest, AnInvalidUrlIsNotSent)
{
    const auto result = exchange(callTo(QUrl(QStringLiteral("localhost:9600"))), target());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Invalid);
    EXPECT_EQ(result.error().message, QStringLiteral("The URL of the starter, \"localhost:9600/admin/status\", is not "
                                                     "an http:// or https:// URL with a host."));
}

TEST_F(HttpExchangeTest, CancellingTheFutureHangsUp)
{
    server.script(kPath, FaultServer::neverAnswer());
    QFuture<Result<HttpAnswer>> future = start(callTo(server.url()), target(30'000));
    ASSERT_TRUE(waitFor([&] { return server.requests.size() == 1; }, 5000));
    future.cancel();
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 5000));
    EXPECT_TRUE(waitFor([&] { return future.isFinished(); }, 5000));
    EXPECT_TRUE(future.isCanceled());
    EXPECT_EQ(future.resultCount(), 0); // a cancelled exchange answers nothing, not an error
}

TEST_F(HttpExchangeTest, DestroyingTheOwnerHangsUpAndCancels)
{
    server.script(kPath, FaultServer::neverAnswer());
    QFuture<Result<HttpAnswer>> future = start(callTo(server.url()), target(30'000));
    ASSERT_TRUE(waitFor([&] { return server.requests.size() == 1; }, 5000));
    owner.reset();
    EXPECT_TRUE(future.isFinished());
    EXPECT_TRUE(future.isCanceled());
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 5000));
}

TEST(HttpJoin, KeepsThePrefixAndTheQueryOfTheBase)
{
    const auto join = [](const char *base, const char *path) {
        return Http::join(QUrl(QString::fromLatin1(base)), QString::fromLatin1(path)).toString();
    };
    EXPECT_EQ(join("http://host:8089", "swarm"), QStringLiteral("http://host:8089/swarm"));
    EXPECT_EQ(join("http://host/locust/", "/swarm"), QStringLiteral("http://host/locust/swarm"));
    EXPECT_EQ(join("http://host/locust", "stats/requests"), QStringLiteral("http://host/locust/stats/requests"));
    EXPECT_EQ(join("http://host/p/?tenant=a#x", "api/v1/query"), QStringLiteral("http://host/p/api/v1/query?tenant=a"));
}
