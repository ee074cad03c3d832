// SPDX-License-Identifier: GPL-3.0-or-later
// The one way Chaoscope writes values, durations, sizes and counts for people: each rule
// below was once written differently in two places of the app.
#include "base/format.h"

#include <QDateTime>
#include <gtest/gtest.h>
#include <limits>

TEST(FormatValue, ThroughputUsesSiPrefixes)
{
    EXPECT_EQ(Format::value(435, QStringLiteral("ops/s")), QStringLiteral("435 ops/s"));
    EXPECT_EQ(Format::value(1250, QStringLiteral("ops/s")), QStringLiteral("1.25k ops/s"));
    EXPECT_EQ(Format::value(85000, QString()), QStringLiteral("85k"));
    EXPECT_EQ(Format::value(0.5, QString()), QStringLiteral("0.5"));
    EXPECT_EQ(Format::value(-2500, QString()), QStringLiteral("-2.5k"));
}

TEST(FormatValue, AValueThatRoundsToTheNextUnitIsWrittenInIt)
{
    EXPECT_EQ(Format::value(999.4, QString()), QStringLiteral("999"));
    EXPECT_EQ(Format::value(999.7, QString()), QStringLiteral("1k"));
    EXPECT_EQ(Format::value(0.9996, QStringLiteral("s")), QStringLiteral("1 s"));
    EXPECT_EQ(Format::value(7199, QStringLiteral("s")), QStringLiteral("2 h"));
    EXPECT_EQ(Format::value(1023.9 * 1024, QStringLiteral("bytes")), QStringLiteral("1 MiB"));
}

TEST(FormatValue, SecondsBytesAndPercent)
{
    EXPECT_EQ(Format::value(0.0123, QStringLiteral("s")), QStringLiteral("12.3 ms"));
    EXPECT_EQ(Format::value(5, QStringLiteral("s")), QStringLiteral("5 s"));
    EXPECT_EQ(Format::value(150, QStringLiteral("s")), QStringLiteral("2.5 min"));
    EXPECT_EQ(Format::value(0, QStringLiteral("s")), QStringLiteral("0 s"));
    EXPECT_EQ(Format::value(512.0 * 1024 * 1024, QStringLiteral("bytes")), QStringLiteral("512 MiB"));
    EXPECT_EQ(Format::value(42, QStringLiteral("%")), QStringLiteral("42 %"));
}

TEST(FormatValue, NonFiniteValuesAreNamed)
{
    EXPECT_EQ(Format::value(std::numeric_limits<double>::quiet_NaN(), QString()), QStringLiteral("NaN"));
    EXPECT_EQ(Format::value(std::numeric_limits<double>::infinity(), QStringLiteral("s")), QStringLiteral("+Inf"));
    EXPECT_EQ(Format::value(-std::numeric_limits<double>::infinity(), QString()), QStringLiteral("-Inf"));
}

TEST(FormatDuration, ToThePrecisionAReaderNeeds)
{
    EXPECT_EQ(Format::duration(0), QStringLiteral("0 ms"));
    EXPECT_EQ(Format::duration(250), QStringLiteral("250 ms"));
    EXPECT_EQ(Format::duration(1500), QStringLiteral("1.5 s"));
    EXPECT_EQ(Format::duration(2000), QStringLiteral("2 s"));
    EXPECT_EQ(Format::duration(2560), QStringLiteral("2.5 s"));
    EXPECT_EQ(Format::duration(12'900), QStringLiteral("12 s"));
    EXPECT_EQ(Format::duration(90'000), QStringLiteral("1 min 30 s"));
    EXPECT_EQ(Format::duration(120'000), QStringLiteral("2 min"));
    EXPECT_EQ(Format::duration(3'599'000), QStringLiteral("59 min 59 s"));
    EXPECT_EQ(Format::duration(3'600'000), QStringLiteral("1 h"));
    EXPECT_EQ(Format::duration(5'400'000), QStringLiteral("1 h 30 min"));
    EXPECT_EQ(Format::duration(360'000'000), QStringLiteral("100 h"));
    EXPECT_EQ(Format::duration(-5), QStringLiteral("0 ms"));
}

TEST(FormatDuration, CompactIsTheFilesGrammar)
{
    EXPECT_EQ(Format::compactDuration(0), QStringLiteral("0s"));
    EXPECT_EQ(Format::compactDuration(250), QStringLiteral("250ms"));
    EXPECT_EQ(Format::compactDuration(1500), QStringLiteral("1s500ms"));
    EXPECT_EQ(Format::compactDuration(90'000), QStringLiteral("1m30s"));
    EXPECT_EQ(Format::compactDuration(3'600'000), QStringLiteral("1h"));
    EXPECT_EQ(Format::compactDuration(48 * 3'600'000LL), QStringLiteral("48h"));
}

TEST(FormatBytes, BinaryUnitsAlways)
{
    EXPECT_EQ(Format::bytes(512), QStringLiteral("512 B"));
    EXPECT_EQ(Format::bytes(1536), QStringLiteral("1.5 KiB"));
    EXPECT_EQ(Format::bytes(12LL * 1024 * 1024), QStringLiteral("12 MiB"));
    EXPECT_EQ(Format::bytes(1536LL * 1024 * 1024), QStringLiteral("1.5 GiB"));
}

TEST(FormatCount, GroupsThousands)
{
    EXPECT_EQ(Format::count(7), QStringLiteral("7"));
    EXPECT_EQ(Format::count(85'000), QStringLiteral("85,000"));
    EXPECT_EQ(Format::count(-1'234'567), QStringLiteral("-1,234,567"));
}

TEST(FormatCount, ThingsInWordsNotParentheses)
{
    EXPECT_EQ(Format::counted(1, QStringLiteral("replica"), QStringLiteral("replicas")), QStringLiteral("1 replica"));
    EXPECT_EQ(Format::counted(0, QStringLiteral("replica"), QStringLiteral("replicas")), QStringLiteral("0 replicas"));
    EXPECT_EQ(Format::counted(85'000, QStringLiteral("sample"), QStringLiteral("samples")),
              QStringLiteral("85,000 samples"));
}

TEST(FormatNumber, ASetPointAsTyped)
{
    EXPECT_EQ(Format::number(500), QStringLiteral("500"));
    EXPECT_EQ(Format::number(12.5), QStringLiteral("12.5"));
    EXPECT_EQ(Format::number(1'234'567), QStringLiteral("1234567"));
    EXPECT_EQ(Format::number(181.5), QStringLiteral("181.5"));
    EXPECT_EQ(Format::number(0.25), QStringLiteral("0.25"));
}

TEST(FormatClockRange, AsTheTimeAxisSaysItWithTheDateWhenNotToday)
{
    const QDateTime start(QDate(2026, 12, 6), QTime(14, 2, 10));
    const qint64 startMs = start.toMSecsSinceEpoch();
    EXPECT_EQ(Format::clockRange(startMs, startMs + 600'000, startMs + 60'000), QStringLiteral("14:02:10–14:12:10"));
    EXPECT_EQ(Format::clockRange(startMs, startMs + 600'000, startMs + 86'400'000),
              QStringLiteral("2026-12-06 14:02:10–14:12:10"));
}
