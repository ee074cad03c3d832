// SPDX-License-Identifier: GPL-3.0-or-later
// The pure parts of steering: how each backend's answers become a status or an error in words,
// and how an action's outcome is judged and summed up for the annotation. The real peers are
// covered by the integration suite (starter, Locust) and by k6adapter_test (a fake k6).
#include "loadtester/adapters/locustadapter.h"
#include "loadtester/adapters/starteradapter.h"
#include "loadtester/loadtestercontroller.h"

#include <gtest/gtest.h>

namespace {

using Kind = Error::Kind;
using ActionKind = LoadTesterAction::Kind;

HttpAnswer answer(int status, const QByteArray &contentType, const QByteArray &body,
                  const QString &path = QStringLiteral("/admin/rate"))
{
    HttpAnswer result;
    result.url = QUrl(QStringLiteral("http://127.0.0.1:9600") + path);
    result.status = status;
    result.contentType = contentType;
    result.body = body;
    return result;
}

LoadTesterCapabilities starterCapabilities()
{
    return StarterAdapter(QUrl(QStringLiteral("http://127.0.0.1:9600"))).capabilities();
}

// --- the starter ---------------------------------------------------------------------------

TEST(StarterAnswer, StatusWithInt64StringsAndUnknownFields)
{
    const auto status = StarterAdapter::parseAnswer(
        answer(200, "application/json",
               R"({"rate":500,"inflightLimit":5000,"inflight":12,"pending":3,"poolSize":100,"paused":false,)"
               R"("sent":"123456789012","succeeded":"1","failed":"0","skipped":"0",)"
               R"("startedAt":"2026-01-01T00:00:00Z","instance":"starter-a","version":"7","future":[1,2]})"),
        false);
    ASSERT_TRUE(status.ok()) << status.error().message.toStdString();
    EXPECT_EQ(status->rate, 500);
    EXPECT_EQ(status->inflightLimit, 5000);
    EXPECT_EQ(status->inflight, 12);
    EXPECT_EQ(status->pending, 3);
    EXPECT_EQ(status->poolSize, 100);
    EXPECT_FALSE(status->paused);
    EXPECT_EQ(status->state, QStringLiteral("running"));
    EXPECT_EQ(status->instance, QStringLiteral("starter-a"));
    EXPECT_EQ(status->version, 7);
}

TEST(StarterAnswer, ANonJsonSuccessIsAParseError)
{
    for (const auto &[type, body] : {std::pair<QByteArray, QByteArray>{"text/html", "<html>login</html>"},
                                     {"application/json", "not json at all"},
                                     {"application/json", R"({"rate":"fast"})"}}) {
        const auto status = StarterAdapter::parseAnswer(answer(200, type, body), false);
        ASSERT_FALSE(status.ok()) << body.toStdString();
        EXPECT_EQ(status.error().kind, Kind::Parse);
        EXPECT_EQ(status.error().httpStatus, 200);
        EXPECT_TRUE(status.error().message.startsWith(QStringLiteral("The starter at 127.0.0.1:9600 answered "
                                                                     "/admin/rate with something that is not")))
            << status.error().message.toStdString();
    }
}

TEST(StarterAnswer, AProblemIsARefusalWithItsDetail)
{
    const auto status = StarterAdapter::parseAnswer(
        answer(400, "application/problem+json",
               R"({"type":"urn:chaoscope:problem:invalid-input","title":"Invalid input","status":400,)"
               R"("detail":"rate must not exceed 100000"})"),
        false);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().kind, Kind::Query);
    EXPECT_EQ(status.error().httpStatus, 400);
    EXPECT_EQ(status.error().detail, QStringLiteral("rate must not exceed 100000"));
    EXPECT_EQ(status.error().message,
              QStringLiteral("The starter at 127.0.0.1:9600 refused: rate must not exceed 100000 (400)"));
}

TEST(StarterAnswer, UnauthorizedSaysWhetherTheTokenWasWrongOrMissing)
{
    const QByteArray body = R"({"status":401,"title":"Unauthorized","detail":"needs a token"})";
    const auto wrong = StarterAdapter::parseAnswer(answer(401, "application/problem+json", body), true);
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error().httpStatus, 401);
    EXPECT_EQ(wrong.error().message,
              QStringLiteral("The starter at 127.0.0.1:9600 refused the admin token: needs a token (401)"));
    const auto missing = StarterAdapter::parseAnswer(answer(401, "application/problem+json", body), false);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message,
              QStringLiteral("The starter at 127.0.0.1:9600 needs an admin token: needs a token (401)"));
}

TEST(StarterAnswer, AnErrorPageIsAnHttpError)
{
    const auto status =
        StarterAdapter::parseAnswer(answer(502, "text/html", "<html><h1>502 Bad Gateway</h1></html>"), false);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().kind, Kind::Http);
    EXPECT_EQ(status.error().httpStatus, 502);
    EXPECT_TRUE(status.error().message.contains(QStringLiteral("HTTP 502")));
    EXPECT_TRUE(status.error().message.contains(QStringLiteral("Bad Gateway")));
}

// --- Locust --------------------------------------------------------------------------------

TEST(LocustAnswer, Statistics)
{
    const auto status = LocustAdapter::parseStats(
        answer(200, "application/json",
               R"({"current_response_time_percentile_50":3,"errors":[],"fail_ratio":0.25,"state":"running",)"
               R"("stats":[],"total_rps":41.5,"user_count":20})",
               QStringLiteral("/stats/requests")));
    ASSERT_TRUE(status.ok()) << status.error().message.toStdString();
    EXPECT_EQ(status->rate, 20);
    EXPECT_EQ(status->state, QStringLiteral("running"));
    EXPECT_FALSE(status->paused);
    EXPECT_EQ(status->observedRate, 41.5);
    EXPECT_EQ(status->failRatio, 0.25);
    EXPECT_FALSE(status->inflightLimit.has_value());
    EXPECT_EQ(status->instance, QStringLiteral("127.0.0.1:9600"));
}

TEST(LocustAnswer, StoppedMeansPaused)
{
    const auto status = LocustAdapter::parseStats(
        answer(200, "application/json", R"({"state":"stopped","user_count":0,"total_rps":0})"));
    ASSERT_TRUE(status.ok());
    EXPECT_TRUE(status->paused);
    const auto ready =
        LocustAdapter::parseStats(answer(200, "application/json", R"({"state":"ready","user_count":0})"));
    ASSERT_TRUE(ready.ok());
    EXPECT_FALSE(ready->paused); // never started: nothing to resume
}

TEST(LocustAnswer, SomethingElseIsAParseError)
{
    const auto html = LocustAdapter::parseStats(answer(200, "text/html", "<html>Grafana</html>"));
    ASSERT_FALSE(html.ok());
    EXPECT_EQ(html.error().kind, Kind::Parse);
    const auto shape = LocustAdapter::parseStats(answer(200, "application/json", R"({"stats":[]})"));
    ASSERT_FALSE(shape.ok());
    EXPECT_EQ(shape.error().kind, Kind::Parse);
}

TEST(LocustAnswer, Commands)
{
    EXPECT_TRUE(LocustAdapter::parseCommandAnswer(
                    answer(200, "application/json", R"({"success":true,"message":"Swarming started"})"))
                    .ok());
    const auto refused = LocustAdapter::parseCommandAnswer(
        answer(200, "application/json", R"({"success":false,"message":"No runner"})", QStringLiteral("/swarm")));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().kind, Kind::Query);
    EXPECT_EQ(refused.error().message, QStringLiteral("Locust at 127.0.0.1:9600 refused: No runner"));
    const auto crashed =
        LocustAdapter::parseCommandAnswer(answer(500, "text/plain", "Internal Server Error", QStringLiteral("/swarm")));
    ASSERT_FALSE(crashed.ok());
    EXPECT_EQ(crashed.error().kind, Kind::Http);
    EXPECT_EQ(crashed.error().httpStatus, 500);
}

TEST(LocustAdapter, SpawnRateAndCapabilities)
{
    LocustAdapter adapter(QUrl(QStringLiteral("http://127.0.0.1:8089")));
    EXPECT_EQ(adapter.effectiveSpawnRate(0, 5), 1);
    EXPECT_EQ(adapter.effectiveSpawnRate(0, 200), 20);
    EXPECT_EQ(adapter.effectiveSpawnRate(300, 100), 30); // stopping users takes as long
    adapter.setSpawnRate(7.5);
    EXPECT_EQ(adapter.effectiveSpawnRate(0, 200), 7.5);

    const LoadTesterCapabilities capabilities = adapter.capabilities();
    EXPECT_EQ(capabilities.rateLabel, QStringLiteral("users"));
    EXPECT_TRUE(capabilities.rateUnit.isEmpty());
    EXPECT_FALSE(capabilities.canSetInflightLimit);
    EXPECT_EQ(capabilities.inflightLimitUnavailable,
              QStringLiteral("Locust runs a closed model: the number of users is the limit."));
}

// --- judging and summing up ------------------------------------------------------------------

LoadTesterStatus statusWith(double rate, int limit = 0, bool paused = false)
{
    LoadTesterStatus status;
    status.rate = rate;
    status.inflightLimit = limit;
    status.paused = paused;
    status.state = paused ? QStringLiteral("paused") : QStringLiteral("running");
    return status;
}

ReplicaOutcome confirmedOutcome(std::optional<LoadTesterStatus> before, LoadTesterStatus after)
{
    ReplicaOutcome outcome;
    outcome.before = std::move(before);
    outcome.after = std::move(after);
    outcome.confirmed = true;
    return outcome;
}

TEST(LoadTesterAction, Describe)
{
    EXPECT_EQ((LoadTesterAction{ActionKind::SetRate, 500}.describe()), QStringLiteral("set rate to 500"));
    EXPECT_EQ((LoadTesterAction{ActionKind::SetInflightLimit, 0}.describe()),
              QStringLiteral("remove the in-flight limit"));
    EXPECT_EQ((LoadTesterAction{ActionKind::Pause, 0}.describe()), QStringLiteral("pause the load"));
    EXPECT_EQ((LoadTesterAction{ActionKind::Resume, 0}.describe()), QStringLiteral("resume the load"));
}

TEST(ActionMismatch, RatesCompareWithinOnePartInABillion)
{
    const LoadTesterCapabilities caps = starterCapabilities();
    const LoadTesterAction rate{ActionKind::SetRate, 500};
    EXPECT_TRUE(LoadTesterController::mismatch(rate, statusWith(500 * (1 + 5e-10)), caps).isEmpty());
    EXPECT_EQ(LoadTesterController::mismatch(rate, statusWith(500.001), caps),
              QStringLiteral("rate read back as 500.001 /s, not 500 /s (state running)"));
    EXPECT_TRUE(LoadTesterController::mismatch({ActionKind::SetRate, 0}, statusWith(0), caps).isEmpty());
}

TEST(ActionMismatch, LimitAndPause)
{
    const LoadTesterCapabilities caps = starterCapabilities();
    EXPECT_TRUE(
        LoadTesterController::mismatch({ActionKind::SetInflightLimit, 5000}, statusWith(1, 5000), caps).isEmpty());
    EXPECT_EQ(LoadTesterController::mismatch({ActionKind::SetInflightLimit, 5000}, statusWith(1, 0), caps),
              QStringLiteral("in-flight limit read back as unlimited, not 5000"));
    LoadTesterStatus noLimit = statusWith(1);
    noLimit.inflightLimit.reset();
    EXPECT_FALSE(LoadTesterController::mismatch({ActionKind::SetInflightLimit, 5}, noLimit, caps).isEmpty());
    EXPECT_TRUE(LoadTesterController::mismatch({ActionKind::Pause, 0}, statusWith(1, 0, true), caps).isEmpty());
    EXPECT_EQ(LoadTesterController::mismatch({ActionKind::Pause, 0}, statusWith(1, 0, false), caps),
              QStringLiteral("still not paused (state running)"));
    EXPECT_EQ(LoadTesterController::mismatch({ActionKind::Resume, 0}, statusWith(1, 0, true), caps),
              QStringLiteral("still paused (state paused)"));
}

TEST(ActionReport, SummaryOfASuccess)
{
    ActionReport report;
    report.action = {ActionKind::SetRate, 500};
    for (int i = 0; i < 3; ++i)
        report.replicas.push_back(confirmedOutcome(statusWith(300), statusWith(500)));
    EXPECT_TRUE(report.allConfirmed());
    EXPECT_EQ(report.summary(starterCapabilities()),
              QStringLiteral("rate 300 → 500 /s each (Chaoscope starter, 3/3 replicas, 1500 /s in all)"));

    report.replicas[1].before = statusWith(250);
    report.replicas[2].before.reset();
    EXPECT_EQ(report.summary(starterCapabilities()),
              QStringLiteral("rate 250…300 → 500 /s each (Chaoscope starter, 3/3 replicas, 1500 /s in all)"));
}

TEST(ActionReport, SummaryOfALimitAndOfPause)
{
    ActionReport limit;
    limit.action = {ActionKind::SetInflightLimit, 5000};
    limit.replicas.push_back(confirmedOutcome(statusWith(300, 0), statusWith(300, 5000)));
    EXPECT_EQ(limit.summary(starterCapabilities()),
              QStringLiteral("in-flight limit unlimited → 5000 (Chaoscope starter, 1/1 replica)"));

    ActionReport pause;
    pause.action = {ActionKind::Pause, 0};
    pause.replicas.push_back(confirmedOutcome(statusWith(300), statusWith(300, 0, true)));
    pause.replicas.push_back(confirmedOutcome(statusWith(300), statusWith(300, 0, true)));
    EXPECT_EQ(pause.summary(starterCapabilities()), QStringLiteral("pause (Chaoscope starter, 2/2 replicas)"));

    // On several replicas a limit is per replica; "unlimited" has no total.
    limit.replicas.push_back(confirmedOutcome(statusWith(300, 0), statusWith(300, 5000)));
    EXPECT_EQ(limit.summary(starterCapabilities()),
              QStringLiteral("in-flight limit unlimited → 5000 each (Chaoscope starter, 2/2 replicas, 10000 in all)"));
    limit.action.value = 0;
    EXPECT_EQ(limit.summary(starterCapabilities()),
              QStringLiteral("in-flight limit unlimited → unlimited each (Chaoscope starter, 2/2 replicas)"));
}

TEST(ActionReport, SummaryUsesTheBackendsLabels)
{
    ActionReport report;
    report.action = {ActionKind::SetRate, 50};
    report.replicas.push_back(confirmedOutcome(statusWith(10), statusWith(50)));
    const LoadTesterCapabilities locust = LocustAdapter(QUrl(QStringLiteral("http://127.0.0.1:8089"))).capabilities();
    EXPECT_EQ(report.summary(locust), QStringLiteral("users 10 → 50 (Locust, 1/1 replica)"));
}

TEST(ActionReport, SummaryOfAFailureNamesEachReasonOnce)
{
    ActionReport report;
    report.action = {ActionKind::SetRate, 500};
    report.replicas.push_back(confirmedOutcome(statusWith(300), statusWith(500)));
    report.replicas.push_back(confirmedOutcome(statusWith(300), statusWith(500)));
    ReplicaOutcome down;
    down.error = Error::make(Kind::Network, QStringLiteral("The starter at http://127.0.0.1:9603/admin/rate refused "
                                                           "the connection"));
    report.replicas.push_back(down);
    EXPECT_EQ(report.confirmedCount(), 2);
    EXPECT_EQ(report.summary(starterCapabilities()),
              QStringLiteral("rate → 500 /s failed on 1 of 3 replicas: The starter at "
                             "http://127.0.0.1:9603/admin/rate refused the connection"));

    report.replicas[0].confirmed = false;
    report.replicas[0].mismatch = QStringLiteral("rate read back as 450 /s, not 500 /s");
    report.replicas.push_back(down);
    EXPECT_EQ(report.summary(starterCapabilities()),
              QStringLiteral("rate → 500 /s failed on 3 of 4 replicas: rate read back as 450 /s, not 500 /s; "
                             "The starter at http://127.0.0.1:9603/admin/rate refused the connection"));
}

} // namespace
