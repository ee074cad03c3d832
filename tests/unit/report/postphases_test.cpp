// SPDX-License-Identifier: GPL-3.0-or-later
// How a run divides into a post's phases: one at each thing done, titled by it, each with the
// actions it holds and its column of the phase statistics.
#include "analysis/phasestatistics.h"
#include "report/postphases.h"

#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;
const TimeRange kRun{kStart, kStart + 215'000};

Annotation mark(int second, const QString &text, Annotation::Source source, bool failed = false)
{
    Annotation a;
    a.timeMs = kStart + second * 1000LL;
    a.text = text;
    a.source = source;
    a.failed = failed;
    return a;
}

// Seed 000 as the scenario marks it: a note on the phase, the rate raised, the limit set, a
// note typed by someone, a detector's suggestion nobody accepted, and the verdict.
std::vector<Annotation> seed000()
{
    Annotation verdict =
        mark(214, QStringLiteral("verdict: all 7 steps succeeded, 1 check held"), Annotation::Source::Scenario);
    verdict.tags = {QStringLiteral("verdict")};
    Annotation suggestion = mark(90, QStringLiteral("throughput dropped"), Annotation::Source::Detector);
    suggestion.suggested = true;
    return {mark(5, QStringLiteral("150/s: below the engine's ceiling (4 workers x 20 ms = 200/s)"),
                 Annotation::Source::Scenario),
            mark(55, QStringLiteral("rate 150 → 400 /s (Chaoscope starter, 1/1 replica)"), Annotation::Source::Action),
            mark(56, QStringLiteral("pending is growing"), Annotation::Source::Manual),
            suggestion,
            mark(125, QStringLiteral("in-flight limit none → 20 (Chaoscope starter, 1/1 replica)"),
                 Annotation::Source::Action),
            verdict};
}

} // namespace

TEST(PostPhases, APhaseStartsAtEachThingDoneAndIsTitledByIt)
{
    const std::vector<Annotation> marks = seed000();
    const std::vector<Annotation> boundaries = PostPhases::boundaries(kRun, marks);
    ASSERT_EQ(boundaries.size(), 3u) << "notes, suggestions and the verdict start no phase";
    const PhaseStatisticsTable table = PhaseStatistics::compute({}, kRun, boundaries, false);
    const std::vector<PostPhases::Planned> phases = PostPhases::plan(kRun, marks, table);

    // The five seconds before the first step are too short to be a phase of their own.
    ASSERT_EQ(phases.size(), 3u);
    EXPECT_EQ(phases[0].phase.number, 1);
    EXPECT_EQ(phases[0].phase.title, QStringLiteral("150/s: below the engine's ceiling (4 workers x 20 ms = 200/s)"));
    EXPECT_EQ(phases[1].phase.title, QStringLiteral("rate 150 → 400 /s"));
    EXPECT_EQ(phases[2].phase.title, QStringLiteral("in-flight limit none → 20"));
    EXPECT_EQ(phases[1].phase.range, (TimeRange{kStart + 55'000, kStart + 124'999}));
    EXPECT_EQ(phases[2].phase.range.endMs, kRun.endMs);
    EXPECT_EQ(phases[1].column, 3) << "the table's columns: the run, before the first, then one per mark";

    ASSERT_EQ(phases[1].phase.actions.size(), 1u);
    const PostDraft::Action &raised = phases[1].phase.actions.front();
    EXPECT_EQ(raised.change, QStringLiteral("rate 150 → 400 /s"));
    EXPECT_EQ(raised.outcome, QStringLiteral("Chaoscope starter, 1/1 replica"));
    EXPECT_FALSE(raised.failed);
}

TEST(PostPhases, ThingsDoneWithinAFewSecondsStartOnePhase)
{
    std::vector<Annotation> marks{
        mark(30, QStringLiteral("overload"), Annotation::Source::Scenario),
        mark(31, QStringLiteral("rate 100 → 500 /s (Chaoscope starter, 1/1 replica)"), Annotation::Source::Action),
        mark(90, QStringLiteral("starter replicas 1 → 0, not by Chaoscope"), Annotation::Source::Kubernetes)};
    const std::vector<Annotation> boundaries = PostPhases::boundaries(kRun, marks);
    ASSERT_EQ(boundaries.size(), 2u);
    const PhaseStatisticsTable table = PhaseStatistics::compute({}, kRun, boundaries, false);
    const std::vector<PostPhases::Planned> phases = PostPhases::plan(kRun, marks, table);
    ASSERT_EQ(phases.size(), 3u) << "30 s before the first step are a phase";
    EXPECT_EQ(phases[0].phase.title, QStringLiteral("before overload"));
    EXPECT_EQ(phases[1].phase.actions.size(), 2u);
    EXPECT_EQ(phases[2].phase.actions.front().change, QStringLiteral("starter replicas 1 → 0"));
    EXPECT_EQ(phases[2].phase.actions.front().outcome, QStringLiteral("not by Chaoscope"));
}

TEST(PostPhases, AnActionsTextSplitsIntoItsChangeAndHowItWent)
{
    const auto split = [](const QString &text, bool failed = false) {
        return PostPhases::actionOf(mark(0, text, Annotation::Source::Action, failed));
    };
    const PostDraft::Action refused =
        split(QStringLiteral("rate → 400 /s failed on 1 of 2 replicas: connection refused"), true);
    EXPECT_EQ(refused.change, QStringLiteral("rate → 400 /s"));
    EXPECT_EQ(refused.outcome, QStringLiteral("failed on 1 of 2 replicas: connection refused"));
    EXPECT_TRUE(refused.failed);
    const PostDraft::Action scaled = split(QStringLiteral("worker replicas 1 → 3: kept 3 ready, rolled out in 4.2 s"));
    EXPECT_EQ(scaled.change, QStringLiteral("worker replicas 1 → 3"));
    EXPECT_EQ(scaled.outcome, QStringLiteral("kept 3 ready, rolled out in 4.2 s"));
    const PostDraft::Action plain = split(QStringLiteral("pause (Locust, 1/1 replica)"));
    EXPECT_EQ(plain.change, QStringLiteral("pause (Locust, 1/1 replica)")) << "no change to split off";
    EXPECT_EQ(plain.outcome, QStringLiteral("applied"));
}

TEST(PostPhases, PictureNamesSayWhatChanged)
{
    EXPECT_EQ(PostPhases::pictureName(2, QStringLiteral("rate 150 → 400 /s")), QStringLiteral("phase-2-rate-400.png"));
    EXPECT_EQ(PostPhases::pictureName(3, QStringLiteral("in-flight limit none → 20")),
              QStringLiteral("phase-3-in-flight-limit-20.png"));
    EXPECT_EQ(PostPhases::pictureName(1, QStringLiteral("150/s: below the engine's ceiling (4 workers x 20 ms)")),
              QStringLiteral("phase-1-150-s-below-the-engine-s-ceiling.png"));
    EXPECT_EQ(PostPhases::pictureName(4, QStringLiteral("→ ✓")), QStringLiteral("phase-4.png"));
}

TEST(PostPhases, AStatisticsColumnBecomesATableOfTheSeriesInTheirUnits)
{
    std::vector<qint64> t;
    std::vector<double> v;
    for (int s = 0; s <= 215; ++s) {
        t.push_back(kStart + s * 1000LL);
        v.push_back(s < 55 ? 150 : 90);
    }
    const std::vector<Annotation> marks = seed000();
    const PhaseStatisticsTable table =
        PhaseStatistics::compute({{QStringLiteral("Throughput: completed/s"), QStringLiteral("ops/s"), t, v}}, kRun,
                                 PostPhases::boundaries(kRun, marks), false);
    const QString markdown = PostPhases::statisticsMarkdown(table, 3);
    EXPECT_EQ(markdown, QStringLiteral("| series | mean | min | max | last |\n"
                                       "| --- | ---: | ---: | ---: | ---: |\n"
                                       "| Throughput: completed/s | 90 ops/s | 90 ops/s | 90 ops/s | 90 ops/s |\n"));
}
