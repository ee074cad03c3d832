// SPDX-License-Identifier: GPL-3.0-or-later
// The visible range laid across a plot: instant to x and back, clamped at the edges.
#include "timeline/timeaxismap.h"

#include <gtest/gtest.h>

TEST(TimeAxisMap, MapsInstantsToXAndBackClampedToTheRange)
{
    // 10 minutes over 600 px from x = 64: a second a pixel.
    const TimeAxisMap axis{{1'000'000, 1'600'000}, QRectF(64, 10, 600, 200)};
    EXPECT_DOUBLE_EQ(axis.xFor(1'000'000), 64);
    EXPECT_DOUBLE_EQ(axis.xFor(1'300'000), 364);
    EXPECT_DOUBLE_EQ(axis.xFor(1'600'000), 664);
    EXPECT_DOUBLE_EQ(axis.xFor(900'000), -36) << "an instant before the range lies left of the plot";
    EXPECT_EQ(axis.timeAt(364), 1'300'000);
    EXPECT_EQ(axis.timeAt(0), 1'000'000) << "clamped to the start";
    EXPECT_EQ(axis.timeAt(2000), 1'600'000) << "clamped to the end";
    EXPECT_DOUBLE_EQ(axis.msPerPixel(), 1000);
}

TEST(TimeAxisMap, AnEmptyRangeOrPlotDividesByNothing)
{
    const TimeAxisMap empty{{5000, 5000}, QRectF(0, 0, 0, 0)};
    EXPECT_DOUBLE_EQ(empty.xFor(5000), 0);
    EXPECT_EQ(empty.timeAt(10), 5000);
    EXPECT_DOUBLE_EQ(empty.msPerPixel(), 1);
}
