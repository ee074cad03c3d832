// SPDX-License-Identifier: GPL-3.0-or-later
// The fault catalogue: every way a Prometheus-compatible source or a load tester's admin API
// can misbehave, served on demand by the fault server, each ending in a message that says
// what failed, with the rest of the dashboard still working. The well-behaved side is the
// real Prometheus and the real testbed in the other integration suites.
#include "annotations/annotationmodel.h"
#include "eventloopwatchdog.h"
#include "faultserver.h"
#include "fetching/dashboardpoller.h"
#include "fetching/variablevaluesloader.h"
#include "freeport.h"
#include "loadtester/adapters/adapterfactory.h"
#include "loadtester/adapters/loadtesteradapter.h"
#include "loadtester/loadtesterconnector.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/replicadiscovery.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "timeline/timewindow.h"
#include "waitfor.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <array>
#include <cmath>
#include <csignal>
#include <gtest/gtest.h>
#include <memory>
#include <sys/types.h>

namespace {

using Kind = Error::Kind;
using Reply = FaultServer::Reply;
using QueryResult = Result<PromQueryResult>;

constexpr qint64 kNow = 1'700'000'040'000; // a whole minute
const QByteArray kRange = "/api/v1/query_range";
const QByteArray kInstant = "/api/v1/query";

std::string describe(const QueryResult &result)
{
    return result.ok() ? std::string("ok") : result.error().message.toStdString();
}

// Short waits, so that a fault that is retried does not make the test slow.
PrometheusConnection connectionTo(const QUrl &url)
{
    PrometheusConnection connection;
    connection.baseUrl = url;
    connection.timeoutMs = 2000;
    connection.retry.initialDelayMs = 20;
    connection.retry.maxDelayMs = 100;
    return connection;
}

QueryResult await(const QFuture<QueryResult> &future, int timeoutMs = 20000)
{
    const auto result = awaitResult(future, timeoutMs);
    if (!result)
        return Error::make(Kind::Invalid, QStringLiteral("the test gave up waiting"));
    return *result;
}

QueryResult instant(PrometheusClient &client)
{
    return await(client.instantQuery(QStringLiteral("up")));
}

// A range-query answer with one series, a sample every step over the requested range,
// as a healthy Prometheus would give for a metric scraped every second.
Reply healthyAnswer(const FaultServer::Request &request)
{
    const QUrlQuery params = request.params();
    const double start = params.queryItemValue(QStringLiteral("start")).toDouble();
    const double end = params.queryItemValue(QStringLiteral("end")).toDouble();
    const double step = params.queryItemValue(QStringLiteral("step")).toDouble();
    QList<QPair<double, QByteArray>> samples;
    for (double t = start; step > 0 && t <= end + 1e-9; t += step)
        samples.append({t, QByteArray::number(std::fmod(t, 97.0))});
    return FaultServer::json(FaultServer::matrixBody(1, samples));
}

// ---- The Prometheus client against each fault ----

TEST(PrometheusFaults, ConnectionRefusedSaysSoAndMarksTheSourceDown)
{
    FaultServer server;
    server.stop();
    PrometheusClient client(connectionTo(server.url()));
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Network);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("refused the connection"))) << describe(result);
    EXPECT_TRUE(result.error().message.contains(server.url().authority())) << describe(result);
    ASSERT_GE(reachability.size(), 1);
    EXPECT_FALSE(reachability.at(0).at(0).toBool());
}

TEST(PrometheusFaults, ASourceThatNeverAnswersTimesOutAndIsTriedAgain)
{
    FaultServer server;
    server.script(kInstant, FaultServer::neverAnswer());
    PrometheusConnection connection = connectionTo(server.url());
    connection.timeoutMs = 300;
    PrometheusClient client(connection);
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Timeout);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("did not answer within 300 ms"))) << describe(result);
    EXPECT_EQ(server.requestCount(kInstant), 3); // the first try and two retries
}

TEST(PrometheusFaults, AnAnswerTricklingInIsCutAtTheRequestDeadline)
{
    FaultServer server;
    // One byte every 50 ms never leaves the connection silent for long: only a deadline for
    // the whole answer ends it.
    server.script(kInstant, FaultServer::trickle(QByteArray(2000, ' '), 50));
    PrometheusConnection connection = connectionTo(server.url());
    connection.timeoutMs = 1000;
    connection.requestDeadlineMs = 700;
    connection.retry.maxAttempts = 1;
    PrometheusClient client(connection);
    QElapsedTimer clock;
    clock.start();
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Timeout);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("did not finish its answer within 700 ms")))
        << describe(result);
    EXPECT_LT(clock.elapsed(), 10000);
}

TEST(PrometheusFaults, AnHtmlErrorPageIsShownByItsTitleAndOnlyGatewayErrorsAreRetried)
{
    for (const int status : {500, 502, 503, 504}) {
        FaultServer server;
        server.script(kInstant, FaultServer::htmlError(status));
        PrometheusClient client(connectionTo(server.url()));
        const auto result = instant(client);
        ASSERT_FALSE(result.ok()) << status;
        EXPECT_EQ(result.error().kind, Kind::Http) << status;
        EXPECT_EQ(result.error().httpStatus, status);
        EXPECT_TRUE(result.error().message.contains(QStringLiteral("answered HTTP %1").arg(status)))
            << describe(result);
        EXPECT_TRUE(result.error().message.contains(QStringLiteral("nginx")) ||
                    result.error().message.contains(QString::number(status)))
            << describe(result);
        EXPECT_EQ(server.requestCount(kInstant), status == 500 ? 1 : 3) << status;
    }
}

TEST(PrometheusFaults, ASourceAnsweringOnly503IsNoLongerUp)
{
    FaultServer server;
    server.script(kInstant, QList<Reply>{FaultServer::json(FaultServer::matrixBody(1, {{1.0, "1"}})),
                                         FaultServer::htmlError(503)});
    PrometheusClient client(connectionTo(server.url()));
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);
    ASSERT_TRUE(instant(client).ok());
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_TRUE(reachability.at(0).at(0).toBool()) << "up while it answers";
    ASSERT_FALSE(instant(client).ok());
    ASSERT_EQ(reachability.size(), 2) << "every later query answers 503";
    EXPECT_FALSE(reachability.at(1).at(0).toBool());
    EXPECT_TRUE(reachability.at(1).at(1).toString().contains(QStringLiteral("answered HTTP 503")))
        << reachability.at(1).at(1).toString().toStdString();
}

TEST(PrometheusFaults, TooManyRequestsWaitsAsLongAsRetryAfterSays)
{
    FaultServer server;
    server.script(kInstant, QList<Reply>{FaultServer::tooManyRequests(1),
                                         FaultServer::json(FaultServer::matrixBody(1, {{1.0, "1"}}))});
    PrometheusClient client(connectionTo(server.url())); // its own backoff starts at 20 ms
    QElapsedTimer clock;
    clock.start();
    const auto result = instant(client);
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(server.requestCount(kInstant), 2);
    EXPECT_GE(clock.elapsed(), 950); // the server's second, not our 20 ms
}

TEST(PrometheusFaults, TooManyRequestsWithALongPauseIsReportedNotRetried)
{
    FaultServer server;
    server.script(kInstant, FaultServer::tooManyRequests(3600));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().httpStatus, 429);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("fewer requests"))) << describe(result);
    EXPECT_EQ(server.requestCount(kInstant), 1);
}

TEST(PrometheusFaults, EachPrometheusErrorTypeIsShownAndOnlyTransientOnesAreRetried)
{
    for (const QByteArray type :
         {"bad_data", "timeout", "canceled", "execution", "internal", "unavailable", "not_found"}) {
        FaultServer server;
        server.script(kInstant, FaultServer::prometheusError(type, "the server says " + type));
        PrometheusClient client(connectionTo(server.url()));
        const auto result = instant(client);
        ASSERT_FALSE(result.ok()) << type.constData();
        EXPECT_EQ(result.error().kind, Kind::Query) << type.constData();
        EXPECT_EQ(result.error().detail, QString::fromLatin1(type));
        EXPECT_TRUE(result.error().message.contains(QStringLiteral("Prometheus rejected the query")))
            << describe(result);
        EXPECT_TRUE(result.error().message.contains(QStringLiteral("the server says ") + QString::fromLatin1(type)))
            << describe(result);
        const bool transient = type == "timeout" || type == "unavailable";
        EXPECT_EQ(server.requestCount(kInstant), transient ? 3 : 1) << type.constData();
    }
}

TEST(PrometheusFaults, MalformedJsonIsAParseErrorNamingTheSource)
{
    FaultServer server;
    server.script(kInstant, FaultServer::malformedJson());
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Parse);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("not valid JSON"))) << describe(result);
    EXPECT_TRUE(result.error().message.contains(server.url().authority())) << describe(result);
    EXPECT_EQ(server.requestCount(kInstant), 1);
}

TEST(PrometheusFaults, ABodyCutOffMidwayIsReportedAsSuch)
{
    FaultServer server;
    server.script(kInstant, FaultServer::cutOff(FaultServer::matrixBody(3, {{1.0, "1"}, {2.0, "2"}})));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("in the middle of its answer"))) << describe(result);
}

TEST(PrometheusFaults, AHugeAnnouncedBodyIsRefusedAtTheDefaultCapWithoutReadingIt)
{
    FaultServer server;
    server.script(kInstant, FaultServer::huge(200ll * 1024 * 1024));
    PrometheusConnection connection = connectionTo(server.url());
    ASSERT_EQ(connection.maxBodyBytes, 64ll * 1024 * 1024); // the default
    PrometheusClient client(connection);
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::TooLarge);
    EXPECT_EQ(result.error().message,
              QStringLiteral("Prometheus at %1api/v1/query sent an answer larger than the limit of 64 MiB (at least "
                             "200 MiB); narrow the query, choose a larger step, or raise the limit.")
                  .arg(server.url().toString()));
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 10000));
    EXPECT_LT(server.bytesStreamed(), 32ll * 1024 * 1024); // most of it was never sent
    EXPECT_EQ(server.requestCount(kInstant), 1);           // and not asked for again
}

TEST(PrometheusFaults, AHugeUnannouncedBodyIsCutWhileArriving)
{
    FaultServer server;
    server.script(kInstant, FaultServer::huge(200ll * 1024 * 1024, /*announceLength=*/false));
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxBodyBytes = 4 * 1024 * 1024;
    PrometheusClient client(connection);
    EventLoopWatchdog watchdog;
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::TooLarge);
    // How much had arrived when it was cut depends on the timing; the rest is the wording.
    const QRegularExpression wording(QRegularExpression::anchoredPattern(
        QRegularExpression::escape(QStringLiteral("Prometheus at %1api/v1/query sent an answer larger than the limit "
                                                  "of 4 MiB (at least ")
                                       .arg(server.url().toString())) +
        QStringLiteral("[0-9.]+ MiB") +
        QRegularExpression::escape(QStringLiteral("); narrow the query, choose a larger step, or raise the limit."))));
    EXPECT_TRUE(wording.match(result.error().message).hasMatch()) << describe(result);
    EXPECT_TRUE(waitFor([&] { return server.openConnections() == 0; }, 10000));
    EXPECT_LT(server.bytesStreamed(), 64ll * 1024 * 1024);
    EXPECT_LT(watchdog.longestStallMs(), 1000);
}

TEST(PrometheusFaults, AnUnknownResultTypeIsAParseErrorSayingWhich)
{
    FaultServer server;
    server.script(kInstant, FaultServer::json(FaultServer::matrixBody(1, {{1.0, "1"}}, "streams")));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Parse);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("\"streams\""))) << describe(result);
}

TEST(PrometheusFaults, AValueThatIsNotANumberIsAParseErrorSayingWhere)
{
    FaultServer server;
    server.script(kInstant, FaultServer::json(FaultServer::matrixBody(1, {{1.0, "1"}, {2.0, "fast"}})));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Parse);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("\"fast\" is not a number"))) << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("sample 1"))) << describe(result);
}

TEST(PrometheusFaults, NaNAndInfinitiesAreKeptAsSuch)
{
    FaultServer server;
    server.script(kInstant,
                  FaultServer::json(FaultServer::matrixBody(1, {{1.0, "NaN"}, {2.0, "+Inf"}, {3.0, "-Inf"}})));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_TRUE(result.ok()) << describe(result);
    ASSERT_EQ(result->series.size(), 1u);
    const auto &values = result->series.front().values;
    ASSERT_EQ(values.size(), 3u);
    EXPECT_TRUE(std::isnan(values[0]));
    EXPECT_EQ(values[1], INFINITY);
    EXPECT_EQ(values[2], -INFINITY);
}

TEST(PrometheusFaults, ARedirectLoopIsReportedAsALoop)
{
    FaultServer server;
    server.script(kInstant, FaultServer::redirect("/api/v1/query"));
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("redirects in a loop"))) << describe(result);
    EXPECT_LE(server.requestCount(kInstant), 60); // Qt's cap on redirects, not forever
}

TEST(PrometheusFaults, ATransientFailureThatPassesIsInvisible)
{
    FaultServer server;
    server.script(kInstant, QList<Reply>{FaultServer::htmlError(502), FaultServer::prometheusError("unavailable"),
                                         FaultServer::json(FaultServer::matrixBody(1, {{1.0, "7"}}))});
    PrometheusClient client(connectionTo(server.url()));
    const auto result = instant(client);
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->series.front().values.front(), 7.0);
    EXPECT_EQ(server.requestCount(kInstant), 3);
}

TEST(PrometheusFaults, AtMostTheConfiguredNumberOfRequestsAreInFlight)
{
    FaultServer server;
    server.script(kInstant, FaultServer::trickle(FaultServer::matrixBody(1, {{1.0, "1"}}), 1));
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxRequestsInFlight = 3;
    PrometheusClient client(connection);
    std::vector<QFuture<QueryResult>> futures;
    for (int i = 0; i < 12; ++i)
        futures.push_back(client.instantQuery(QStringLiteral("up")));
    for (const auto &future : futures) {
        const auto result = await(future);
        EXPECT_TRUE(result.ok()) << describe(result);
    }
    EXPECT_EQ(server.requestCount(kInstant), 12);
    EXPECT_LE(server.maxPendingRequests(), 3);
    EXPECT_GE(server.maxPendingRequests(), 2); // and they did overlap
}

// ---- The poller: what a panel shows ----

DashboardDefinition dashboardOf(const QStringList &panelQueries)
{
    DashboardDefinition dashboard;
    dashboard.refreshSeconds = 3600; // the tests poll by hand
    for (const QString &query : panelQueries) {
        PanelDefinition panel;
        panel.title = query;
        SeriesDefinition series;
        series.query = query;
        panel.series.push_back(series);
        dashboard.panels.push_back(panel);
    }
    return dashboard;
}

// The poller, its store and window, against one source, with a clock that moves only when
// the test says so.
struct Rig
{
    explicit Rig(const QUrl &url) : client(connectionTo(url)), poller(&client, &store, &window)
    {
        window.setClock([this] { return now; });
        window.setWindowMs(5 * 60'000);
        poller.setScrapeIntervalMs(1000);
    }

    // One refresh tick, as the refresh timer does it, and its answers merged.
    bool tick(qint64 advanceMs = 0)
    {
        now += advanceMs;
        QSignalSpy finished(&poller, &DashboardPoller::pollCycleFinished);
        poller.pollNow();
        window.advanceToNow();
        return finished.wait(20000) && waitFor([&] { return !poller.isLoadingHistory(); }, 20000);
    }

    PanelStatus status(int panel = 0) const { return poller.panelStatus(panel); }

    qint64 now = kNow;
    PrometheusClient client;
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller;
};

// The largest distance between neighbouring samples of a series, within [fromMs, toMs].
qint64 largestGap(const SampleStore::Series &series, qint64 fromMs, qint64 toMs)
{
    const auto times = series.timestampsMs();
    qint64 gap = 0;
    qint64 previous = fromMs;
    for (const qint64 t : times) {
        if (t < fromMs || t > toMs)
            continue;
        gap = std::max(gap, t - previous);
        previous = t;
    }
    return std::max(gap, toMs - previous);
}

TEST(PanelFaults, AQueryErrorIsShownInItsPanelWhileTheOthersDraw)
{
    FaultServer server;
    server.script(kRange, [](const FaultServer::Request &request) {
        if (request.params().queryItemValue(QStringLiteral("query")) == QLatin1String("broken"))
            return FaultServer::prometheusError("bad_data", "parse error at char 7");
        return healthyAnswer(request);
    });
    Rig rig(server.url());
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m"), QStringLiteral("broken")}));
    ASSERT_TRUE(rig.tick());
    EXPECT_EQ(rig.status(0).state, PanelStatus::State::Ok);
    const PanelStatus broken = rig.status(1);
    EXPECT_EQ(broken.state, PanelStatus::State::QueryError);
    EXPECT_TRUE(broken.message.contains(QStringLiteral("parse error at char 7 (bad_data)")))
        << broken.message.toStdString();
    EXPECT_TRUE(broken.message.contains(QStringLiteral("No sample received yet"))) << broken.message.toStdString();
}

TEST(PanelFaults, ASourceGoingDownSaysSinceWhenAndTheGapIsFilledWhenItReturns)
{
    FaultServer server;
    server.script(kRange, &healthyAnswer);
    Rig rig(server.url());
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m")}));
    ASSERT_TRUE(rig.tick());
    ASSERT_EQ(rig.status().state, PanelStatus::State::Ok);
    const QString key = rig.store.keysWithPrefix(QStringLiteral("p0/")).value(0);
    ASSERT_FALSE(key.isEmpty());

    server.stop();
    ASSERT_TRUE(rig.tick(60'000));
    PanelStatus down = rig.status();
    EXPECT_EQ(down.state, PanelStatus::State::SourceDown);
    EXPECT_TRUE(down.message.contains(QStringLiteral("refused the connection"))) << down.message.toStdString();
    EXPECT_TRUE(down.message.contains(QStringLiteral("Last good sample 1 min ago."))) << down.message.toStdString();
    ASSERT_TRUE(rig.tick(65'000));
    down = rig.status();
    EXPECT_TRUE(down.message.contains(QStringLiteral("Last good sample 2 min 5 s ago."))) << down.message.toStdString();

    ASSERT_TRUE(server.resume());
    ASSERT_TRUE(rig.tick(5'000));
    EXPECT_EQ(rig.status().state, PanelStatus::State::Ok) << rig.status().message.toStdString();
    EXPECT_EQ(rig.status().newestSampleMs, rig.now);
    // Every second of the outage is there: the return asked for all of it.
    const SampleStore::Series *series = rig.store.series(key);
    ASSERT_NE(series, nullptr);
    EXPECT_LE(largestGap(*series, kNow - 60'000, rig.now), 1000);
}

TEST(PanelFaults, TenThousandSeriesAreCappedWithAWarningInThePanel)
{
    FaultServer server;
    const QByteArray body = FaultServer::matrixBody(10'000, {{double(kNow) / 1000, "1"}});
    server.script(kRange, FaultServer::json(body));
    Rig rig(server.url());
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m")}));
    EventLoopWatchdog watchdog;
    ASSERT_TRUE(rig.tick());
    const PanelStatus status = rig.status();
    EXPECT_EQ(status.state, PanelStatus::State::Ok);
    ASSERT_FALSE(status.warnings.isEmpty());
    EXPECT_TRUE(status.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("more than 2000 series")))
        << status.warnings.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(rig.store.keysWithPrefix(QStringLiteral("p0/")).size(), 2000);
    EXPECT_LT(watchdog.longestStallMs(), 2000);
}

TEST(PanelFaults, DuplicateOutOfOrderAndFutureSamplesNeitherBreakNorStallThePanel)
{
    FaultServer server;
    const double now = double(kNow) / 1000;
    server.script(kRange,
                  QList<Reply>{FaultServer::json(FaultServer::matrixBody(
                                   1, {{now - 2, "2"}, {now - 3, "1"}, {now - 2, "2"}, {now + 3600, "9"}, {now, "3"}})),
                               FaultServer::json(FaultServer::matrixBody(1, {{now + 9, "4"}, {now + 10, "5"}}))});
    Rig rig(server.url());
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m")}));
    ASSERT_TRUE(rig.tick());
    PanelStatus status = rig.status();
    EXPECT_EQ(status.state, PanelStatus::State::Ok);
    // A range query is answered at the instants asked for: a sample an hour after them is no
    // answer, and is dropped with a word rather than drawn in the future.
    EXPECT_TRUE(status.warnings.join(QLatin1Char(' '))
                    .contains(QStringLiteral("1 sample outside the range asked for was dropped")))
        << status.warnings.join(QLatin1Char('|')).toStdString();
    const SampleStore::Series *series = rig.store.series(rig.store.keysWithPrefix(QStringLiteral("p0/")).value(0));
    ASSERT_NE(series, nullptr);
    const auto times = series->timestampsMs();
    EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
    EXPECT_EQ(std::adjacent_find(times.begin(), times.end()), times.end()); // no duplicate instants
    // The sample an hour ahead does not make the panel wait an hour for its next poll.
    const int before = server.requestCount(kRange);
    ASSERT_TRUE(rig.tick(10'000));
    EXPECT_GT(server.requestCount(kRange), before);
    EXPECT_EQ(rig.status().newestSampleMs, kNow + 10'000);
}

TEST(PanelFaults, TheRealPrometheusRestartingIsShownAsDownThenRecoversAndTheSessionKeepsEverything)
{
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.start()) << prometheus.errorString().toStdString();
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("up"), 30000));
    PrometheusConnection connection = connectionTo(prometheus.url());
    PrometheusClient client(connection);
    SampleStore store;
    TimeWindow window; // the real clock
    window.setWindowMs(5 * 60'000);
    DashboardPoller poller(&client, &store, &window);
    poller.setScrapeIntervalMs(1000);
    poller.setDashboard(dashboardOf({QStringLiteral("up")}));
    poller.setRefreshMs(500);
    // Recorded as a live run is: the file must hold the run across the outage.
    QTemporaryDir sessionDir;
    const QString sessionPath = sessionDir.filePath(QStringLiteral("restart.chaoscope"));
    AnnotationModel annotations;
    SessionRecorder recorder(&store, &annotations);
    ASSERT_FALSE(recorder.start(sessionPath, {QStringLiteral("restart"), prometheus.url()}, poller.dashboard(),
                                window.windowMs()));
    poller.start();
    const auto state = [&] { return poller.panelStatus(0).state; };
    ASSERT_TRUE(waitFor([&] { return state() == PanelStatus::State::Ok; }, 30000));
    const QString key = store.keysWithPrefix(QStringLiteral("p0/")).value(0);
    ASSERT_FALSE(key.isEmpty());
    const qint64 newestBefore = *poller.panelStatus(0).newestSampleMs;

    prometheus.stop();
    ASSERT_TRUE(waitFor([&] { return state() == PanelStatus::State::SourceDown; }, 30000));
    const PanelStatus down = poller.panelStatus(0);
    EXPECT_TRUE(down.message.contains(QStringLiteral("refused the connection"))) << down.message.toStdString();
    EXPECT_TRUE(down.message.contains(QStringLiteral("Last good sample"))) << down.message.toStdString();
    EXPECT_EQ(down.newestSampleMs, newestBefore); // what was drawn stays

    ASSERT_TRUE(prometheus.restart()) << prometheus.errorString().toStdString();
    const qint64 restartedAt = QDateTime::currentMSecsSinceEpoch();
    ASSERT_TRUE(waitFor(
        [&] {
            const PanelStatus status = poller.panelStatus(0);
            return status.state == PanelStatus::State::Ok && status.newestSampleMs &&
                   *status.newestSampleMs > restartedAt;
        },
        30000))
        << poller.panelStatus(0).message.toStdString();
    // Nothing recorded before the outage was lost.
    const SampleStore::Series *series = store.series(key);
    ASSERT_NE(series, nullptr);
    EXPECT_FALSE(series->timestampsMs().empty());
    EXPECT_LE(series->timestampsMs().front(), newestBefore);
    EXPECT_GT(series->timestampsMs().back(), restartedAt);
    poller.stop();

    // The session file has the same run: before the outage, and after the restart.
    recorder.stop();
    const Result<SessionContents> session = SessionReader::readFile(sessionPath);
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    const auto recorded = std::find_if(session->series.begin(), session->series.end(),
                                       [&](const SessionSeries &s) { return s.key == key; });
    ASSERT_NE(recorded, session->series.end());
    ASSERT_FALSE(recorded->timestampsMs.empty());
    EXPECT_LE(recorded->timestampsMs.front(), newestBefore) << "what came before the outage";
    EXPECT_GT(recorded->timestampsMs.back(), restartedAt) << "what came after the restart";
    EXPECT_EQ(recorded->timestampsMs.size(), series->size()) << "every sample the store holds";
}

// ---- Replica discovery and label values: the same client, the same exchange ----

const QByteArray kTargets = "/api/v1/targets";
const QByteArray kJobValues = "/api/v1/label/job/values";

QByteArray targetsBody()
{
    return R"({"status":"success","data":{"activeTargets":[)"
           R"({"labels":{"job":"starter"},"scrapeUrl":"http://127.0.0.1:9601/metrics"},)"
           R"({"labels":{"job":"prometheus"},"scrapeUrl":"http://127.0.0.1:9090/metrics"}]}})";
}

VariableDefinition jobVariable()
{
    VariableDefinition job;
    job.name = QStringLiteral("job");
    job.labelName = QStringLiteral("job");
    job.value = QStringLiteral("starter");
    return job;
}

TEST(DiscoveryFaults, ADiscoveryThatTimesOutIsTriedAgainAndThenFinds)
{
    FaultServer server;
    server.script(kTargets, QList<Reply>{FaultServer::neverAnswer(), FaultServer::json(targetsBody())});
    PrometheusConnection connection = connectionTo(server.url());
    connection.timeoutMs = 300;
    PrometheusClient client(connection);
    ReplicaDiscovery discovery(&client);
    QSignalSpy found(&discovery, &ReplicaDiscovery::found);
    QSignalSpy failed(&discovery, &ReplicaDiscovery::failed);
    discovery.discover(QStringLiteral("starter"));
    ASSERT_TRUE(waitFor([&] { return !found.isEmpty() || !failed.isEmpty(); }, 15000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().first().toString().toStdString();
    EXPECT_EQ(found.first().first().value<QList<QUrl>>(), QList<QUrl>{QUrl(QStringLiteral("http://127.0.0.1:9601"))});
    EXPECT_EQ(server.requestCount(kTargets), 2);
    EXPECT_EQ(server.requests.front().params().queryItemValue(QStringLiteral("state")), QStringLiteral("active"));
}

TEST(DiscoveryFaults, ADiscoveryThatTimesOutIsReportedAndTheConnectorTriesAgain)
{
    FaultServer server;
    server.script(kTargets, QList<Reply>{FaultServer::neverAnswer(), FaultServer::json(targetsBody())});
    PrometheusConnection connection = connectionTo(server.url());
    connection.timeoutMs = 300;
    connection.retry.maxAttempts = 1; // the connector's own retry, not the client's
    PrometheusClient client(connection);
    LoadTesterPlan plan;
    plan.discoverJob = QStringLiteral("starter");
    LoadTesterController controller;
    LoadTesterConnector connector(&controller, &client, plan);
    connector.setRetryIntervalMs(200);
    QSignalSpy problems(&connector, &LoadTesterConnector::problem);
    QSignalSpy found(&connector, &LoadTesterConnector::replicasFound);
    connector.start();
    ASSERT_TRUE(waitFor([&] { return !found.isEmpty(); }, 15000));
    ASSERT_EQ(problems.size(), 1);
    EXPECT_EQ(problems.first().first().toString(),
              QStringLiteral("Finding the load tester's replicas: Could not ask Prometheus for the targets of job "
                             "\"starter\": Prometheus at %1api/v1/targets did not answer within 300 ms. Trying again "
                             "in 200 ms.")
                  .arg(server.url().toString()));
    EXPECT_EQ(controller.replicaCount(), 1);
    EXPECT_EQ(server.requestCount(kTargets), 2);
}

TEST(DiscoveryFaults, AnAnswerCutOffAfterItsHeadersIsNotReadAsAShortList)
{
    FaultServer server;
    server.script(kTargets, FaultServer::cutOff(targetsBody()));
    PrometheusClient client(connectionTo(server.url()));
    ReplicaDiscovery discovery(&client);
    QSignalSpy failed(&discovery, &ReplicaDiscovery::failed);
    discovery.discover(QStringLiteral("starter"));
    ASSERT_TRUE(failed.wait(15000));
    EXPECT_EQ(failed.first().first().toString(),
              QStringLiteral("Could not ask Prometheus for the targets of job \"starter\": Prometheus at "
                             "%1api/v1/targets closed the connection in the middle of its answer.")
                  .arg(server.url().toString()));
    EXPECT_EQ(server.requestCount(kTargets), 3); // a reset is worth another try, as for a query
}

TEST(DiscoveryFaults, AnAnswerAboveTheCapIsRefusedUnread)
{
    FaultServer server;
    server.script(kTargets, FaultServer::huge(1024 * 1024));
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxBodyBytes = 64 * 1024;
    PrometheusClient client(connection);
    ReplicaDiscovery discovery(&client);
    QSignalSpy failed(&discovery, &ReplicaDiscovery::failed);
    discovery.discover(QStringLiteral("starter"));
    ASSERT_TRUE(failed.wait(15000));
    EXPECT_EQ(failed.first().first().toString(),
              QStringLiteral("Could not ask Prometheus for the targets of job \"starter\": Prometheus at "
                             "%1api/v1/targets sent an answer larger than the limit of 64 KiB (at least 1 MiB); is "
                             "this the right URL?")
                  .arg(server.url().toString()));
    EXPECT_EQ(server.requestCount(kTargets), 1);
}

TEST(DiscoveryFaults, AnErrorPageIsSaidInPrometheusWords)
{
    FaultServer server;
    server.script(kTargets, FaultServer::text("no such page", 404));
    PrometheusClient client(connectionTo(server.url()));
    ReplicaDiscovery discovery(&client);
    QSignalSpy failed(&discovery, &ReplicaDiscovery::failed);
    discovery.discover(QStringLiteral("starter"));
    ASSERT_TRUE(failed.wait(15000));
    EXPECT_EQ(failed.first().first().toString(),
              QStringLiteral("Could not ask Prometheus for the targets of job \"starter\": Prometheus at "
                             "%1api/v1/targets answered HTTP 404 Not Found; check the path prefix of the URL: \"no "
                             "such page\"")
                  .arg(server.url().toString()));
}

TEST(VariableFaults, ASupersededRequestNeverAnswers)
{
    FaultServer server;
    // The first answer would trickle in for about eight seconds; the second comes at once.
    server.script(kJobValues, QList<Reply>{FaultServer::trickle(R"({"status":"success","data":["old"]})", 200),
                                           FaultServer::json(R"({"status":"success","data":["new"]})")});
    PrometheusClient client(connectionTo(server.url()));
    VariableValuesLoader loader(&client);
    QSignalSpy loaded(&loader, &VariableValuesLoader::loaded);
    QSignalSpy failed(&loader, &VariableValuesLoader::failed);
    loader.load(jobVariable());
    ASSERT_TRUE(waitFor([&] { return server.requestCount(kJobValues) == 1; }, 5000));
    // The same question again is answered by the request on its way ...
    loader.load(jobVariable());
    // ... a different one (the selector changed with another variable) supersedes it.
    VariableDefinition narrowed = jobVariable();
    narrowed.labelMatch = QStringLiteral("up{env=\"blue\"}");
    loader.load(narrowed);
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty(); }, 10000));
    EXPECT_EQ(loaded.first().at(1).toStringList(), (QStringList{"starter", "new"}));
    // The older request was stopped on the wire, long before its answer would have ended,
    // and says nothing later.
    EXPECT_TRUE(waitFor([&] { return server.openConnectionsThatAsked() == 0; }, 4000))
        << server.openConnectionsThatAsked() << " connections that asked still open";
    EXPECT_FALSE(waitFor([&] { return loaded.size() > 1 || !failed.isEmpty(); }, 1500));
    EXPECT_EQ(server.requestCount(kJobValues), 2);
}

TEST(VariableFaults, LabelValuesGetTheClientsRetriesAndCap)
{
    FaultServer server;
    server.script(kJobValues, QList<Reply>{FaultServer::htmlError(502),
                                           FaultServer::json(R"({"status":"success","data":["a","starter"]})")});
    PrometheusConnection connection = connectionTo(server.url());
    connection.maxBodyBytes = 64 * 1024;
    PrometheusClient client(connection);
    VariableValuesLoader loader(&client);
    QSignalSpy loaded(&loader, &VariableValuesLoader::loaded);
    QSignalSpy failed(&loader, &VariableValuesLoader::failed);
    loader.load(jobVariable());
    ASSERT_TRUE(waitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 10000));
    ASSERT_TRUE(failed.isEmpty()) << failed.first().at(1).toString().toStdString();
    EXPECT_EQ(loaded.first().at(1).toStringList(), (QStringList{"a", "starter"}));
    EXPECT_EQ(server.requestCount(kJobValues), 2);

    server.script(kJobValues, FaultServer::huge(1024 * 1024));
    loader.load(jobVariable());
    ASSERT_TRUE(waitFor([&] { return !failed.isEmpty(); }, 10000));
    EXPECT_EQ(failed.first().at(1).toString(),
              QStringLiteral("Could not ask Prometheus for the values of label \"job\": Prometheus at "
                             "%1api/v1/label/job/values sent an answer larger than the limit of 64 KiB (at least 1 "
                             "MiB); is this the right URL?")
                  .arg(server.url().toString()));
}

// ---- The admin side ----

Result<LoadTesterStatus> awaitStatus(const LoadTesterAdapter::Reply &reply)
{
    const auto result = awaitResult(reply, 20000);
    if (!result)
        return Error::make(Kind::Invalid, QStringLiteral("the test gave up waiting"));
    return *result;
}

TEST(AdminFaults, EachFaultOfAStarterEndsInAMessageNamingIt)
{
    struct Case
    {
        const char *name;
        Reply reply;
        Kind kind;
        QString expected; // %1: host:port, %2: the URL of the request
    };
    const std::vector<Case> cases{
        {"problem 4xx", FaultServer::problemJson(409, "Conflict", "the rate is locked by a scenario"), Kind::Query,
         QStringLiteral("The starter at %1 refused: the rate is locked by a scenario (409)")},
        {"problem 5xx", FaultServer::problemJson(503, "Unavailable", "the engine is restarting"), Kind::Query,
         QStringLiteral("The starter at %1 refused: the engine is restarting (503)")},
        {"html 502", FaultServer::htmlError(502), Kind::Http,
         QStringLiteral("The starter at %1 answered HTTP 502 to /admin/rate: \"<!DOCTYPE html> <html><head><title>502 "
                        "Bad Gateway</title></head><body><h1>502 B…\"")},
        {"non-JSON 200", FaultServer::text("OK\n"), Kind::Parse,
         QStringLiteral("The starter at %1 answered /admin/rate with something that is not a load status (content "
                        "type 'text/plain'): \"OK\"; is this the starter's admin URL?")},
        {"never answers", FaultServer::neverAnswer(), Kind::Timeout,
         QStringLiteral("The starter at %2 did not answer within 300 ms.")},
    };
    for (const Case &c : cases) {
        FaultServer server;
        server.script({}, c.reply);
        auto adapter = makeLoadTesterAdapter(QStringLiteral("starter"), server.url());
        adapter->setTimeoutMs(300);
        const auto result = awaitStatus(adapter->setRate(100));
        ASSERT_FALSE(result.ok()) << c.name;
        EXPECT_EQ(result.error().kind, c.kind) << c.name << ": " << result.error().message.toStdString();
        const QString expected =
            QString(c.expected)
                .replace(QStringLiteral("%1"), server.url().authority())
                .replace(QStringLiteral("%2"), server.url().toString() + QStringLiteral("admin/rate"));
        EXPECT_EQ(result.error().message, expected) << c.name;
        EXPECT_EQ(server.requestCount("/admin/rate"), 1) << c.name << ": a change is never sent twice";
    }
    FaultServer refused;
    refused.stop();
    auto adapter = makeLoadTesterAdapter(QStringLiteral("starter"), refused.url());
    const auto result = awaitStatus(adapter->status());
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message,
              QStringLiteral("The starter at %1admin/status refused the connection; is it running, and are host and "
                             "port right?")
                  .arg(refused.url().toString()));
}

TEST(AdminFaults, AStatusReadIsTriedAgainAfterATransientFailureButAChangeIsNot)
{
    FaultServer server;
    const QByteArray status = R"({"rate":10,"inflightLimit":0,"inflight":0,"pending":0,"poolSize":100,)"
                              R"("paused":false,"sent":"1","instance":"s:1","version":"1"})";
    server.script("/admin/status", QList<Reply>{FaultServer::htmlError(502), FaultServer::json(status)});
    server.script("/admin/rate", QList<Reply>{FaultServer::htmlError(502), FaultServer::json(status)});
    auto adapter = makeLoadTesterAdapter(QStringLiteral("starter"), server.url());
    const auto read = awaitStatus(adapter->status());
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    EXPECT_EQ(read->rate, 10);
    EXPECT_EQ(server.requestCount("/admin/status"), 2);

    const auto changed = awaitStatus(adapter->setRate(10));
    ASSERT_FALSE(changed.ok());
    EXPECT_EQ(changed.error().httpStatus, 502);
    EXPECT_EQ(server.requestCount("/admin/rate"), 1);
}

TEST(AdminFaults, OneReplicaOfThreeFailingIsNamedWhileTheOthersAreSteered)
{
    TestbedProcess engine;
    ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
    std::array<TestbedProcess, 2> starters;
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    for (auto &starter : starters) {
        ASSERT_TRUE(starter.start(starterBinary(),
                                  {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                   QStringLiteral("20"), QStringLiteral("--max-rate"), QStringLiteral("1000")}))
            << starter.errorString().toStdString();
        replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), QUrl(starter.baseUrl())));
    }
    FaultServer broken;
    broken.script({}, FaultServer::problemJson(500, "Internal Server Error", "the rate controller crashed"));
    replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), broken.url()));

    LoadTesterController controller;
    controller.setReplicas(std::move(replicas));
    std::optional<ActionReport> report;
    QObject::connect(&controller, &LoadTesterController::actionFinished, &controller,
                     [&](const ActionReport &r) { report = r; });
    ASSERT_TRUE(controller.apply({LoadTesterAction::Kind::SetRate, 300}));
    ASSERT_TRUE(waitFor([&] { return report.has_value(); }, 30000));
    EXPECT_EQ(report->confirmedCount(), 2);
    EXPECT_TRUE(report->replicas[0].confirmed);
    EXPECT_TRUE(report->replicas[1].confirmed);
    ASSERT_TRUE(report->replicas[2].error);
    const QString summary = report->summary(controller.capabilities());
    EXPECT_TRUE(summary.contains(QStringLiteral("failed on 1 of 3 replicas"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(broken.url().authority())) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("the rate controller crashed"))) << summary.toStdString();
    // The two healthy replicas really run at the new rate.
    controller.startPolling();
    ASSERT_TRUE(
        waitFor([&] { return controller.status(0) && controller.status(1) && controller.statusError(2); }, 15000));
    EXPECT_EQ(controller.status(0)->rate, 300);
    EXPECT_EQ(controller.status(1)->rate, 300);
}

TEST(AdminFaults, AStarterKilledAndRestartedIsShownDownThenSteeredAgain)
{
    TestbedProcess engine;
    ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
    const QStringList arguments{QStringLiteral("--target"),   engine.baseUrl(),
                                QStringLiteral("--rate"),     QStringLiteral("20"),
                                QStringLiteral("--max-rate"), QStringLiteral("1000")};
    TestbedProcess starter;
    ASSERT_TRUE(starter.start(starterBinary(), arguments)) << starter.errorString().toStdString();
    const QString port = QString::number(starter.port());
    LoadTesterController controller;
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), QUrl(starter.baseUrl())));
    controller.setReplicas(std::move(replicas));
    controller.setPollIntervalMs(200);
    controller.startPolling();
    ASSERT_TRUE(waitFor([&] { return controller.status(0).has_value(); }, 15000));

    ::kill(pid_t(starter.pid()), SIGKILL); // no goodbye, as a crash or an OOM kill
    starter.stop();
    ASSERT_TRUE(waitFor([&] { return controller.statusError(0).has_value(); }, 15000));
    EXPECT_EQ(controller.statusError(0)->message,
              QStringLiteral("The starter at %1/admin/status refused the connection; is it running, and are host and "
                             "port right?")
                  .arg(starter.baseUrl()));
    EXPECT_FALSE(controller.status(0));

    TestbedProcess restarted; // on the same port: the dashboard's URL still points there
    ASSERT_TRUE(restarted.start(starterBinary(), arguments + QStringList{QStringLiteral("--port"), port}))
        << restarted.errorString().toStdString();
    ASSERT_TRUE(waitFor([&] { return controller.status(0).has_value(); }, 15000))
        << controller.statusError(0).value_or(Error()).message.toStdString();
    std::optional<ActionReport> report;
    QObject::connect(&controller, &LoadTesterController::actionFinished, &controller,
                     [&](const ActionReport &r) { report = r; });
    ASSERT_TRUE(controller.apply({LoadTesterAction::Kind::SetRate, 150}));
    ASSERT_TRUE(waitFor([&] { return report.has_value(); }, 30000));
    EXPECT_TRUE(report->allConfirmed()) << report->summary(controller.capabilities()).toStdString();
}

} // namespace
