// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/seriesstatistics.h"

#include <gtest/gtest.h>
#include <limits>
#include <vector>

TEST(SeriesStatistics, OnlyFiniteSamplesInsideTheRangeCount)
{
    const std::vector<qint64> t{1000, 2000, 3000, 4000, 5000};
    const std::vector<double> v{50, 1, std::numeric_limits<double>::quiet_NaN(), 3, 99};
    const SeriesStatistics stats = SeriesStatistics::compute(t, v, {2000, 4000});
    EXPECT_EQ(stats.count, 2);
    EXPECT_DOUBLE_EQ(stats.min, 1);
    EXPECT_DOUBLE_EQ(stats.max, 3);
    EXPECT_DOUBLE_EQ(stats.mean, 2);
    ASSERT_TRUE(stats.last.has_value());
    EXPECT_DOUBLE_EQ(*stats.last, 3);
    EXPECT_EQ(stats.lastTimestampMs, 4000);
}

TEST(SeriesStatistics, EmptyRangeHasNoLastValue)
{
    const std::vector<qint64> t{1000};
    const std::vector<double> v{1};
    const SeriesStatistics stats = SeriesStatistics::compute(t, v, {2000, 3000});
    EXPECT_EQ(stats.count, 0);
    EXPECT_FALSE(stats.last.has_value());
}
