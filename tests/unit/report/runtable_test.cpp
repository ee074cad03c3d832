// SPDX-License-Identifier: GPL-3.0-or-later
// Seed 003's table of runs: a row per run, a column per series and statistic over each run's
// steady state, in the panels' units; as Markdown for the post and CSV for a spreadsheet.
#include "dashboard/dashboarddefinition.h"
#include "report/runtable.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

DashboardDefinition dashboard()
{
    DashboardDefinition definition;
    PanelDefinition throughput;
    throughput.title = QStringLiteral("Throughput");
    throughput.unit = QStringLiteral("ops/s");
    SeriesDefinition completed;
    completed.query = QStringLiteral("sum(rate(completed[10s]))");
    completed.id = QStringLiteral("completed");
    completed.legend = QStringLiteral("completed/s");
    throughput.series.push_back(completed);
    PanelDefinition backlog;
    backlog.title = QStringLiteral("Backlog");
    SeriesDefinition perPartition;
    perPartition.query = QStringLiteral("backlog");
    perPartition.legend = QStringLiteral("partition {{partition}}");
    backlog.series.push_back(perPartition);
    definition.panels = {throughput, backlog};
    return definition;
}

// One run: completed/s at `rate` for 100 s (the first 20 s ramping from 0), and the backlog of
// two partitions at `backlog` and twice that.
struct RecordedRun
{
    SampleStore store;
    ComparedRun compared;

    RecordedRun(const QString &title, double rate, double backlog, qint64 startMs)
    {
        std::vector<qint64> times;
        std::vector<double> completed, first, second;
        for (int s = 0; s <= 100; ++s) {
            times.push_back(startMs + s * 1000LL);
            completed.push_back(s < 20 ? rate * s / 20.0 : rate + (s % 2 ? 2 : -2));
            first.push_back(backlog);
            second.push_back(2 * backlog);
        }
        const QString completedKey = SeriesKey::ofQuery(0, 0, {}, QStringLiteral("{}"));
        const QString firstKey = SeriesKey::ofQuery(1, 0, {}, QStringLiteral("{partition=\"1\"}"));
        const QString secondKey = SeriesKey::ofQuery(1, 0, {}, QStringLiteral("{partition=\"2\"}"));
        store.merge(completedKey, {}, times, completed);
        store.merge(firstKey, {{QStringLiteral("partition"), QStringLiteral("1")}}, times, first);
        store.merge(secondKey, {{QStringLiteral("partition"), QStringLiteral("2")}}, times, second);
        compared.title = title;
        compared.store = &store;
        compared.snapshot.dashboard = dashboard();
        compared.snapshot.series = {
            {{0, 0, completedKey, QStringLiteral("completed/s")}},
            {{1, 0, firstKey, QStringLiteral("partition 1")}, {1, 0, secondKey, QStringLiteral("partition 2")}}};
        compared.range = {startMs, startMs + 100'000};
        compared.zeroMs = startMs;
        // The steady state: after the ramp.
        compared.steady = compared.steadyFrom(20'000, std::nullopt);
    }
};

} // namespace

TEST(RunTable, EachCellIsItsStatisticOverTheRunsSteadyStateInThePanelsUnit)
{
    RecordedRun base(QStringLiteral("base"), 226, 105'000, kStart);
    RecordedRun lower(QStringLiteral("lower backlog"), 198, 35'000, kStart + 3'600'000);
    const auto requests = RunTable::parseRequests(QStringLiteral("completed, completed:max, Backlog:mean, "
                                                                 "Backlog: partition 2:last"));
    ASSERT_TRUE(requests.ok()) << requests.error().message.toStdString();
    const Result<RunTable> table = RunTable::compute({base.compared, lower.compared}, requests.value());
    ASSERT_TRUE(table.ok()) << table.error().message.toStdString();

    ASSERT_EQ(table->runs, (QStringList{QStringLiteral("base"), QStringLiteral("lower backlog")}));
    ASSERT_EQ(table->columns.size(), 4u);
    // The ramp is not part of the steady state: the mean is the rate, the max two above it.
    EXPECT_NEAR(*table->cells[0][0], 226, 0.05);
    EXPECT_DOUBLE_EQ(*table->cells[0][1], 228);
    EXPECT_NEAR(*table->cells[1][0], 198, 0.05);
    // A query with a series per partition: one population, the mean backlog per partition.
    EXPECT_DOUBLE_EQ(*table->cells[0][2], 157'500);
    EXPECT_DOUBLE_EQ(*table->cells[1][3], 70'000) << "one partition's series by its panel and legend";
    EXPECT_EQ(table->columns[0].unit, QStringLiteral("ops/s"));
    EXPECT_EQ(table->columns[0].title(), QStringLiteral("completed · mean"));

    const QString markdown = table->toMarkdown();
    EXPECT_TRUE(markdown.startsWith(QStringLiteral("| run | completed · mean | completed · max | Backlog · mean |")))
        << markdown.toStdString();
    EXPECT_TRUE(markdown.contains(QStringLiteral("| base | 226 ops/s | 228 ops/s | 158k |"))) << markdown.toStdString();
    EXPECT_TRUE(markdown.contains(QStringLiteral("| --- | ---: | ---: | ---: | ---: |")));

    const QString csv = table->toCsv();
    const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines[0], QStringLiteral("run,completed · mean (ops/s),completed · max (ops/s),Backlog · mean,"
                                       "Backlog: partition 2 · last"));
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("base,"))) << lines[1].toStdString();
    EXPECT_NEAR(lines[1].section(QLatin1Char(','), 1, 1).toDouble(), 226, 0.05) << "plain numbers, unrounded";
    EXPECT_TRUE(lines[2].endsWith(QStringLiteral(",70000"))) << lines[2].toStdString();
}

TEST(RunTable, PercentilesAreNearestRankOverTheSteadyState)
{
    RecordedRun run(QStringLiteral("base"), 100, 1, kStart);
    const Result<RunTable> table = RunTable::compute(
        {run.compared}, RunTable::parseRequests(QStringLiteral("completed:p50,completed:p99")).value());
    ASSERT_TRUE(table.ok());
    // 81 samples alternating 98 and 102 (s = 20 … 100, odd seconds 102): 41 of 98, 40 of 102.
    EXPECT_DOUBLE_EQ(*table->cells[0][0], 98);
    EXPECT_DOUBLE_EQ(*table->cells[0][1], 102);
}

TEST(RunTable, ANameThatNamesNoSeriesIsRefusedSayingWhatCanBeNamed)
{
    RecordedRun run(QStringLiteral("base"), 100, 1, kStart);
    const Result<RunTable> table =
        RunTable::compute({run.compared}, RunTable::parseRequests(QStringLiteral("completed:p95")).value());
    ASSERT_FALSE(table.ok());
    EXPECT_TRUE(table.error().message.contains(QStringLiteral("\"completed:p95\" names no series")))
        << table.error().message.toStdString();
    EXPECT_TRUE(table.error().message.contains(QStringLiteral("mean, p50, p99, max or last")));
    EXPECT_TRUE(table.error().message.contains(QStringLiteral("series ids: completed")));
    EXPECT_FALSE(RunTable::parseRequests(QStringLiteral(" , ")).ok()) << "nothing asked for";
}

TEST(RunTable, ARunWithoutTheSeriesOrWithoutSamplesInItsSteadyStateHasAnEmptyCell)
{
    RecordedRun base(QStringLiteral("base"), 100, 1, kStart);
    RecordedRun cut(QStringLiteral("cut short"), 100, 1, kStart);
    cut.compared.steady = {kStart + 200'000, kStart + 300'000}; // after its samples
    const Result<RunTable> table =
        RunTable::compute({base.compared, cut.compared}, RunTable::defaultRequests(dashboard()));
    ASSERT_TRUE(table.ok());
    ASSERT_EQ(table->columns.size(), 1u) << "by default each series with an id";
    EXPECT_TRUE(table->cells[0][0].has_value());
    EXPECT_FALSE(table->cells[1][0].has_value());
    EXPECT_TRUE(table->toMarkdown().contains(QStringLiteral("| cut short | – |"))) << table->toMarkdown().toStdString();
}
