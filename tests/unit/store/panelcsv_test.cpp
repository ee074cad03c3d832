// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/panelcsv.h"
#include "store/samplestore.h"

#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace {

// 2026-03-01T09:43:07.250Z
constexpr qint64 kT0 = 1772358187250;

QStringList lines(const QString &csv)
{
    QStringList result = csv.split(QStringLiteral("\r\n"));
    EXPECT_EQ(result.last(), QString()) << "the last line ends with CRLF too";
    result.removeLast();
    return result;
}

} // namespace

TEST(PanelCsv, OneColumnPerSeriesOnTheUnionOfTimestampsWithEmptyCellsWhereASeriesHasNoSample)
{
    SampleStore store;
    const std::vector<qint64> aTimes{kT0, kT0 + 1000, kT0 + 2000};
    const std::vector<double> aValues{1.5, 2, 3.25};
    store.merge(QStringLiteral("a"), {}, aTimes, aValues);
    const std::vector<qint64> bTimes{kT0 + 500, kT0 + 1000};
    const std::vector<double> bValues{10, 20};
    store.merge(QStringLiteral("b"), {}, bTimes, bValues);

    const QString csv = PanelCsv::write(
        store, {{QStringLiteral("a"), QStringLiteral("sent/s")}, {QStringLiteral("b"), QStringLiteral("pending")}},
        {kT0, kT0 + 2000});

    EXPECT_EQ(lines(csv), (QStringList{
                              QStringLiteral("time,sent/s,pending"),
                              QStringLiteral("2026-03-01T09:43:07.250Z,1.5,"),
                              QStringLiteral("2026-03-01T09:43:07.750Z,,10"),
                              QStringLiteral("2026-03-01T09:43:08.250Z,2,20"),
                              QStringLiteral("2026-03-01T09:43:09.250Z,3.25,"),
                          }));
}

TEST(PanelCsv, OnlySamplesInsideTheRangeAreWritten)
{
    SampleStore store;
    const std::vector<qint64> times{kT0, kT0 + 1000, kT0 + 2000, kT0 + 3000};
    const std::vector<double> values{1, 2, 3, 4};
    store.merge(QStringLiteral("a"), {}, times, values);

    const QStringList rows =
        lines(PanelCsv::write(store, {{QStringLiteral("a"), QStringLiteral("x")}}, {kT0 + 1000, kT0 + 2000}));

    ASSERT_EQ(rows.size(), 3);
    EXPECT_TRUE(rows[1].endsWith(QStringLiteral(",2")));
    EXPECT_TRUE(rows[2].endsWith(QStringLiteral(",3")));
}

TEST(PanelCsv, HeadersWithCommasQuotesOrLineBreaksAreQuotedAsRfc4180Asks)
{
    EXPECT_EQ(PanelCsv::quoted(QStringLiteral("plain")), QStringLiteral("plain"));
    EXPECT_EQ(PanelCsv::quoted(QStringLiteral("{pod=\"a\", job=\"b\"}")),
              QStringLiteral("\"{pod=\"\"a\"\", job=\"\"b\"\"}\""));
    EXPECT_EQ(PanelCsv::quoted(QStringLiteral("two\nlines")), QStringLiteral("\"two\nlines\""));

    SampleStore store;
    const QString csv = PanelCsv::write(store, {{QStringLiteral("none"), QStringLiteral("a,b")}}, {0, 1});
    EXPECT_EQ(csv, QStringLiteral("time,\"a,b\"\r\n"));
}

TEST(PanelCsv, ValuesReadBackExactlyAndNonFiniteOnesAreNamed)
{
    SampleStore store;
    const std::vector<qint64> times{kT0, kT0 + 1, kT0 + 2, kT0 + 3};
    const std::vector<double> values{0.1 + 0.2, std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(), 123456789012.0};
    store.merge(QStringLiteral("a"), {}, times, values);

    const QStringList rows =
        lines(PanelCsv::write(store, {{QStringLiteral("a"), QStringLiteral("v")}}, {kT0, kT0 + 3}));

    ASSERT_EQ(rows.size(), 5);
    EXPECT_EQ(rows[1].section(QLatin1Char(','), 1).toDouble(), 0.1 + 0.2);
    EXPECT_EQ(rows[2].section(QLatin1Char(','), 1), QStringLiteral("NaN"));
    EXPECT_EQ(rows[3].section(QLatin1Char(','), 1), QStringLiteral("+Inf"));
    EXPECT_EQ(rows[4].section(QLatin1Char(','), 1).toDouble(), 123456789012.0);
}

TEST(PanelCsv, TimestampsAreUtcWithMilliseconds)
{
    EXPECT_EQ(PanelCsv::timestamp(0), QStringLiteral("1970-01-01T00:00:00.000Z"));
    EXPECT_EQ(PanelCsv::timestamp(kT0), QStringLiteral("2026-03-01T09:43:07.250Z"));
}
