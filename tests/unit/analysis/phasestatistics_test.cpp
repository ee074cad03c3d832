// SPDX-License-Identifier: GPL-3.0-or-later
// Statistics per phase of a run, the numbers a report quotes: "mean completed/s before the
// rate change: 298, after: 214", for every series of a panel, copyable as text or Markdown.
#include "analysis/phasestatistics.h"
#include "analysis/phasestatisticsmodel.h"

#include <QAbstractItemModelTester>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

// Something done at `second`: an action taken in Chaoscope, unless said otherwise.
Annotation mark(int second, const QString &text, bool suggested = false,
                Annotation::Source source = Annotation::Source::Action)
{
    Annotation a;
    a.timeMs = kStart + second * 1000LL;
    a.text = text;
    a.suggested = suggested;
    a.source = source;
    a.tags = Annotation::hashTags(text);
    return a;
}

struct Recorded
{
    std::vector<qint64> t;
    std::vector<double> v;
    PhaseSeries series(const QString &name, const QString &unit = QStringLiteral("ops/s")) const
    {
        return {name, unit, t, v};
    }
};

// completed/s alternating 296/300 (mean 298) for ten minutes; after the rate change at 600 s,
// 210/218 (mean 214) for ten more.
Recorded completed()
{
    Recorded r;
    for (int s = 0; s < 1200; ++s) {
        r.t.push_back(kStart + s * 1000LL);
        r.v.push_back(s < 600 ? (s % 2 ? 300.0 : 296.0) : (s % 2 ? 218.0 : 210.0));
    }
    return r;
}

const TimeRange kVisible{kStart, kStart + 1'200'000};

} // namespace

TEST(PhaseStatistics, MeanBeforeAndAfterTheRateChange)
{
    const Recorded c = completed();
    const std::vector<Annotation> marks{mark(600, QStringLiteral("rate 300 → 500 /s"))};
    const PhaseStatisticsTable table =
        PhaseStatistics::compute({c.series(QStringLiteral("completed/s"))}, kVisible, marks, false);

    ASSERT_EQ(table.columns.size(), 3u);
    EXPECT_EQ(table.columns[0].title, QStringLiteral("visible range"));
    EXPECT_EQ(table.columns[1].title, QStringLiteral("before rate 300 → 500 /s"));
    EXPECT_EQ(table.columns[2].title, QStringLiteral("after rate 300 → 500 /s"));
    ASSERT_EQ(table.rows.size(), 4u); // mean, min, max, last
    const auto &mean = table.rows[0];
    EXPECT_EQ(mean.statistic, PhaseStatisticsTable::Statistic::Mean);
    EXPECT_DOUBLE_EQ(*mean.values[1], 298);
    EXPECT_DOUBLE_EQ(*mean.values[2], 214);
    EXPECT_DOUBLE_EQ(*mean.values[0], 256);
    EXPECT_DOUBLE_EQ(*table.rows[1].values[1], 296); // min before
    EXPECT_DOUBLE_EQ(*table.rows[2].values[2], 218); // max after
    EXPECT_DOUBLE_EQ(*table.rows[3].values[1], 300); // last before: the sample at 599 s
    EXPECT_DOUBLE_EQ(*table.rows[3].values[2], 218); // last after: the sample at 1199 s
}

TEST(PhaseStatistics, PhasesRunBetweenConsecutiveThingsDoneInsideTheRange)
{
    const std::vector<Annotation> marks{
        mark(900, QStringLiteral("in-flight limit 20")),   mark(300, QStringLiteral("rate 150/s")),
        mark(300, QStringLiteral("same instant")),         mark(600, QStringLiteral("rate 400/s")),
        mark(700, QStringLiteral("suggested drop"), true), mark(-60, QStringLiteral("before the range")),
        mark(0, QStringLiteral("at the start")),           mark(1300, QStringLiteral("after the range"))};
    const std::vector<Phase> phases = Phases::of(kVisible, marks);
    QStringList titles;
    for (const Phase &p : phases)
        titles << p.title;
    EXPECT_EQ(titles,
              (QStringList{QStringLiteral("visible range"), QStringLiteral("before rate 150/s"),
                           QStringLiteral("rate 150/s → rate 400/s"), QStringLiteral("rate 400/s → in-flight limit 20"),
                           QStringLiteral("after in-flight limit 20")}));
    // Consecutive phases touch without sharing a sample.
    EXPECT_EQ(phases[1].range, (TimeRange{kStart, kStart + 299'999}));
    EXPECT_EQ(phases[2].range, (TimeRange{kStart + 300'000, kStart + 599'999}));
    EXPECT_EQ(phases[4].range, (TimeRange{kStart + 900'000, kStart + 1'200'000}));

    EXPECT_EQ(Phases::of(kVisible, {}).size(), 1u) << "no annotation: the visible range only";
    EXPECT_EQ(phases[1].startedBy, QStringLiteral("at the start"))
        << "the range opens in the phase begun at its first instant";
    EXPECT_EQ(phases[1].startedAtMs, kStart);
}

// The one phase rule: what was done to the system starts a phase, what somebody or something
// saw does not; a note the user marks #phase does, named without its tag.
TEST(PhaseStatistics, ANoteOrAFindingStartsNoPhaseAHashPhaseNoteDoes)
{
    using Source = Annotation::Source;
    const std::vector<Annotation> marks{
        mark(100, QStringLiteral("backlog grows"), false, Source::Manual),
        mark(200, QStringLiteral("throughput dropped"), false, Source::Detector),
        mark(300, QStringLiteral("restarts"), false, Source::Query),
        mark(400, QStringLiteral("verdict: failed #verdict"), false, Source::Scenario),
        mark(500, QStringLiteral("starter replicas 1 → 0, not by Chaoscope"), false, Source::Kubernetes),
        mark(700, QStringLiteral("overload #phase"), false, Source::Manual),
        mark(900, QStringLiteral("step 2: rate 400 /s"), false, Source::Scenario)};
    const std::vector<Phase> phases = Phases::of(kVisible, marks);
    QStringList names;
    for (std::size_t i = 1; i < phases.size(); ++i)
        names << phases[i].startedBy;
    EXPECT_EQ(names, (QStringList{QString(), QStringLiteral("starter replicas 1 → 0, not by Chaoscope"),
                                  QStringLiteral("overload"), QStringLiteral("step 2: rate 400 /s")}));
    EXPECT_EQ(phases[2].range.startMs, kStart + 500'000);
    EXPECT_EQ(phases[3].title, QStringLiteral("overload → step 2: rate 400 /s"));
}

TEST(PhaseStatistics, ThingsDoneWithinThreeSecondsStartOnePhaseNamedByTheFirst)
{
    const std::vector<Annotation> marks{
        mark(300, QStringLiteral("step 1: rate 400 /s"), false, Annotation::Source::Scenario),
        mark(302, QStringLiteral("rate 150 → 400 /s")), mark(305, QStringLiteral("worker replicas 2 → 1"))};
    const std::vector<Phase> phases = Phases::of(kVisible, marks);
    ASSERT_EQ(phases.size(), 4u);
    EXPECT_EQ(phases[2].startedBy, QStringLiteral("step 1: rate 400 /s"));
    EXPECT_EQ(phases[2].range, (TimeRange{kStart + 300'000, kStart + 304'999}));
    EXPECT_EQ(phases[3].startedBy, QStringLiteral("worker replicas 2 → 1")) << "5 s later: a phase of its own";

    // A range that opens inside a phase keeps its name and start.
    const std::vector<Phase> later = Phases::of({kStart + 303'000, kStart + 320'000}, marks);
    ASSERT_EQ(later.size(), 3u);
    EXPECT_EQ(later[1].startedBy, QStringLiteral("step 1: rate 400 /s"));
    EXPECT_EQ(later[1].startedAtMs, kStart + 300'000);
    EXPECT_EQ(later[1].range, (TimeRange{kStart + 303'000, kStart + 304'999}));
}

TEST(PhaseStatistics, P95OnRequestAndNothingWhereAPhaseHasNoSample)
{
    Recorded r;
    for (int s = 1; s <= 100; ++s) {
        r.t.push_back(kStart + s * 1000LL);
        r.v.push_back(s); // 1 … 100
    }
    r.t.push_back(kStart + 101'000);
    r.v.push_back(std::numeric_limits<double>::quiet_NaN()); // a gap does not count
    const TimeRange visible{kStart, kStart + 200'000};
    const PhaseStatisticsTable table =
        PhaseStatistics::compute({r.series(QStringLiteral("p99 latency"), QStringLiteral("s"))}, visible,
                                 {mark(150, QStringLiteral("restart"))}, true);
    ASSERT_EQ(table.rows.size(), 5u);
    EXPECT_EQ(table.rows[4].statistic, PhaseStatisticsTable::Statistic::P95);
    EXPECT_DOUBLE_EQ(*table.rows[4].values[0], 95);
    EXPECT_DOUBLE_EQ(*table.rows[4].values[1], 95);
    EXPECT_FALSE(table.rows[4].values[2]) << "no sample after the restart";
    EXPECT_FALSE(table.rows[0].values[2]);
}

TEST(PhaseStatistics, CopiedAsTabSeparatedTextAndAsAMarkdownTable)
{
    const Recorded c = completed();
    const PhaseStatisticsTable table = PhaseStatistics::compute(
        {c.series(QStringLiteral("completed | PI/s"))}, kVisible, {mark(600, QStringLiteral("rate change"))}, false);

    const QStringList tsv = table.toTabSeparated().split(QLatin1Char('\n'));
    EXPECT_EQ(tsv[0], QStringLiteral("series\tstatistic\tvisible range\tbefore rate change\tafter rate change"));
    EXPECT_EQ(tsv[1], QStringLiteral("completed | PI/s\tmean\t256\t298\t214"));
    EXPECT_EQ(tsv[2], QStringLiteral("completed | PI/s\tmin\t210\t296\t210"));

    const QStringList md = table.toMarkdown().split(QLatin1Char('\n'));
    EXPECT_EQ(md[0], QStringLiteral("| series | statistic | visible range | before rate change | after rate change |"));
    EXPECT_EQ(md[1], QStringLiteral("| --- | --- | ---: | ---: | ---: |"));
    EXPECT_TRUE(md[2].startsWith(QStringLiteral("| completed \\| PI/s | mean | "))) << md[2].toStdString();
    EXPECT_TRUE(md[2].endsWith(QStringLiteral(" | 298 ops/s | 214 ops/s |"))) << md[2].toStdString();
}

TEST(PhaseStatistics, TheModelShowsValuesInThePanelsUnit)
{
    const Recorded c = completed();
    PhaseStatisticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTable(PhaseStatistics::compute({c.series(QStringLiteral("completed/s"))}, kVisible,
                                            {mark(600, QStringLiteral("rate change"))}, false));
    ASSERT_EQ(model.rowCount(), 4);
    ASSERT_EQ(model.columnCount(), 5);
    EXPECT_EQ(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("before rate change"));
    EXPECT_EQ(model.index(0, 0).data().toString(), QStringLiteral("completed/s"));
    EXPECT_EQ(model.index(0, 1).data().toString(), QStringLiteral("mean"));
    EXPECT_EQ(model.index(0, 3).data().toString(), QStringLiteral("298 ops/s"));
    EXPECT_EQ(model.index(0, 4).data().toString(), QStringLiteral("214 ops/s"));
}
