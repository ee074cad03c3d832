// SPDX-License-Identifier: GPL-3.0-or-later
// Which checks a panel draws: by the id of one of its series (a formula's too) or by one of its
// queries written with other spacing, each on its series' axis and read in that axis' unit.
#include "dashboard/loader/dashboardloader.h"
#include "dashboard/panelchecks.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>

TEST(PanelChecks, ByIdOrQueryOnTheAxisOfTheSeriesTheyJudge)
{
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [
        {"title": "Throughput", "unit": "ops/s", "series": [{"query": "sum(rate(done[10s]))", "id": "done"}]},
        {"title": "Pool", "unit": "", "rightUnit": "s", "series": [
            {"query": "sum(pending)", "id": "pending"},
            {"query": "histogram_quantile(0.99, sum by (le) (rate(d_bucket[10s])))", "axis": "right"},
            {"id": "perDone", "derive": "pending / done"}]}],
      "checks": [{"name": "p99", "query": "histogram_quantile(0.99,sum by(le)(rate(d_bucket[10s])))", "holds": "< 1"},
                 {"name": "backlog", "series": "pending", "holds": "< 5000"},
                 {"name": "ratio", "series": "perDone", "holds": "< 2"},
                 {"name": "elsewhere", "query": "up", "holds": "> 0"}]})json");
    ASSERT_TRUE(loaded.usable);
    ASSERT_EQ(loaded.dashboard.checks.size(), 4U);

    EXPECT_TRUE(PanelChecks::of(loaded.dashboard, 0, loaded.dashboard.checks).empty());
    const std::vector<PanelCheck> pool = PanelChecks::of(loaded.dashboard, 1, loaded.dashboard.checks, "guard");
    ASSERT_EQ(pool.size(), 3U);
    EXPECT_EQ(pool[0].axis, AxisSide::Right);
    EXPECT_EQ(pool[0].reference, SeriesKey::queryPrefix(1, 1));
    EXPECT_EQ(pool[0].check.unit, QStringLiteral("s")) << "read in its axis' unit";
    EXPECT_EQ(pool[0].label, QStringLiteral("guard p99 < 1 s"));
    EXPECT_EQ(pool[1].reference, SeriesKey::queryPrefix(1, 0));
    EXPECT_EQ(pool[2].reference, SeriesKey::derived(1, 2)) << "a formula's series is judged too";
    EXPECT_TRUE(PanelChecks::of(loaded.dashboard, 7, loaded.dashboard.checks).empty());
}
