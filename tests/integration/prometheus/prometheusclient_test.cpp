// SPDX-License-Identifier: GPL-3.0-or-later
// The client against the real Prometheus (Debian's binary on a free loopback port, scraping
// itself every second).
#include "prometheus/prometheusclient.h"
#include "prometheus/stepplanner.h"
#include "prometheusprocess.h"
#include "waitfor.h"

#include <QDateTime>
#include <QSignalSpy>
#include <cmath>
#include <gtest/gtest.h>

namespace {

using Kind = Error::Kind;
using QueryFuture = QFuture<Result<PromQueryResult>>;

Result<PromQueryResult> await(const QueryFuture &future, int timeoutMs = 20000)
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

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

class ClientAgainstPrometheus : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_prometheus = new PrometheusProcess;
        if (!s_prometheus->startOrShare()) {
            s_startError = s_prometheus->errorString();
        } else if (!s_prometheus->waitForSeries(QStringLiteral("up"), 30000)) {
            s_startError = QStringLiteral("no 'up' series: ") + s_prometheus->log();
        }
        if (!s_startError.isEmpty()) {
            delete s_prometheus;
            s_prometheus = nullptr;
            return;
        }
        // The server ctest shares has been scraping for a while: its history counts.
        const qint64 oldest = s_prometheus->isShared() ? s_prometheus->oldestSampleMs(QStringLiteral("up")) : 0;
        s_firstSampleSeenMs = oldest > 0 ? oldest : nowMs();
    }
    // Range tests need some history; only the tests that need it wait for it (ctest runs
    // each test in a process of its own: a server of its own when none is shared).
    static void waitForHistory(qint64 ms)
    {
        waitFor([ms] { return nowMs() - s_firstSampleSeenMs > ms; }, static_cast<int>(ms) + 1000, 100);
    }
    static void TearDownTestSuite()
    {
        delete s_prometheus;
        s_prometheus = nullptr;
    }
    void SetUp() override
    {
        if (!s_prometheus)
            FAIL() << "prometheus did not start: " << s_startError.toStdString();
    }

    static PrometheusConnection connection()
    {
        PrometheusConnection connection;
        connection.baseUrl = s_prometheus->url();
        return connection;
    }

    static PrometheusProcess *s_prometheus;
    static QString s_startError;
    static qint64 s_firstSampleSeenMs;
};
PrometheusProcess *ClientAgainstPrometheus::s_prometheus = nullptr;
QString ClientAgainstPrometheus::s_startError;
qint64 ClientAgainstPrometheus::s_firstSampleSeenMs = 0;

} // namespace

TEST_F(ClientAgainstPrometheus, InstantUpIsOneWithTheJobLabel)
{
    PrometheusClient client(connection());
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->type, PromQueryResult::Type::Vector);
    ASSERT_EQ(result->series.size(), 1u);
    const PromSeries &up = result->series.front();
    EXPECT_EQ(up.labels.value(QStringLiteral("job")), QStringLiteral("prometheus"));
    EXPECT_EQ(up.labels.value(QStringLiteral("__name__")), QStringLiteral("up"));
    ASSERT_EQ(up.values.size(), 1u);
    EXPECT_EQ(up.values.front(), 1.0);
    EXPECT_LE(std::abs(up.timestampsMs.front() - nowMs()), 10000);
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_TRUE(reachability.at(0).at(0).toBool());
}

TEST_F(ClientAgainstPrometheus, InstantQueryAtAGivenTime)
{
    PrometheusClient client(connection());
    // A time with milliseconds, after the first scrape (whose sample the lookback finds).
    const qint64 at = s_firstSampleSeenMs + 123;
    waitForHistory(200);
    const auto result = await(client.instantQuery(QStringLiteral("up"), at));
    ASSERT_TRUE(result.ok()) << describe(result);
    ASSERT_EQ(result->series.size(), 1u);
    EXPECT_EQ(result->series.front().timestampsMs.front(), at);
}

TEST_F(ClientAgainstPrometheus, RangeOverTheLastThirtySecondsIsIncreasingAndOnTheStepGrid)
{
    waitForHistory(5000);
    PrometheusClient client(connection());
    const qint64 step = 1000;
    const TimeRange range = StepPlanner::alignToStep({nowMs() - 30000, nowMs()}, step);
    const auto result = await(client.rangeQuery(QStringLiteral("up"), range, step));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->type, PromQueryResult::Type::Matrix);
    ASSERT_EQ(result->series.size(), 1u);
    const PromSeries &up = result->series.front();
    // From Prometheus' first scrape on (a few seconds ago, or before the window when shared).
    ASSERT_GE(up.timestampsMs.size(), 5u);
    EXPECT_EQ(up.timestampsMs.back(), range.endMs);
    for (size_t i = 0; i < up.timestampsMs.size(); ++i) {
        EXPECT_EQ(up.timestampsMs[i] % step, 0) << i;
        EXPECT_TRUE(range.contains(up.timestampsMs[i]));
        EXPECT_EQ(up.values[i], 1.0);
        if (i > 0) {
            EXPECT_EQ(up.timestampsMs[i] - up.timestampsMs[i - 1], step) << i; // no gap
        }
    }
}

TEST_F(ClientAgainstPrometheus, ASplitRangeGivesTheSameSamplesAsOneRequest)
{
    const QString query = QStringLiteral("{__name__=~\"up|prometheus_tsdb_head_samples_appended_"
                                         "total|prometheus_http_requests_total\"}");
    waitForHistory(7000);
    PrometheusClient whole(connection());

    // From the first sample on (or a minute ago, when shared) to a little in the past, so
    // that later scrapes cannot change what either request sees.
    const qint64 step = 500;
    const auto probe = await(whole.rangeQuery(QStringLiteral("up"), {nowMs() - 60000, nowMs()}, step));
    ASSERT_TRUE(probe.ok() && !probe->series.empty()) << describe(probe);
    const TimeRange range =
        StepPlanner::alignToStep({probe->series.front().timestampsMs.front(), nowMs() - 2000}, step);

    PrometheusConnection splitting = connection();
    splitting.maxPointsPerRequest = 4;
    PrometheusClient split(splitting);
    ASSERT_GE(StepPlanner::splitRange(range, step, 4).size(), 3u) << range.length();

    const auto one = await(whole.rangeQuery(query, range, step));
    const auto many = await(split.rangeQuery(query, range, step));
    ASSERT_TRUE(one.ok()) << describe(one);
    ASSERT_TRUE(many.ok()) << describe(many);
    ASSERT_GE(one->series.size(), 3u);

    std::map<QString, const PromSeries *> expected;
    for (const PromSeries &series : one->series)
        expected[series.labelKey()] = &series;
    ASSERT_EQ(many->series.size(), one->series.size());
    size_t samples = 0;
    for (const PromSeries &series : many->series) {
        const auto found = expected.find(series.labelKey());
        ASSERT_NE(found, expected.end()) << series.labelKey().toStdString();
        EXPECT_EQ(series.timestampsMs, found->second->timestampsMs) << series.labelKey().toStdString();
        EXPECT_EQ(series.values, found->second->values) << series.labelKey().toStdString();
        samples += series.timestampsMs.size();
    }
    EXPECT_GE(samples, 3u * 8u);
}

TEST_F(ClientAgainstPrometheus, ARejectedQueryCarriesTheServersMessage)
{
    PrometheusClient client(connection());
    const auto result = await(client.instantQuery(QStringLiteral("sum(rate(up[1m]")));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().kind, Kind::Query);
    EXPECT_EQ(result.error().httpStatus, 400);
    EXPECT_EQ(result.error().detail, QStringLiteral("bad_data"));
    EXPECT_TRUE(result.error().message.startsWith(QStringLiteral("Prometheus rejected the query: ")))
        << describe(result);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("parse error"))) << describe(result);
    EXPECT_TRUE(result.error().message.endsWith(QStringLiteral("(bad_data)"))) << describe(result);

    const auto range = await(client.rangeQuery(QStringLiteral("up +"), {nowMs() - 10000, nowMs()}, 1000));
    ASSERT_FALSE(range.ok());
    EXPECT_EQ(range.error().kind, Kind::Query);
}

TEST_F(ClientAgainstPrometheus, SpecialValuesScalarsAndStrings)
{
    PrometheusClient client(connection());
    const auto nan = await(client.instantQuery(QStringLiteral("0/0")));
    const auto inf = await(client.instantQuery(QStringLiteral("-1/0")));
    const auto text = await(client.instantQuery(QStringLiteral("\"a + b\"")));
    ASSERT_TRUE(nan.ok() && inf.ok() && text.ok());
    EXPECT_EQ(nan->type, PromQueryResult::Type::Scalar);
    EXPECT_TRUE(std::isnan(nan->series.front().values.front()));
    EXPECT_EQ(inf->series.front().values.front(), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(text->type, PromQueryResult::Type::String);
    EXPECT_EQ(text->text, QStringLiteral("a + b")); // '+' survived the URL

    const auto sum = await(client.instantQuery(QStringLiteral("1 + 2")));
    ASSERT_TRUE(sum.ok()) << describe(sum);
    EXPECT_EQ(sum->series.front().values.front(), 3.0);
}

TEST_F(ClientAgainstPrometheus, ManySeriesAreCappedWithAWarning)
{
    PrometheusConnection capped = connection();
    capped.parserLimits.maxSeries = 20;
    PrometheusClient client(capped);
    const auto result = await(client.instantQuery(QStringLiteral("{__name__=~\".+\"}")));
    ASSERT_TRUE(result.ok()) << describe(result);
    EXPECT_EQ(result->series.size(), 20u);
    EXPECT_TRUE(result->truncated);
    EXPECT_TRUE(result->warnings.contains(seriesCapWarning(20)));

    const auto empty = await(client.instantQuery(QStringLiteral("no_such_metric_anywhere")));
    ASSERT_TRUE(empty.ok()) << describe(empty);
    EXPECT_TRUE(empty->series.empty());
}

TEST(ClientAgainstStoppedPrometheus, StoppingPrometheusMarksTheSourceDown)
{
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.start()) << prometheus.errorString().toStdString();
    PrometheusConnection connection;
    connection.baseUrl = prometheus.url();
    connection.timeoutMs = 3000;
    PrometheusClient client(connection);
    QSignalSpy reachability(&client, &PrometheusClient::reachabilityChanged);

    ASSERT_TRUE(await(client.instantQuery(QStringLiteral("1"))).ok());
    ASSERT_EQ(reachability.size(), 1);
    EXPECT_TRUE(reachability.at(0).at(0).toBool());

    prometheus.stop();
    const auto result = await(client.instantQuery(QStringLiteral("up")));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().kind == Kind::Network || result.error().kind == Kind::Timeout) << describe(result);
    EXPECT_TRUE(result.error().message.contains(prometheus.url().toString())) << describe(result);
    ASSERT_EQ(reachability.size(), 2);
    EXPECT_FALSE(reachability.at(1).at(0).toBool());
    EXPECT_EQ(reachability.at(1).at(1).toString(), result.error().message);
}
