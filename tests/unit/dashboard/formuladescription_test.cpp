// SPDX-License-Identifier: GPL-3.0-or-later
// The legend's tooltip of a derived series says what it computes and from which series.
#include "dashboard/formuladescription.h"
#include "dashboard/loader/dashboardloader.h"

#include <gtest/gtest.h>

namespace {

const SeriesDefinition *derivedIn(const DashboardDefinition &dashboard, const QString &panelTitlePrefix)
{
    for (const PanelDefinition &panel : dashboard.panels) {
        if (!panel.title.startsWith(panelTitlePrefix))
            continue;
        for (const SeriesDefinition &series : panel.series) {
            if (!series.derive.isEmpty())
                return &series;
        }
    }
    return nullptr;
}

} // namespace

TEST(FormulaDescription, ABuiltinFormulaNamesWhatEachInputIs)
{
    const DashboardLoader::LoadResult result = DashboardLoader::fromJson(R"json({"panels": [
      {"title": "Queue", "series": [
        {"id": "pending", "query": "sum(engine_queue_length)", "legend": "engine queue length"},
        {"id": "completed", "query": "sum(rate(done[10s]))", "legend": "completed/s"},
        {"derive": "littles_law", "inputs": {"pending": "pending", "rate": "completed"}}]}]})json");
    ASSERT_TRUE(result.issues.isEmpty()) << result.issues.value(0).toString().toStdString();
    const SeriesDefinition &derived = result.dashboard.panels[0].series[2];
    EXPECT_EQ(
        FormulaDescription::describe(derived, result.dashboard),
        QStringLiteral("queue wait (Little's law) = pending / rate\npending: engine queue length · rate: completed/s"));
}

TEST(FormulaDescription, TheBuiltinDashboardsDescribeTheirDerivedSeries)
{
    const DashboardDefinition testbed = DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard;
    const SeriesDefinition *gap = derivedIn(testbed, QStringLiteral("Throughput"));
    ASSERT_TRUE(gap);
    EXPECT_EQ(FormulaDescription::describe(*gap, testbed),
              QStringLiteral("sent − accepted = sent − accepted\naccepted: engine accepted/s · sent: starter sent/s"));

    const DashboardDefinition camunda = DashboardLoader::fromBuiltin(QStringLiteral("camunda")).dashboard;
    const SeriesDefinition *delay = derivedIn(camunda, QStringLiteral("Export delay"));
    ASSERT_TRUE(delay);
    EXPECT_EQ(
        FormulaDescription::describe(*delay, camunda),
        QStringLiteral("export delay = backlog / rate\nbacklog: backlog (records) · rate: exported records/s (right)"));
}

TEST(FormulaDescription, AnExpressionWithNamesThatAreIdsAndAQueriedSeries)
{
    const DashboardLoader::LoadResult result = DashboardLoader::fromJson(R"json({"panels": [
      {"title": "T", "series": [
        {"id": "pending", "query": "x", "legend": "{{pod}}"},
        {"derive": "max(pending - 1000, 0)", "legend": "over 1000"}]}]})json");
    ASSERT_TRUE(result.issues.isEmpty()) << result.issues.value(0).toString().toStdString();
    // A templated legend names no single series: the id stands for itself.
    EXPECT_EQ(FormulaDescription::describe(result.dashboard.panels[0].series[1], result.dashboard),
              QStringLiteral("over 1000 = max(pending − 1000, 0)"));
    EXPECT_EQ(FormulaDescription::describe(result.dashboard.panels[0].series[0], result.dashboard), QString());
}
