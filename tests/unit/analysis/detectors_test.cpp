// SPDX-License-Identifier: GPL-3.0-or-later
// Detectors on series shaped like the seeds' runs (a 1 s step, with jitter), each with events
// at known instants: every event is suggested once, at the right time, and quiet stretches
// suggest nothing.
#include "analysis/detectors.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <vector>

namespace {

struct Recorded
{
    std::vector<qint64> t;
    std::vector<double> v;
};

constexpr qint64 kStart = 1'700'000'000'000;

// Seconds 0..n-1 with a deterministic wobble (±2 % by default, like a rate() over real
// scrapes; gauges such as a backlog jitter less).
Recorded record(int seconds, const std::function<double(int)> &level, double wobble = 0.02)
{
    Recorded r;
    for (int s = 0; s < seconds; ++s) {
        r.t.push_back(kStart + s * 1000LL);
        r.v.push_back(level(s) * (1 + wobble * std::sin(s * 1.7)));
    }
    return r;
}

TEST(Detectors, ThroughputDropIsSuggestedOnceWhenItHappens)
{
    // Seed 000: completed/s steady near 298, then the worker is scaled to 0 at 300 s and it
    // falls within 20 s to about 113; it recovers at 600 s and drops again at 900 s.
    const Recorded completed = record(1200, [](int s) {
        if (s < 300 || (s >= 600 && s < 900))
            return 298.0;
        const int since = s < 600 ? s - 300 : s - 900;
        return std::max(113.0, 298.0 - since * 10.0);
    });
    const auto found = Detectors::throughputDrops(completed.t, completed.v, QStringLiteral("completed/s"));
    ASSERT_EQ(found.size(), 2u);
    for (const DetectorSuggestion &s : found)
        EXPECT_EQ(s.detector, QStringLiteral("throughput-drop"));
    // 30 % below ~298 is reached about 9–10 s after the start of each fall.
    EXPECT_NEAR(double(found[0].timeMs - kStart) / 1000, 309, 2);
    EXPECT_NEAR(double(found[1].timeMs - kStart) / 1000, 909, 2);
    EXPECT_TRUE(found[0].text.startsWith(QStringLiteral("completed/s fell 3"))) << found[0].text.toStdString();
}

TEST(Detectors, WobbleAndIdleNoiseSuggestNothing)
{
    const Recorded steady = record(900, [](int) { return 200.0; });
    EXPECT_TRUE(Detectors::throughputDrops(steady.t, steady.v, QStringLiteral("x")).empty());
    const Recorded idle = record(900, [](int s) { return s % 7 == 0 ? 0.5 : 0.0; });
    EXPECT_TRUE(Detectors::throughputDrops(idle.t, idle.v, QStringLiteral("x")).empty()) << "below the floor";
}

TEST(Detectors, TargetDownAndBackAreBothSuggested)
{
    Recorded up = record(300, [](int s) { return s >= 100 && s < 160 ? 0.0 : 1.0; });
    for (double &v : up.v)
        v = std::round(v);
    const auto found = Detectors::targetUpDown(up.t, up.v, QStringLiteral("starter 127.0.0.1:9091"));
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0],
              (DetectorSuggestion{kStart + 100'000, std::nullopt, QStringLiteral("starter 127.0.0.1:9091 went down"),
                                  QStringLiteral("target-down")}));
    EXPECT_EQ(found[1].timeMs, kStart + 160'000);
    EXPECT_EQ(found[1].detector, QStringLiteral("target-up"));
}

TEST(Detectors, BacklogGrowingWhileThroughputLooksRecoveredIsARegion)
{
    // Seed 004: after the fix throughput is back at 210/s and flat, but the exporter backlog
    // keeps growing from 400 s to 1000 s; before that it grows only briefly (60 s).
    const Recorded throughput = record(1200, [](int s) { return s < 300 ? 150.0 : 210.0; });
    const Recorded backlog = record(
        1200,
        [](int s) {
            if (s < 100)
                return 500.0;
            if (s < 160)
                return 500.0 + (s - 100) * 20.0; // short growth: not reported
            if (s < 400)
                return 1700.0;
            if (s < 1000)
                return 1700.0 + (s - 400) * 15.0;
            return 10700.0;
        },
        0.002);
    const auto found = Detectors::backlogGrowsWhileFlat(backlog.t, backlog.v, throughput.t, throughput.v);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NEAR(double(found[0].timeMs - kStart) / 1000, 400, 15);
    ASSERT_TRUE(found[0].endMs);
    EXPECT_NEAR(double(*found[0].endMs - kStart) / 1000, 1000, 15);
    EXPECT_TRUE(found[0].text.contains(QStringLiteral("while throughput stayed at 210/s")))
        << found[0].text.toStdString();
}

TEST(Detectors, BacklogGrowingWhileThroughputAlsoGrowsIsNotSuspicious)
{
    const Recorded throughput = record(900, [](int s) { return 50.0 + s; });
    const Recorded backlog = record(900, [](int s) { return 100.0 + s * 10.0; });
    EXPECT_TRUE(Detectors::backlogGrowsWhileFlat(backlog.t, backlog.v, throughput.t, throughput.v).empty());
}

TEST(Detectors, TimeoutRateCrossingTheThresholdOnEachRise)
{
    // Seed 000: 599s appear at 120 s (about 190/s), stop at 240 s, come back at 400 s.
    const Recorded timeouts = record(
        600, [](int s) { return (s >= 120 && s < 240) || s >= 400 ? 190.0 : 0.0; }, 0.0);
    DetectorThresholds thresholds;
    thresholds.rateAbove = 5;
    const auto found =
        Detectors::rateAbove(timeouts.t, timeouts.v, QStringLiteral("599 timeouts"), QStringLiteral("/s"), thresholds);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].timeMs, kStart + 120'000);
    EXPECT_EQ(found[1].timeMs, kStart + 400'000);
    EXPECT_EQ(found[0].text, QStringLiteral("599 timeouts rose to 190/s (above 5/s)"));
}

TEST(Detectors, ATimeoutRateFlappingAroundTheThresholdIsOneEvent)
{
    // Above for 3 s, below for 2 s, again and again for two minutes: one rise, not 24; after
    // a quiet minute the next rise is news again.
    const Recorded timeouts = record(
        400, [](int s) { return s < 120    ? (s % 5 < 3 ? 20.0 : 0.0)
                                : s >= 300 ? 20.0
                                           : 0.0; }, 0.0);
    DetectorThresholds thresholds;
    thresholds.rateAbove = 5;
    const auto found =
        Detectors::rateAbove(timeouts.t, timeouts.v, QStringLiteral("599 timeouts"), QStringLiteral("/s"), thresholds);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].timeMs, kStart);
    EXPECT_EQ(found[1].timeMs, kStart + 300'000);
}

} // namespace

TEST(Detectors, ABigBacklogIsWrittenWithAnSIPrefixOnItsMarker)
{
    // The Camunda exporter backlog of seed 003: from a few hundred records to 1.7 million in
    // ten minutes, while throughput stays at 180/s.
    std::vector<qint64> t;
    std::vector<double> backlog, throughput;
    for (int s = 0; s <= 900; ++s) {
        t.push_back(1'700'000'000'000 + qint64(s) * 1000);
        backlog.push_back(s < 120 ? 182 : 182 + (s - 120) * 2200.0);
        throughput.push_back(180 + (s % 2));
    }
    const std::vector<DetectorSuggestion> found = Detectors::backlogGrowsWhileFlat(t, backlog, t, throughput);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].text.toStdString(),
              "backlog grew 182 → 1.71M over 12 min 57 s while throughput stayed at 181/s");
}
