// SPDX-License-Identifier: GPL-3.0-or-later
// Seed 000 ("Investigating load tester limits") in compressed time, end to end: the real
// chaoscope-starter sends to the real chaoscope-engine, a real Prometheus scrapes both every
// second, and every assertion reads its value back by PromQL, the way the dashboard sees it.
//
// The setup: engine 4 workers x 0.05 s = 80 instances/s; starter pool of 10 connections.
// The ceiling is 80/s (the pool would allow 10 / 0.05 s = 200/s, the engine's workers less).
//  (a) 40/s, half the ceiling: the pool keeps up, nothing waits for a connection, no 599.
//  (b) 240/s, three times the ceiling, no in-flight limit: requests pile up in the client
//      (pending grows by ~160/s) until their deadline passes and they fail as 599, while
//      the engine itself rejects nothing: the collapse is the load tester's own. A request
//      leaves the FIFO nearly at its deadline, so many expire in flight too, and the engine
//      spends its capacity on instances nobody waits for any more: far fewer are answered
//      than sent, the "started 435 PI/s, accepted 85" of the seed.
//  (c) the same 240/s with an in-flight limit of 20: in flight never exceeds 20, the
//      surplus ticks are skipped (counted), the answered rate stays at the ceiling, no 599.
#include "blockinghttp.h"
#include "prometheusprocess.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

namespace {

constexpr double kCeiling = 80; // 4 workers / 0.05 s
constexpr int kPoolSize = 10;

class Seed000Test : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(QFileInfo(starterBinary()).isExecutable()) << starterBinary().toStdString() << " is not built";
        ASSERT_TRUE(m_engine.start(engineBinary(), {QStringLiteral("--workers"), QStringLiteral("4"),
                                                    QStringLiteral("--service-time"), QStringLiteral("0.05"),
                                                    QStringLiteral("--service-distribution"), QStringLiteral("fixed")}))
            << m_engine.errorString().toStdString();
    }

    void TearDown() override
    {
        if (HasFailure()) {
            // What the starter and engine said, and the values behind the assertions.
            std::cerr << "starter log:\n"
                      << m_starter.log().toStdString() << "\nengine log:\n"
                      << m_engine.log().toStdString() << "\n";
            for (const char *query :
                 {"rate(starter_requests_sent_total[5s])",
                  "rate(starter_requests_received_total{outcome=\"success\"}[5s])", "http_client_pool_pending",
                  "http_client_pool_leased", "starter_requests_inflight",
                  "sum(http_client_request_seconds_count{status=\"599\"})",
                  "rate(engine_process_instances_completed_total[5s])", "engine_queue_length"}) {
                std::cerr << "  " << query << " = " << value(QString::fromLatin1(query)) << "\n";
            }
        }
    }

    // Starts the starter idle (rate 0), Prometheus scraping both, and once both are scraped
    // raises the rate through the admin API, as a user would: the whole run is on record.
    void startLoad(double rate, int inflightLimit, double deadlineSeconds)
    {
        ASSERT_TRUE(m_starter.start(
            starterBinary(),
            {QStringLiteral("--target"), m_engine.baseUrl(), QStringLiteral("--rate"), QStringLiteral("0"),
             QStringLiteral("--inflight-limit"), QString::number(inflightLimit), QStringLiteral("--pool-size"),
             QString::number(kPoolSize), QStringLiteral("--deadline"), QString::number(deadlineSeconds)}))
            << m_starter.errorString().toStdString();
        ASSERT_TRUE(m_prometheus.start(
            {{QStringLiteral("engine"), m_engine.hostPort()}, {QStringLiteral("starter"), m_starter.hostPort()}}))
            << m_prometheus.errorString().toStdString();
        ASSERT_TRUE(m_prometheus.waitForSeries(QStringLiteral("count(up{job=~\"engine|starter\"} == 1) == 2"), 20000))
            << m_prometheus.log().toStdString();
        const BlockingHttp::Answer answer =
            BlockingHttp::request("PUT", m_starter.baseUrl() + QStringLiteral("/admin/rate"),
                                  QStringLiteral("{\"rate\": %1}").arg(rate).toUtf8(), "application/json");
        ASSERT_EQ(answer.status, 200) << answer.body.constData();
    }

    double value(const QString &query) { return m_prometheus.instantValue(query); }

    // Waits until Prometheus holds at least `samples` scrapes of the starter.
    bool waitForScrapes(int samples, int timeoutMs)
    {
        const QString query = QStringLiteral("count_over_time(starter_requests_sent_total[1m]) >= %1").arg(samples);
        return m_prometheus.waitForSeries(query, timeoutMs);
    }

    // The 599 total; an absent series (no 599 ever) counts as 0.
    double timeouts()
    {
        return value(QStringLiteral("sum(http_client_request_seconds_count{status=\"599\"}) or vector(0)"));
    }

    TestbedProcess m_engine;
    TestbedProcess m_starter;
    PrometheusProcess m_prometheus;
};

} // namespace

TEST_F(Seed000Test, BelowThePoolCeilingNothingWaitsAndNothingTimesOut)
{
    startLoad(kCeiling / 2, 0, 2);
    ASSERT_TRUE(waitForScrapes(12, 40000));

    // The load flows: what is sent is answered, at the commanded rate.
    const double answered = value(QStringLiteral("rate(starter_requests_received_total{outcome=\"success\"}[10s])"));
    EXPECT_NEAR(answered, 40, 8);
    EXPECT_NEAR(value(QStringLiteral("rate(engine_process_instances_completed_total[10s])")), 40, 8);

    // Nothing waits for a connection (a sample may catch one in passing), none times out.
    EXPECT_LE(value(QStringLiteral("max_over_time(http_client_pool_pending[1m])")), 2);
    EXPECT_LE(value(QStringLiteral("max_over_time(http_client_pool_leased[1m])")), kPoolSize);
    EXPECT_EQ(timeouts(), 0);
    EXPECT_EQ(value(QStringLiteral("sum(starter_requests_received_total{outcome=\"failure\"})")), 0);
    EXPECT_EQ(value(QStringLiteral("engine_requests_total{outcome=\"rejected\"}")), 0);
}

TEST_F(Seed000Test, AboveThePoolCeilingPendingGrowsAndRequestsTimeOut)
{
    // A 6 s deadline, so that the growth is visible for several 1 s scrapes before the
    // deadline caps it.
    constexpr double kRate = 3 * kCeiling;
    startLoad(kRate, 0, 6);

    // Pending as Prometheus scraped it, one entry per scrape, until the first 599s appear.
    struct Sample
    {
        double time;
        double pending;
    };
    std::vector<Sample> growth;
    const bool timedOut = waitFor(
        [&] {
            const double at = value(QStringLiteral("timestamp(http_client_pool_pending)"));
            const double pending = value(QStringLiteral("http_client_pool_pending"));
            if (!std::isnan(at) && !std::isnan(pending) && (growth.empty() || at > growth.back().time))
                growth.push_back({at, pending});
            return timeouts() > 0;
        },
        30000, 250);
    ASSERT_TRUE(timedOut) << "no request failed with 599 within 30 s";

    // Steady growth: scrape after scrape pending rises, by about sent - ceiling = 160/s.
    std::vector<Sample> rising;
    for (const Sample &sample : growth) {
        if (sample.pending > 0)
            rising.push_back(sample);
    }
    ASSERT_GE(rising.size(), 3u) << "too few scrapes while pending grew";
    for (std::size_t i = 1; i < rising.size(); ++i) {
        EXPECT_GE(rising[i].pending, rising[i - 1].pending - 5)
            << "pending fell from " << rising[i - 1].pending << " to " << rising[i].pending;
    }
    const double slope = (rising.back().pending - rising.front().pending) / (rising.back().time - rising.front().time);
    EXPECT_GT(slope, 80) << "pending per second; expected about " << kRate - kCeiling;
    EXPECT_GT(rising.back().pending, 300);

    // Once the deadline bites, the surplus fails as 599 and the backlog stays.
    ASSERT_TRUE(m_prometheus.waitForSeries(
        QStringLiteral("sum(increase(http_client_request_seconds_count{status=\"599\"}[5s])) > 0 "
                       "and on() count_over_time(http_client_pool_pending[1m]) >= 10"),
        20000));
    ASSERT_TRUE(waitFor(
        [&] { return value(QStringLiteral("sum(rate(http_client_request_seconds_count{status=\"599\"}[5s]))")) > 80; },
        15000))
        << "599/s = " << value(QStringLiteral("sum(rate(http_client_request_seconds_count{status=\"599\"}[5s]))"));
    EXPECT_GT(value(QStringLiteral("min_over_time(http_client_pool_pending[3s])")), 200);
    EXPECT_EQ(value(QStringLiteral("max_over_time(http_client_pool_leased[1m])")), kPoolSize);

    // The starter sends what it was told, most of it is never answered, and the gap is the
    // client's timeouts: the engine works at its ceiling (partly on requests whose client
    // has given up) and rejects nothing.
    const double sent = value(QStringLiteral("rate(starter_requests_sent_total[5s])"));
    const double answered = value(QStringLiteral("rate(starter_requests_received_total{outcome=\"success\"}[5s])"));
    EXPECT_GT(sent, 0.85 * kRate) << "the starter keeps sending at the commanded rate";
    EXPECT_LT(answered, 0.5 * sent);
    EXPECT_LT(answered, 1.15 * kCeiling);
    EXPECT_GT(value(QStringLiteral("rate(engine_process_instances_completed_total[5s])")), 0.85 * kCeiling);
    EXPECT_EQ(value(QStringLiteral("engine_requests_total{outcome=\"rejected\"}")), 0);
    EXPECT_GT(value(QStringLiteral("histogram_quantile(0.99, sum by (le) "
                                   "(rate(http_client_request_seconds_bucket[5s])))")),
              2)
        << "p99 includes the requests that waited until their deadline";
}

TEST_F(Seed000Test, WithAnInflightLimitTheStarterSkipsInsteadOfQueueing)
{
    constexpr double kRate = 3 * kCeiling;
    constexpr int kLimit = 20;
    startLoad(kRate, kLimit, 5);
    // About 18 s of load: the steadiness check below leaves out the first 5 s (the ramp of
    // the 5 s rate window right after the rate was raised).
    ASSERT_TRUE(waitForScrapes(20, 45000));

    EXPECT_LE(value(QStringLiteral("max_over_time(starter_requests_inflight[1m])")), kLimit);
    EXPECT_GE(value(QStringLiteral("max_over_time(starter_requests_inflight[1m])")), kPoolSize)
        << "the limit, not a lack of load, keeps in-flight down";
    EXPECT_LE(value(QStringLiteral("max_over_time(http_client_pool_pending[1m])")), kLimit - kPoolSize);

    // The surplus (sent would be 240/s, the engine answers 80/s) is skipped, and counted.
    EXPECT_GT(value(QStringLiteral("starter_requests_skipped_total")), 0);
    EXPECT_GT(value(QStringLiteral("rate(starter_requests_skipped_total[10s])")), 0.5 * (kRate - kCeiling));

    // The answered rate is steady at the ceiling: every 5 s window of the last 8 s.
    const QString answered = QStringLiteral("rate(starter_requests_received_total{outcome=\"success\"}[5s])[8s:1s]");
    const double low = value(QStringLiteral("min_over_time(") + answered + QLatin1Char(')'));
    const double high = value(QStringLiteral("max_over_time(") + answered + QLatin1Char(')'));
    EXPECT_GT(low, 0.7 * kCeiling);
    EXPECT_LT(high, 1.15 * kCeiling);
    EXPECT_LT(high - low, 0.25 * kCeiling) << "low " << low << ", high " << high;

    // Nobody waits long enough to time out.
    EXPECT_EQ(timeouts(), 0);
    EXPECT_EQ(value(QStringLiteral("engine_requests_total{outcome=\"rejected\"}")), 0);
}
