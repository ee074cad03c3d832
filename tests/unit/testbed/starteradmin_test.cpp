// SPDX-License-Identifier: GPL-3.0-or-later
// The reference starter's logic without processes or sockets: input rules, set-points,
// the admin API's answers, the tick accounting and the metrics text.
#include "adminapi.h"
#include "adminrequestparser.h"
#include "bearertoken.h"
#include "latencyhistogram.h"
#include "loadcontrol.h"
#include "loadcounters.h"
#include "loadscheduler.h"
#include "loadtester.pb.h"
#include "prometheustextwriter.h"
#include "startermetrics.h"
#include "starteroptions.h"
#include "tickbudget.h"
#include "waitfor.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <condition_variable>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>
#include <mutex>
#include <stdexcept>

using chaoscope::admin::v1::LoadStatus;
using namespace std::chrono_literals;

namespace {

const QByteArray json = "application/json";

QJsonObject bodyOf(const AdminResponse &response)
{
    return QJsonDocument::fromJson(response.body).object();
}

// Parses a status answer the way a client would: by the proto3 JSON mapping.
LoadStatus statusOf(const AdminResponse &response)
{
    LoadStatus status;
    const auto parsed = google::protobuf::util::JsonStringToMessage(response.body.toStdString(), &status);
    EXPECT_TRUE(parsed.ok()) << response.body.constData();
    return status;
}

} // namespace

TEST(StarterAdminParser, AcceptsAValidRate)
{
    const auto rate = AdminRequestParser::parseRate(json, R"({"rate": 500})", 1000);
    ASSERT_TRUE(rate.ok());
    EXPECT_DOUBLE_EQ(*rate.value, 500);
    EXPECT_DOUBLE_EQ(*AdminRequestParser::parseRate("application/json; charset=utf-8", R"({"rate": 0.5})", 1000).value,
                     0.5);
    EXPECT_DOUBLE_EQ(*AdminRequestParser::parseRate(json, R"({"rate": 0})", 1000).value, 0);
}

TEST(StarterAdminParser, RejectsBadRates)
{
    const QList<QByteArray> bad = {
        R"({"rate": -1})",
        R"({"rate": "NaN"})",
        R"({"rate": "Infinity"})",
        R"({"rate": "-Infinity"})",
        R"({"rate": "fast"})",
        R"({"rate": 1e308})",
        R"({"rate": 1001})",
        R"({"rate": 5, "burst": 1})",
        R"({})",
        R"({"rate": null})",
        R"([500])",
        R"(500)",
        R"({"rate": true})",
        R"({"rate": 5)",
        "",
        R"({"limit": 5})",
    };
    for (const QByteArray &body : bad) {
        const auto rate = AdminRequestParser::parseRate(json, body, 1000);
        EXPECT_FALSE(rate.ok()) << body.constData();
        EXPECT_EQ(rate.problem.status(), 400) << body.constData();
        EXPECT_FALSE(rate.problem.detail().empty()) << body.constData();
        EXPECT_FALSE(rate.problem.type().empty());
        EXPECT_FALSE(rate.problem.title().empty());
    }
}

TEST(StarterAdminParser, RejectsWrongContentTypeAndLargeBodies)
{
    EXPECT_FALSE(AdminRequestParser::parseRate("text/plain", R"({"rate": 5})", 1000).ok());
    EXPECT_FALSE(AdminRequestParser::parseRate("", R"({"rate": 5})", 1000).ok());
    EXPECT_FALSE(AdminRequestParser::parseRate("application/x-protobuf", R"({"rate": 5})", 1000).ok());
    QByteArray large = R"({"rate": 5, "pad": ")" + QByteArray(5000, 'x') + R"("})";
    const auto rate = AdminRequestParser::parseRate(json, large, 1000);
    ASSERT_FALSE(rate.ok());
    EXPECT_EQ(rate.problem.type(), "urn:chaoscope:problem:body-too-large");
}

TEST(StarterAdminParser, InflightLimits)
{
    EXPECT_EQ(*AdminRequestParser::parseInflightLimit(json, R"({"limit": 5000})").value, 5000);
    EXPECT_EQ(*AdminRequestParser::parseInflightLimit(json, R"({"limit": 0})").value, 0);
    for (const QByteArray &body :
         {QByteArray(R"({"limit": -1})"), QByteArray(R"({"limit": 1.5})"), QByteArray(R"({"limit": 1e20})"),
          QByteArray(R"({"limit": "NaN"})"), QByteArray(R"({"limit": "many"})"), QByteArray(R"({"rate": 1})"),
          QByteArray(R"({})")}) {
        const auto limit = AdminRequestParser::parseInflightLimit(json, body);
        EXPECT_FALSE(limit.ok()) << body.constData();
        EXPECT_EQ(limit.problem.status(), 400);
    }
}

TEST(StarterAdminParser, IfMatch)
{
    EXPECT_TRUE(AdminRequestParser::parseIfMatch("").value->versions.isEmpty());
    EXPECT_TRUE(AdminRequestParser::parseIfMatch("*").value->versions.isEmpty());
    EXPECT_EQ(AdminRequestParser::parseIfMatch("7").value->versions, QList<qint64>{7});
    EXPECT_EQ(AdminRequestParser::parseIfMatch("\"7\"").value->versions, QList<qint64>{7});
    EXPECT_EQ(AdminRequestParser::parseIfMatch("W/\"7\", \"8\"").value->versions, (QList<qint64>{7, 8}));
    EXPECT_FALSE(AdminRequestParser::parseIfMatch("seven").ok());
    EXPECT_FALSE(AdminRequestParser::parseIfMatch("-1").ok());
}

TEST(StarterBearerToken, ComparesWholeTokens)
{
    EXPECT_TRUE(BearerToken::constantTimeEquals("secret", "secret"));
    EXPECT_FALSE(BearerToken::constantTimeEquals("secret", "secreT"));
    EXPECT_FALSE(BearerToken::constantTimeEquals("secret", "secret2"));
    EXPECT_FALSE(BearerToken::constantTimeEquals("secret", ""));
    const BearerToken token("s3cr3t");
    EXPECT_TRUE(token.accepts("Bearer s3cr3t"));
    EXPECT_TRUE(token.accepts("bearer s3cr3t"));
    EXPECT_FALSE(token.accepts("Bearer s3cr3"));
    EXPECT_FALSE(token.accepts("Basic s3cr3t"));
    EXPECT_FALSE(token.accepts(""));
    EXPECT_TRUE(BearerToken().accepts(""));
}

// Every way a presented token can be wrong is refused, and the comparison has no early exit a
// timing attack could measure: the same work for any content of a given length.
TEST(StarterBearerToken, RefusesEveryNearMiss)
{
    const BearerToken token("0123456789abcdef");
    EXPECT_TRUE(token.accepts("Bearer 0123456789abcdef"));
    EXPECT_TRUE(token.accepts("  Bearer 0123456789abcdef  "));
    EXPECT_FALSE(token.accepts("Bearer 0123456789abcdeF")) << "wrong last byte, same length";
    EXPECT_FALSE(token.accepts("Bearer X123456789abcdef")) << "wrong first byte, same length";
    EXPECT_FALSE(token.accepts("Bearer 0123456789abcde")) << "a prefix";
    EXPECT_FALSE(token.accepts("Bearer 0123456789abcdef0")) << "longer";
    EXPECT_FALSE(token.accepts(QByteArray("Bearer 0123456789abcdef\0", 24))) << "a NUL after it";
    EXPECT_FALSE(token.accepts("Bearer ")) << "empty token";
    EXPECT_FALSE(token.accepts("Bearer")) << "scheme only";
    EXPECT_FALSE(token.accepts("0123456789abcdef")) << "no scheme";
    EXPECT_FALSE(token.accepts("Basic 0123456789abcdef")) << "wrong scheme";
    EXPECT_FALSE(token.accepts("Token 0123456789abcdef")) << "wrong scheme";
    EXPECT_FALSE(token.accepts("Bearer0123456789abcdef")) << "no space after the scheme";
    EXPECT_FALSE(BearerToken::constantTimeEquals("", "x"));
    EXPECT_TRUE(BearerToken::constantTimeEquals("", ""));
    // A length mismatch is not decided by the content: a longer value with the token as its
    // prefix, and a shorter one, are both refused.
    EXPECT_FALSE(BearerToken::constantTimeEquals("abc", QByteArray("abc\0", 4)));
    EXPECT_FALSE(BearerToken::constantTimeEquals(QByteArray("abc\0", 4), "abc"));
}

TEST(StarterBearerToken, LoadsFromFile)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("token"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("  abc123\n");
    file.close();
    BearerToken token;
    QString error;
    ASSERT_TRUE(BearerToken::load(path, &token, &error)) << qPrintable(error);
    EXPECT_TRUE(token.accepts("Bearer abc123"));
    EXPECT_FALSE(BearerToken::load(dir.filePath(QStringLiteral("missing")), &token, &error));
    EXPECT_FALSE(error.isEmpty());
}

TEST(StarterLoadControl, VersionsAndPreconditions)
{
    LoadControl control(LoadSettings{300, 0, false, 0});
    int wakeups = 0;
    control.setChangeListener([&] { ++wakeups; });

    auto change = control.setRate(500);
    EXPECT_EQ(change.outcome, LoadControl::Outcome::Applied);
    EXPECT_EQ(change.settings.version, 1);
    EXPECT_EQ(control.setRate(500).outcome, LoadControl::Outcome::Unchanged);
    EXPECT_EQ(control.settings().version, 1);

    change = control.setInflightLimit(10, VersionMatch{{0}});
    EXPECT_EQ(change.outcome, LoadControl::Outcome::VersionMismatch);
    EXPECT_EQ(control.settings().inflightLimit, 0);

    change = control.setInflightLimit(10, VersionMatch{{1}});
    EXPECT_EQ(change.outcome, LoadControl::Outcome::Applied);
    EXPECT_EQ(change.settings.version, 2);
    EXPECT_EQ(control.setPaused(true).settings.version, 3);
    EXPECT_TRUE(control.settings().paused);
    EXPECT_EQ(wakeups, 3);
}

TEST(StarterTickBudget, SendsTheExactRateWhateverTheGranularity)
{
    const auto start = TickBudget::Clock::time_point{} + 1h;
    for (const auto step : {1ms, 3ms, 10ms, 37ms, 100ms}) {
        TickBudget budget;
        qint64 sent = budget.take(start, 300);
        auto now = start;
        while (now < start + 10s) {
            now += step;
            sent += budget.take(now, 300);
        }
        // 10 s (plus up to one step) at 300/s.
        const double elapsed = std::chrono::duration<double>(now - start).count();
        EXPECT_NEAR(double(sent), 300 * elapsed, 1.0) << step.count() << " ms";
    }
}

TEST(StarterTickBudget, FollowsRateChangesAndPauses)
{
    TickBudget budget;
    auto now = TickBudget::Clock::time_point{} + 1h;
    budget.take(now, 100);
    now += 1s;
    EXPECT_EQ(budget.take(now, 100), 100);
    now += 1s;
    EXPECT_EQ(budget.take(now, 0), 0); // paused: nothing earned, nothing carried over
    now += 1s;
    EXPECT_EQ(budget.take(now, 100), 0); // restarts counting from here, no burst
    now += 500ms;
    EXPECT_EQ(budget.take(now, 100), 50);
    now += 10s; // a stall: at most maxCatchUp worth is sent at once
    EXPECT_EQ(budget.take(now, 100), 100);
    EXPECT_EQ(budget.lostTicks(), 900);
    EXPECT_LE(budget.untilNext(100), TickBudget::Clock::duration(10ms));
}

TEST(StarterMetricsText, FormatsValuesAndHistograms)
{
    EXPECT_EQ(PrometheusTextWriter::formatValue(0.005), "0.005");
    EXPECT_EQ(PrometheusTextWriter::formatValue(42), "42");
    EXPECT_EQ(PrometheusTextWriter::formatValue(std::numeric_limits<double>::infinity()), "+Inf");
    EXPECT_EQ(PrometheusTextWriter::escapeLabelValue("a\"b\\c\n"), "a\\\"b\\\\c\\n");

    LoadControl control(LoadSettings{300, 50, false, 0});
    LoadCounters counters;
    counters.sent = 10;
    counters.succeeded = 7;
    counters.failed = 2;
    counters.pending = 3;
    counters.leased = 4;
    LatencyHistogram histogram;
    histogram.record(200, 0.003);
    histogram.record(200, 0.2);
    histogram.record(599, 5.0);
    StarterMetrics metrics(control, counters, histogram, 100);
    const QByteArray text = metrics.render();
    for (const char *line :
         {"# TYPE starter_requests_sent_total counter\nstarter_requests_sent_total 10\n",
          "starter_requests_received_total{outcome=\"success\"} 7\n",
          "starter_requests_received_total{outcome=\"failure\"} 2\n", "starter_requests_inflight 7\n",
          "starter_rate 300\n", "starter_inflight_limit 50\n", "starter_requests_dropped_total 0\n",
          "http_client_pool_leased 4\n", "http_client_pool_pending 3\n", "http_client_pool_available 96\n",
          "http_client_pool_max 100\n",
          "http_client_request_seconds_bucket{method=\"POST\",status=\"200\",le=\"0.005\"} 1\n",
          "http_client_request_seconds_bucket{method=\"POST\",status=\"200\",le=\"0.25\"} 2\n",
          "http_client_request_seconds_bucket{method=\"POST\",status=\"599\",le=\"2.5\"} 0\n",
          "http_client_request_seconds_bucket{method=\"POST\",status=\"599\",le=\"5\"} 1\n",
          "http_client_request_seconds_bucket{method=\"POST\",status=\"599\",le=\"+Inf\"} 1\n",
          "http_client_request_seconds_count{method=\"POST\",status=\"599\"} 1\n",
          "# TYPE process_resident_memory_bytes gauge\n", "# TYPE process_cpu_seconds_total counter\n"}) {
        EXPECT_TRUE(text.contains(line)) << line;
    }
}

class StarterAdminApiTest : public ::testing::Test
{
protected:
    StarterAdminApiTest() : metrics(control, counters, histogram, 100) {}

    AdminApi makeApi(BearerToken token = {})
    {
        return AdminApi(
            control, counters, metrics,
            AdminApi::Identity{QStringLiteral("test:1"), QDateTime::fromMSecsSinceEpoch(0, Qt::UTC), 100, 1000},
            std::move(token),
            [this](QString *reason) { return AdminApi::isLivenessFresh(counters, nowMs, 2000, reason); });
    }

    static AdminRequest put(const QByteArray &path, const QByteArray &body)
    {
        return AdminRequest{"PUT", path, json, {}, {}, {}, body};
    }

    LoadControl control{LoadSettings{300, 0, false, 0}};
    LoadCounters counters;
    LatencyHistogram histogram;
    StarterMetrics metrics;
    qint64 nowMs = 0;
};

TEST_F(StarterAdminApiTest, StatusInJsonAndProtobuf)
{
    const AdminApi api = makeApi();
    counters.sent = 12;
    const AdminResponse response = api.handle({"GET", "/admin/status", {}, {}, {}, {}, {}});
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.contentType, "application/json");
    const QJsonObject object = bodyOf(response);
    for (const char *field : {"rate", "inflightLimit", "inflight", "pending", "poolSize", "paused", "sent", "succeeded",
                              "failed", "skipped", "startedAt", "instance", "version"})
        EXPECT_TRUE(object.contains(QLatin1String(field))) << field;
    EXPECT_EQ(statusOf(response).sent(), 12);
    EXPECT_EQ(object.value(QLatin1String("startedAt")).toString(), "1970-01-01T00:00:00.000Z");

    const AdminResponse binary = api.handle({"GET", "/admin/status", {}, "application/x-protobuf", {}, {}, {}});
    EXPECT_EQ(binary.contentType, "application/x-protobuf");
    LoadStatus parsed;
    ASSERT_TRUE(parsed.ParseFromString(binary.body.toStdString()));
    EXPECT_EQ(parsed.sent(), 12);
    EXPECT_EQ(parsed.instance(), "test:1");
}

TEST_F(StarterAdminApiTest, ChangesAreVisibleInTheAnswer)
{
    const AdminApi api = makeApi();
    AdminResponse response = api.handle(put("/admin/rate", R"({"rate": 500})"));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(statusOf(response).rate(), 500);
    EXPECT_EQ(statusOf(response).version(), 1);

    response = api.handle(put("/admin/inflight-limit", R"({"limit": 5000})"));
    EXPECT_EQ(statusOf(response).inflight_limit(), 5000);
    EXPECT_EQ(statusOf(response).version(), 2);

    response = api.handle({"POST", "/admin/pause", {}, {}, {}, {}, {}});
    EXPECT_TRUE(statusOf(response).paused());
    response = api.handle({"POST", "/admin/resume", {}, {}, {}, {}, {}});
    EXPECT_FALSE(statusOf(response).paused());
    EXPECT_EQ(statusOf(response).version(), 4);
}

TEST_F(StarterAdminApiTest, BadInputChangesNothing)
{
    const AdminApi api = makeApi();
    const QByteArray before = api.handle({"GET", "/admin/status", {}, {}, {}, {}, {}}).body;
    const QList<AdminRequest> bad = {
        put("/admin/rate", R"({"rate": -5})"),
        put("/admin/rate", R"({"rate": "NaN"})"),
        put("/admin/rate", R"({"rate": 5000})"),
        put("/admin/rate", R"({"speed": 5})"),
        AdminRequest{"PUT", "/admin/rate", "text/plain", {}, {}, {}, R"({"rate": 5})"},
        put("/admin/rate", QByteArray(5 * 1024 * 1024, ' ')),
        put("/admin/inflight-limit", R"({"limit": -1})"),
        AdminRequest{"PUT", "/admin/rate", json, {}, {}, "bogus", R"({"rate": 5})"},
    };
    for (const AdminRequest &request : bad) {
        const AdminResponse response = api.handle(request);
        EXPECT_EQ(response.status, 400) << request.body.left(60).constData();
        EXPECT_EQ(response.contentType, "application/problem+json");
        const QJsonObject problem = bodyOf(response);
        EXPECT_EQ(problem.value(QLatin1String("status")).toInt(), 400);
        for (const char *field : {"type", "title", "detail"})
            EXPECT_FALSE(problem.value(QLatin1String(field)).toString().isEmpty()) << field;
    }
    EXPECT_EQ(api.handle({"GET", "/admin/status", {}, {}, {}, {}, {}}).body, before);
}

TEST_F(StarterAdminApiTest, StaleIfMatchIsRefused)
{
    const AdminApi api = makeApi();
    AdminRequest request = put("/admin/rate", R"({"rate": 400})");
    request.ifMatch = "\"0\"";
    EXPECT_EQ(api.handle(request).status, 200);
    request.body = R"({"rate": 200})";
    const AdminResponse stale = api.handle(request);
    EXPECT_EQ(stale.status, 412);
    EXPECT_EQ(stale.contentType, "application/problem+json");
    EXPECT_EQ(control.settings().rate, 400);
}

TEST_F(StarterAdminApiTest, TokenGuardsAdminOnly)
{
    const AdminApi api = makeApi(BearerToken("tok"));
    const AdminResponse missing = api.handle({"GET", "/admin/status", {}, {}, {}, {}, {}});
    EXPECT_EQ(missing.status, 401);
    EXPECT_EQ(missing.contentType, "application/problem+json");
    AdminRequest wrong = put("/admin/rate", R"({"rate": 1})");
    wrong.authorization = "Bearer tok2";
    EXPECT_EQ(api.handle(wrong).status, 401);
    EXPECT_EQ(control.settings().rate, 300);
    wrong.authorization = "Bearer tok";
    EXPECT_EQ(api.handle(wrong).status, 200);
    EXPECT_EQ(api.handle({"GET", "/metrics", {}, {}, {}, {}, {}}).status, 200);
}

TEST_F(StarterAdminApiTest, LivenessFollowsTheHeartbeat)
{
    const AdminApi api = makeApi();
    const AdminRequest liveness{"GET", "/health/liveness", {}, {}, {}, {}, {}};
    EXPECT_EQ(api.handle(liveness).status, 503); // not started
    counters.schedulerRunning = true;
    counters.heartbeatMs = 10'000;
    nowMs = 11'000;
    EXPECT_EQ(api.handle(liveness).status, 200);
    nowMs = 12'500;
    EXPECT_EQ(api.handle(liveness).status, 503);
}

TEST_F(StarterAdminApiTest, UnknownPathsAndMethods)
{
    const AdminApi api = makeApi();
    EXPECT_EQ(api.handle({"GET", "/admin/nothing", {}, {}, {}, {}, {}}).status, 404);
    EXPECT_EQ(api.handle({"DELETE", "/admin/rate", {}, {}, {}, {}, {}}).status, 405);
    EXPECT_EQ(api.handle({"GET", "/admin/pause", {}, {}, {}, {}, {}}).status, 405);
    EXPECT_FALSE(control.settings().paused);
}

TEST(StarterOptions, DefaultsAndValidation)
{
    StarterOptionsParser parser;
    ASSERT_EQ(parser.parse({QStringLiteral("starter")}), StarterOptionsParser::Outcome::Run);
    EXPECT_EQ(parser.options().port, 9600);
    EXPECT_EQ(parser.options().poolSize, 100);
    EXPECT_EQ(parser.options().rate, 300);
    EXPECT_TRUE(parser.options().bind.isLoopback());

    for (const QStringList &bad :
         {QStringList{QStringLiteral("--port"), QStringLiteral("70000")},
          QStringList{QStringLiteral("--rate"), QStringLiteral("-1")},
          QStringList{QStringLiteral("--rate"), QStringLiteral("nan")},
          QStringList{QStringLiteral("--pool-size"), QStringLiteral("0")},
          QStringList{QStringLiteral("--target"), QStringLiteral("ftp://x")},
          QStringList{QStringLiteral("--bind"), QStringLiteral("0.0.0.0")},
          QStringList{QStringLiteral("--bind"), QStringLiteral("not-an-address")},
          QStringList{QStringLiteral("--deadline"), QStringLiteral("0")}, QStringList{QStringLiteral("--unknown")}}) {
        EXPECT_EQ(parser.parse(QStringList{QStringLiteral("starter")} + bad), StarterOptionsParser::Outcome::Invalid)
            << qPrintable(bad.join(' '));
        EXPECT_FALSE(parser.errorText().isEmpty());
    }
}

namespace {

// A client that never answers, and whose pump() can be made to throw: enough to watch the
// scheduler's tick accounting and its survival without a network.
class FakeDispatcher : public RequestDispatcher
{
public:
    std::atomic<qint64> submitted{0};
    std::atomic<qint64> pumps{0};
    std::atomic<int> failEvery{0}; // pump() throws on every n-th call; 0 = never

    Admission submit(Clock::time_point) override
    {
        ++submitted;
        return Admission::Accepted;
    }
    void pump() override
    {
        const qint64 n = ++pumps;
        const int every = failEvery.load();
        if (every > 0 && n % every == 0) {
            if (n % 2)
                throw std::bad_alloc(); // what killed seed 000's scheduler
            throw std::runtime_error("injected failure");
        }
    }
    void poll(std::chrono::milliseconds timeout) override
    {
        std::unique_lock lock(m_mutex);
        m_woken.wait_for(lock, timeout, [this] { return m_wakeup; });
        m_wakeup = false;
    }
    void wakeup() override
    {
        {
            std::lock_guard lock(m_mutex);
            m_wakeup = true;
        }
        m_woken.notify_all();
    }
    qint32 inflight() const override { return static_cast<qint32>(submitted.load()); }
    std::optional<Clock::time_point> nextPendingDeadline() const override { return std::nullopt; }

private:
    std::mutex m_mutex;
    std::condition_variable m_woken;
    bool m_wakeup = false;
};

qint64 steadyNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct SchedulerFixture
{
    explicit SchedulerFixture(LoadSettings settings) : control(settings)
    {
        auto owned = std::make_unique<FakeDispatcher>();
        dispatcher = owned.get();
        scheduler = std::make_unique<LoadScheduler>(control, counters, std::move(owned));
        control.setChangeListener([this] { scheduler->wakeup(); });
    }
    ~SchedulerFixture() { control.setChangeListener({}); }

    bool live(qint64 maxAgeMs = 2000)
    {
        QString reason;
        return AdminApi::isLivenessFresh(counters, steadyNowMs(), maxAgeMs, &reason);
    }
    // Waits until the scheduler completed an iteration that began after this call.
    bool waitForFreshIteration()
    {
        const qint64 since = steadyNowMs();
        return waitFor([&] { return counters.heartbeatMs.load() > since + 2; }, 5000, 5);
    }

    LoadControl control;
    LoadCounters counters;
    FakeDispatcher *dispatcher = nullptr;
    std::unique_ptr<LoadScheduler> scheduler;
};

} // namespace

TEST(StarterScheduler, SendsAtTheConfiguredRate)
{
    SchedulerFixture f(LoadSettings{500, 0, false, 0});
    f.scheduler->start();
    ASSERT_TRUE(waitFor([&] { return f.dispatcher->submitted.load() > 0; }, 5000, 5));
    const qint64 first = f.dispatcher->submitted.load();
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(waitFor([&] { return f.dispatcher->submitted.load() >= first + 500; }, 5000, 5));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // 500 ticks at 500/s take a second: not less (no bursts), not much more (no lost ticks).
    EXPECT_GE(elapsed, 0.95);
    EXPECT_LE(elapsed, 2.0);
    EXPECT_TRUE(f.live());
    EXPECT_EQ(f.counters.schedulerErrors.load(), 0);
}

TEST(StarterScheduler, SkipsTicksAtTheInflightLimitInsteadOfQueueing)
{
    SchedulerFixture f(LoadSettings{1000, 5, false, 0});
    f.scheduler->start();
    ASSERT_TRUE(waitFor([&] { return f.counters.skipped.load() > 50; }, 5000, 5));
    EXPECT_EQ(f.dispatcher->submitted.load(), 5);

    // Raising the limit takes effect on the next tick.
    f.control.setInflightLimit(20);
    ASSERT_TRUE(waitFor([&] { return f.dispatcher->submitted.load() == 20; }, 5000, 5));
    ASSERT_TRUE(f.waitForFreshIteration());
    EXPECT_EQ(f.dispatcher->submitted.load(), 20);
}

TEST(StarterScheduler, PauseStopsSendingAndStaysLive)
{
    SchedulerFixture f(LoadSettings{1000, 0, false, 0});
    f.scheduler->start();
    ASSERT_TRUE(waitFor([&] { return f.dispatcher->submitted.load() > 10; }, 5000, 5));
    f.control.setPaused(true);
    ASSERT_TRUE(f.waitForFreshIteration());
    const qint64 paused = f.dispatcher->submitted.load();
    ASSERT_TRUE(f.waitForFreshIteration());
    ASSERT_TRUE(f.waitForFreshIteration());
    EXPECT_EQ(f.dispatcher->submitted.load(), paused);
    EXPECT_TRUE(f.live());
    f.control.setPaused(false);
    EXPECT_TRUE(waitFor([&] { return f.dispatcher->submitted.load() > paused; }, 5000, 5));
}

TEST(StarterScheduler, SurvivesFailuresAndLogsThem)
{
    SchedulerFixture f(LoadSettings{1000, 0, false, 0});
    f.dispatcher->failEvery = 3; // bad_alloc and runtime_error, in turn
    f.scheduler->start();
    ASSERT_TRUE(waitFor([&] { return f.counters.schedulerErrors.load() >= 6 && f.dispatcher->submitted.load() >= 100; },
                        10000, 5));
    EXPECT_TRUE(f.live());
    EXPECT_TRUE(f.counters.schedulerRunning.load());
}

TEST(StarterScheduler, ALoopThatKeepsFailingFailsLiveness)
{
    SchedulerFixture f(LoadSettings{100, 0, false, 0});
    f.dispatcher->failEvery = 1;
    f.scheduler->start();
    ASSERT_TRUE(waitFor([&] { return f.counters.schedulerErrors.load() >= 3; }, 5000, 5));
    // No iteration completes, so the heartbeat ages: a zombie is visible to the probe.
    EXPECT_TRUE(waitFor([&] { return !f.live(300); }, 5000, 20));
    f.dispatcher->failEvery = 0;
    EXPECT_TRUE(waitFor([&] { return f.live(300); }, 5000, 20));
    f.scheduler->stop();
    EXPECT_FALSE(f.counters.schedulerRunning.load());
    EXPECT_FALSE(f.live());
}
