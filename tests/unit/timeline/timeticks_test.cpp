// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timeticks.h"

#include <gtest/gtest.h>

TEST(TimeTicks, FifteenMinutesOnAWidePanelGetsRoundMinuteTicks)
{
    // 12:03:17 … 12:18:17 UTC over 1000 px, labels at least 80 px apart.
    const qint64 start = 1'700'000'000'000 - 1'700'000'000'000 % 3'600'000 + 3 * 60'000 + 17'000;
    const auto ticks = TimeTicks::compute({start, start + 15 * 60'000}, 1000, 80, 0);
    EXPECT_EQ(ticks.intervalMs, 2 * 60'000);
    ASSERT_FALSE(ticks.instantsMs.empty());
    for (qint64 t : ticks.instantsMs) {
        EXPECT_EQ(t % (2 * 60'000), 0);
        EXPECT_GE(t, start);
        EXPECT_LE(t, start + 15 * 60'000);
    }
    EXPECT_EQ(ticks.labelFormat, QStringLiteral("HH:mm"));
}

TEST(TimeTicks, ShortRangesUseSecondsAndLocalOffsetShiftsHourTicks)
{
    const auto seconds = TimeTicks::compute({0, 60'000}, 600, 80, 0);
    EXPECT_EQ(seconds.intervalMs, 10'000);
    EXPECT_EQ(seconds.labelFormat, QStringLiteral("HH:mm:ss"));
    EXPECT_EQ(seconds.instantsMs.size(), 7u); // 0, 10, … 60 s

    // UTC+5:30: six-hour ticks fall on local 00:00, 06:00 …, i.e. at 18:30, 00:30 UTC.
    const qint64 offset = 5 * 3'600'000 + 30 * 60'000;
    const auto hours = TimeTicks::compute({0, 2 * 86'400'000}, 800, 80, offset);
    EXPECT_EQ(hours.intervalMs, 6 * 3'600'000);
    for (qint64 t : hours.instantsMs)
        EXPECT_EQ((t + offset) % hours.intervalMs, 0);
}

TEST(TimeTicks, DegenerateInputGivesNoTicks)
{
    EXPECT_TRUE(TimeTicks::compute({5, 5}, 100, 80, 0).instantsMs.empty());
    EXPECT_TRUE(TimeTicks::compute({0, 1000}, 0, 80, 0).instantsMs.empty());
}
