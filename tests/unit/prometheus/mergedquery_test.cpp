// SPDX-License-Identifier: GPL-3.0-or-later
// Several queries in one request: the text the server gets, and each query's series back
// under the labels it would have had alone.
#include "prometheus/mergedquery.h"

#include <gtest/gtest.h>

namespace {

PromSeries series(QMap<QString, QString> labels, double value)
{
    return PromSeries{std::move(labels), {1000, 2000}, {value, value + 1}};
}

} // namespace

TEST(MergedQuery, TagsEachQueryWithItsPositionAndJoinsThemWithOr)
{
    EXPECT_EQ(MergedQuery::combine({QStringLiteral("up"), QStringLiteral("sum(rate(x[1m])) or vector(0)")}),
              QStringLiteral("label_replace(up, \"chaoscope_query\", \"0\", \"\", \"\") or "
                             "label_replace(sum(rate(x[1m])) or vector(0), \"chaoscope_query\", \"1\", \"\", \"\")"));
}

TEST(MergedQuery, SplitGivesEachQueryItsSeriesUntagged)
{
    PromQueryResult merged;
    merged.warnings = {QStringLiteral("slow")};
    merged.series = {series({{QStringLiteral("__name__"), QStringLiteral("up")},
                             {QStringLiteral("job"), QStringLiteral("a")},
                             {MergedQuery::tagLabel(), QStringLiteral("0")}},
                            1),
                     series({{MergedQuery::tagLabel(), QStringLiteral("2")}}, 5),
                     series({{QStringLiteral("__name__"), QStringLiteral("up")},
                             {QStringLiteral("job"), QStringLiteral("b")},
                             {MergedQuery::tagLabel(), QStringLiteral("0")}},
                            3)};
    const std::vector<PromQueryResult> parts = MergedQuery::split(merged, 3);
    ASSERT_EQ(parts.size(), 3u);
    ASSERT_EQ(parts[0].series.size(), 2u);
    EXPECT_EQ(parts[0].series[0].labelKey(), QStringLiteral("{__name__=\"up\", job=\"a\"}"));
    EXPECT_EQ(parts[0].series[1].labelKey(), QStringLiteral("{__name__=\"up\", job=\"b\"}"));
    EXPECT_EQ(parts[0].series[1].values, (std::vector<double>{3, 4}));
    EXPECT_TRUE(parts[1].series.empty()) << "a query with no series gets an empty result, not another's";
    ASSERT_EQ(parts[2].series.size(), 1u);
    EXPECT_EQ(parts[2].series[0].labelKey(), QStringLiteral("{}"));
    for (const PromQueryResult &part : parts)
        EXPECT_EQ(part.warnings, merged.warnings);
}

TEST(MergedQuery, ASeriesWithoutAUsableTagIsDropped)
{
    PromQueryResult merged;
    merged.series = {series({{QStringLiteral("job"), QStringLiteral("untagged")}}, 1),
                     series({{MergedQuery::tagLabel(), QStringLiteral("7")}}, 1),
                     series({{MergedQuery::tagLabel(), QStringLiteral("-1")}}, 1),
                     series({{MergedQuery::tagLabel(), QStringLiteral("x")}}, 1)};
    const std::vector<PromQueryResult> parts = MergedQuery::split(merged, 2);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_TRUE(parts[0].series.empty());
    EXPECT_TRUE(parts[1].series.empty());
}
