// SPDX-License-Identifier: GPL-3.0-or-later
// Which failures are sent again, and after how long: transient ones with a growing,
// jittered wait (or the server's Retry-After), never a request the server refused.
#include "net/retrypolicy.h"

#include <QDateTime>
#include <gtest/gtest.h>

namespace {

using Kind = Error::Kind;

Error http(int status)
{
    return Error::make(Kind::Http, QStringLiteral("HTTP %1").arg(status), status);
}

Error prometheus(const char *errorType, int status)
{
    return Error::make(Kind::Query, QStringLiteral("rejected"), status, QString::fromLatin1(errorType));
}

} // namespace

TEST(RetryPolicy, OnlyFailuresThatMayPassByThemselvesAreTransient)
{
    EXPECT_TRUE(RetryPolicy::isTransient(Error::make(Kind::Network, QStringLiteral("refused"))));
    EXPECT_TRUE(RetryPolicy::isTransient(Error::make(Kind::Timeout, QStringLiteral("silent"))));
    for (const int status : {429, 502, 503, 504})
        EXPECT_TRUE(RetryPolicy::isTransient(http(status))) << status;
    for (const int status : {400, 401, 403, 404, 405, 413, 500, 501})
        EXPECT_FALSE(RetryPolicy::isTransient(http(status))) << status;
    EXPECT_TRUE(RetryPolicy::isTransient(prometheus("timeout", 503)));
    EXPECT_TRUE(RetryPolicy::isTransient(prometheus("unavailable", 503)));
    for (const char *type : {"bad_data", "canceled", "execution", "internal", "not_found"})
        EXPECT_FALSE(RetryPolicy::isTransient(prometheus(type, 422))) << type;
    EXPECT_FALSE(RetryPolicy::isTransient(Error::make(Kind::Parse, QStringLiteral("not JSON"))));
    EXPECT_FALSE(RetryPolicy::isTransient(Error::make(Kind::TooLarge, QStringLiteral("200 MiB"))));
    EXPECT_FALSE(RetryPolicy::isTransient(Error::make(Kind::Invalid, QStringLiteral("no URL"))));
}

TEST(RetryPolicy, WaitsGrowExponentiallyUpToTheCapAndStopAfterTheLastAttempt)
{
    RetryPolicy::Settings settings;
    settings.maxAttempts = 6;
    settings.initialDelayMs = 100;
    settings.maxDelayMs = 500;
    settings.jitter = 0;
    const RetryPolicy policy(settings);
    const Error down = Error::make(Kind::Network, QStringLiteral("refused"));
    EXPECT_EQ(policy.delayBeforeRetry(1, down), 100);
    EXPECT_EQ(policy.delayBeforeRetry(2, down), 200);
    EXPECT_EQ(policy.delayBeforeRetry(3, down), 400);
    EXPECT_EQ(policy.delayBeforeRetry(4, down), 500);
    EXPECT_EQ(policy.delayBeforeRetry(5, down), 500);
    EXPECT_EQ(policy.delayBeforeRetry(6, down), std::nullopt);
    EXPECT_EQ(policy.delayBeforeRetry(1, http(404)), std::nullopt);
}

TEST(RetryPolicy, JitterSpreadsWaitsWithinItsShare)
{
    RetryPolicy::Settings settings;
    settings.initialDelayMs = 1000;
    settings.jitter = 0.2;
    const RetryPolicy policy(settings);
    const Error down = Error::make(Kind::Timeout, QStringLiteral("silent"));
    EXPECT_EQ(policy.delayBeforeRetry(1, down, [] { return 0.0; }), 800);
    EXPECT_EQ(policy.delayBeforeRetry(1, down, [] { return 0.5; }), 1000);
    EXPECT_EQ(policy.delayBeforeRetry(1, down, [] { return 0.999999; }), 1200);
    for (int i = 0; i < 100; ++i) {
        const auto delay = policy.delayBeforeRetry(1, down);
        ASSERT_TRUE(delay);
        EXPECT_GE(*delay, 800);
        EXPECT_LE(*delay, 1200);
    }
}

TEST(RetryPolicy, RetryAfterWinsAndTooLongAPauseIsNotRetried)
{
    const RetryPolicy policy;
    Error busy = http(429);
    busy.retryAfterMs = 3000;
    EXPECT_EQ(policy.delayBeforeRetry(1, busy), 3000);
    busy.retryAfterMs = 3600 * 1000;
    EXPECT_EQ(policy.delayBeforeRetry(1, busy), std::nullopt);
}

TEST(RetryPolicy, RetryAfterInSecondsOrAsADate)
{
    const qint64 now = QDateTime(QDate(2015, 10, 21), QTime(7, 27, 0), Qt::UTC).toMSecsSinceEpoch();
    EXPECT_EQ(RetryPolicy::parseRetryAfter("120", now), 120'000);
    EXPECT_EQ(RetryPolicy::parseRetryAfter(" 0 ", now), 0);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now), 60'000);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("", now), std::nullopt);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("-5", now), std::nullopt);
    EXPECT_EQ(RetryPolicy::parseRetryAfter("soon", now), std::nullopt);
}
