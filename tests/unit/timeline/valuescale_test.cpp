// SPDX-License-Identifier: GPL-3.0-or-later
// The one value axis of the screen and of every export: round steps, zero on the axis, one
// tick about every 70 px of plot height, ticks counted in whole steps.
#include "timeline/valuescale.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace {

std::vector<double> ticksOf(const ValueScale &scale)
{
    std::vector<double> ticks;
    for (int i = 0; i < scale.count(); ++i)
        ticks.push_back(scale.tick(i));
    return ticks;
}

} // namespace

TEST(ValueScale, ATallerPlotGetsMoreTicks)
{
    // [0, 930] stepped by 250 on screen (always 4 intervals) and by 200 in a tall export:
    // now the plot height decides, the same way for both.
    EXPECT_EQ(ValueScale::targetTicksFor(264), 3); // a panel of 300 px
    EXPECT_EQ(ValueScale::targetTicksFor(300), 4);
    EXPECT_EQ(ValueScale::targetTicksFor(364), 5);
    EXPECT_EQ(ValueScale::targetTicksFor(1000), 6);

    const ValueScale four = ValueScale::nice(0, 930, 4);
    EXPECT_EQ(four, (ValueScale{0, 1000, 250}));
    EXPECT_EQ(ticksOf(four), (std::vector<double>{0, 250, 500, 750, 1000}));
    const ValueScale five = ValueScale::nice(0, 930, ValueScale::targetTicksFor(364));
    EXPECT_EQ(five, (ValueScale{0, 1000, 200}));
    EXPECT_EQ(ticksOf(five), (std::vector<double>{0, 200, 400, 600, 800, 1000}));
}

TEST(ValueScale, TinyPlotsGetFewerTicks)
{
    EXPECT_EQ(ValueScale::targetTicksFor(84), 2); // a panel at its minimum height of 120 px
    EXPECT_EQ(ValueScale::targetTicksFor(10), 2);
    EXPECT_EQ(ValueScale::targetTicksFor(0), 2);
    EXPECT_EQ(ValueScale::targetTicksFor(-5), 2);
    EXPECT_EQ(ticksOf(ValueScale::nice(0, 930, ValueScale::targetTicksFor(84))), (std::vector<double>{0, 500, 1000}));
}

TEST(ValueScale, NegativeDataEndsAtZero)
{
    // [−3, −1] ended at −1 on screen and at 0 in the picture: now at 0 in both.
    const ValueScale scale = ValueScale::nice(-3, -1, 4);
    EXPECT_EQ(scale, (ValueScale{-3, 0, 1}));
    EXPECT_EQ(ticksOf(scale), (std::vector<double>{-3, -2, -1, 0}));
    // Data on both sides of zero keeps both.
    EXPECT_EQ(ValueScale::nice(-40, 130, 4), (ValueScale{-50, 150, 50}));
    // Positive data starts at zero.
    EXPECT_EQ(ValueScale::nice(400, 410, 4), (ValueScale{0, 600, 200}));
    // A dip too small to matter beside the rest (up to 10 % of the highest value) does not take
    // a step below zero (-7 beside 150 made it -100 to 200, -30 beside 400 made it -250 to
    // 500); a real one does.
    EXPECT_EQ(ValueScale::nice(-0.111, 150, 4), (ValueScale{0, 150, 50}));
    EXPECT_EQ(ValueScale::nice(-15, 150, 4), (ValueScale{0, 150, 50}));
    EXPECT_EQ(ValueScale::nice(-30.2, 401, 4), (ValueScale{0, 600, 200}));
    EXPECT_EQ(ValueScale::nice(-16, 150, 4), (ValueScale{-50, 150, 50}));
}

TEST(ValueScale, FlatDataIsWidened)
{
    EXPECT_EQ(ValueScale::nice(0, 0, 4), (ValueScale{0, 1, 0.25}));
    EXPECT_EQ(ValueScale::nice(5, 5, 4), (ValueScale{0, 6, 2}));
    EXPECT_EQ(ValueScale::nice(-2, -2, 2), (ValueScale{-2, 0, 1}));
    // No data at all: the scale of [0, 1] under the same rule.
    EXPECT_EQ(ValueScale::nice(std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 4),
              (ValueScale{0, 1, 0.25}));
    EXPECT_EQ(ValueScale::nice(std::nan(""), 3, 2), (ValueScale{0, 1, 0.5}));
}

TEST(ValueScale, AValueOnAStepStaysOnItsTick)
{
    // 1000 is four steps of 250: the scale ends there, not a step beyond (tolerance and epsilon).
    EXPECT_EQ(ValueScale::nice(0, 1000, 4), (ValueScale{0, 1000, 250}));
    EXPECT_DOUBLE_EQ(ValueScale::nice(0, 0.3, 3).high, 0.3);
    EXPECT_EQ(ValueScale::nice(0, 0.3, 3).count(), 4);
    // A rough step a hair above a round one takes the round one.
    EXPECT_EQ(ValueScale::nice(0, 1000.5, 4).step, 250);
}

TEST(ValueScale, TicksAreCountedNotAccumulated)
{
    // Adding 0.1 three times to −0.3 is 5.55e−17, not 0; counting steps from zero hits 0.
    const ValueScale scale = ValueScale::nice(-0.3, 0.2, 5);
    EXPECT_DOUBLE_EQ(scale.step, 0.1);
    ASSERT_EQ(scale.count(), 6);
    EXPECT_EQ(scale.tick(3), 0.0);
    EXPECT_DOUBLE_EQ(scale.tick(0), -0.3);
    EXPECT_DOUBLE_EQ(scale.tick(5), 0.2);
    // Many ticks of a tiny step end exactly where the scale ends.
    const ValueScale tiny = ValueScale::nice(0, 7e-7, 6);
    EXPECT_DOUBLE_EQ(tiny.tick(tiny.count() - 1), tiny.high);
    EXPECT_EQ(tiny.tick(0), 0.0);
}
