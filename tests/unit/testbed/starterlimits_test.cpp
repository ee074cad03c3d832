// SPDX-License-Identifier: GPL-3.0-or-later
// The starter's resource limits: the CFS model of --cpu-limit (CpuQuota), the memory model
// of --memory-limit (MemoryLimit), their flags, and the Kubernetes quantities they take.
#include "cpuquota.h"
#include "memorylimit.h"
#include "resourcequantity.h"
#include "starteroptions.h"

#include <gtest/gtest.h>

using namespace std::chrono_literals;

TEST(CpuQuota, A250MillicorePeriodLetsThrough25RequestsOfAMillisecond)
{
    CpuQuota quota(0.25, 0.001);
    const auto t0 = CpuQuota::Clock::time_point{} + 1h;
    EXPECT_EQ(quota.grant(t0, 40), 25);
    EXPECT_EQ(quota.grant(t0 + 50ms, 15), 0) << "the period's quota is spent";
    EXPECT_EQ(quota.periods(), 1);
    EXPECT_EQ(quota.throttledPeriods(), 1);
    EXPECT_NEAR(quota.throttledSeconds(), 0.1, 1e-6) << "throttled from the first grant on";
    EXPECT_EQ(quota.grant(t0 + 100ms, 15), 15);
    EXPECT_EQ(quota.periods(), 2);
    EXPECT_EQ(quota.throttledPeriods(), 1) << "the second period had room";
    EXPECT_DOUBLE_EQ(quota.requestsPerSecond(), 250);
}

TEST(CpuQuota, IdlePeriodsCountNowhereAndPeriodsStayAligned)
{
    CpuQuota quota(1, 0.01); // 10 per period
    const auto t0 = CpuQuota::Clock::time_point{} + 1h;
    EXPECT_EQ(quota.grant(t0, 0), 0);
    EXPECT_EQ(quota.periods(), 0) << "nothing wanted: not runnable, not a period";
    EXPECT_EQ(quota.grant(t0, 10), 10);
    EXPECT_EQ(quota.grant(t0 + 1s + 30ms, 10), 10);
    EXPECT_EQ(quota.nextPeriod(), t0 + 1s + 100ms);
    EXPECT_EQ(quota.periods(), 2);
    EXPECT_EQ(quota.throttledPeriods(), 0);
}

TEST(MemoryLimit, RequestsInFlightHoldSixKibibytesEachAndOneTooManyIsTheEnd)
{
    const MemoryLimit limit(64 * 1024 * 1024, MemoryLimit::defaultBytesPerRequest);
    EXPECT_TRUE(limit.isEnabled());
    EXPECT_FALSE(limit.isExceeded(10922)); // 10922 x 6 KiB < 64 MiB
    EXPECT_TRUE(limit.isExceeded(10923));
    EXPECT_TRUE(limit.describe(10923).contains(QStringLiteral("--memory-limit")));
    EXPECT_FALSE(MemoryLimit(0, 6144).isExceeded(1000000)) << "0 = no limit";
}

TEST(StarterOptions, LimitsTakeKubernetesQuantities)
{
    StarterOptionsParser parser;
    ASSERT_EQ(parser.parse({"chaoscope-starter", "--cpu-limit", "250m", "--memory-limit", "256Mi"}),
              StarterOptionsParser::Outcome::Run)
        << parser.errorText().toStdString();
    EXPECT_DOUBLE_EQ(parser.options().cpuLimitCores, 0.25);
    EXPECT_EQ(parser.options().memoryLimitBytes, 256 * 1024 * 1024);
    EXPECT_EQ(parser.parse({"chaoscope-starter", "--memory-limit", "lots"}), StarterOptionsParser::Outcome::Invalid);
    EXPECT_TRUE(parser.errorText().contains(QStringLiteral("--memory-limit")));
    EXPECT_EQ(parser.parse({"chaoscope-starter", "--cpu-limit", "-1"}), StarterOptionsParser::Outcome::Invalid);
}

TEST(ResourceQuantity, ReadsAndSpellsQuantitiesAsTheApiServerDoes)
{
    const auto canonical = [](const char *text) {
        const std::optional<ResourceQuantity> q = ResourceQuantity::parse(QString::fromLatin1(text));
        return q ? q->canonical().toStdString() : std::string("invalid");
    };
    EXPECT_EQ(canonical("0.5"), "500m");
    EXPECT_EQ(canonical("500m"), "500m");
    EXPECT_EQ(canonical("2"), "2");
    EXPECT_EQ(canonical("1024Mi"), "1Gi");
    EXPECT_EQ(canonical("1.5Gi"), "1536Mi");
    EXPECT_EQ(canonical("1e3"), "1k");
    EXPECT_EQ(canonical("100M"), "100M");
    EXPECT_EQ(canonical("2 cores"), "invalid");
    EXPECT_EQ(canonical("1Q"), "invalid");
    EXPECT_EQ(ResourceQuantity::parse(QStringLiteral("250m"))->milliValue(), 250);
    EXPECT_EQ(ResourceQuantity::parse(QStringLiteral("1Ki"))->integerValue(), 1024);
}
