// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/unitformatter.h"

#include <gtest/gtest.h>
#include <limits>

TEST(UnitFormatter, ThroughputUsesSiPrefixes)
{
    EXPECT_EQ(UnitFormatter::format(435, QStringLiteral("ops/s")), QStringLiteral("435 ops/s"));
    EXPECT_EQ(UnitFormatter::format(1250, QStringLiteral("ops/s")), QStringLiteral("1.25k ops/s"));
    EXPECT_EQ(UnitFormatter::format(85000, QString()), QStringLiteral("85k"));
    EXPECT_EQ(UnitFormatter::format(0.5, QString()), QStringLiteral("0.5"));
}

TEST(UnitFormatter, SecondsBytesAndPercent)
{
    EXPECT_EQ(UnitFormatter::format(0.0123, QStringLiteral("s")), QStringLiteral("12.3 ms"));
    EXPECT_EQ(UnitFormatter::format(5, QStringLiteral("s")), QStringLiteral("5 s"));
    EXPECT_EQ(UnitFormatter::format(0, QStringLiteral("s")), QStringLiteral("0 s"));
    EXPECT_EQ(UnitFormatter::format(512.0 * 1024 * 1024, QStringLiteral("bytes")), QStringLiteral("512 MiB"));
    EXPECT_EQ(UnitFormatter::format(42, QStringLiteral("%")), QStringLiteral("42 %"));
}

TEST(UnitFormatter, NonFiniteValuesAreNamed)
{
    EXPECT_EQ(UnitFormatter::format(std::numeric_limits<double>::quiet_NaN(), QString()), QStringLiteral("NaN"));
    EXPECT_EQ(UnitFormatter::format(std::numeric_limits<double>::infinity(), QStringLiteral("s")),
              QStringLiteral("+Inf"));
    EXPECT_EQ(UnitFormatter::format(-std::numeric_limits<double>::infinity(), QString()), QStringLiteral("-Inf"));
}
