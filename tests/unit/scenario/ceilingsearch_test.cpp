// SPDX-License-Identifier: GPL-3.0-or-later
// The ceiling search's judgement of a stair and its choice of the next one, apart from time.
#include "scenario/ceilingsearch.h"

#include <gtest/gtest.h>

namespace {

// A system that completes up to `capacity` per second: below it, it keeps up; above it,
// completed/s stays at the capacity and the backlog grows by the difference every second.
StairResult simulate(const CeilingSearchPlan &plan, double rate, double capacity)
{
    StairSamples samples;
    for (int second = 0; second < 20; ++second) {
        samples.sent.push_back(rate);
        samples.completed.push_back(std::min(rate, capacity));
        samples.pending.push_back(std::max(0.0, rate - capacity) * second);
        samples.latencySeconds.push_back(rate < capacity ? 0.03 : 2.0);
    }
    return judgeStair(plan, rate, samples);
}

// Runs the whole search against the simulated system.
CeilingResult search(const CeilingSearchPlan &plan, double capacity)
{
    CeilingStairs stairs(plan);
    for (int i = 0; i < 100; ++i) {
        const CeilingStairs::Next next = stairs.next();
        if (next.done)
            break;
        StairResult stair = simulate(plan, next.rate, capacity);
        stair.role = next.role;
        stairs.record(stair);
    }
    return stairs.result();
}

} // namespace

TEST(CeilingSearch, AStairHoldsWhileTheSystemKeepsUp)
{
    const CeilingSearchPlan plan;
    const StairResult below = simulate(plan, 150, 200);
    EXPECT_TRUE(below.held) << qPrintable(below.reason);
    // Just above the ceiling completed/s is within the tolerance, but the queue grows.
    const StairResult justAbove = simulate(plan, 204, 200);
    EXPECT_FALSE(justAbove.held);
    EXPECT_EQ(justAbove.reason, QStringLiteral("pending grew by 76"));
    const StairResult above = simulate(plan, 250, 200);
    EXPECT_FALSE(above.held);
    EXPECT_EQ(above.reason, QStringLiteral("completed 80 % of sent, pending grew by 950"));
    EXPECT_EQ(above.describe(QStringLiteral("/s")),
              QStringLiteral("250 /s FAILED: completed 80 % of sent, pending grew by 950 · completed 200 /s (80 %) · "
                             "p99 2 s · pending +950"));
}

TEST(CeilingSearch, LatencyLimitAndMissingDataFailAStair)
{
    CeilingSearchPlan plan;
    plan.latencyBelowSeconds = 0.02;
    EXPECT_EQ(simulate(plan, 150, 200).reason, QStringLiteral("p99 30 ms ≥ 20 ms"));
    const StairResult empty = judgeStair(plan, 100, StairSamples{});
    EXPECT_FALSE(empty.held);
    EXPECT_EQ(empty.reason, QStringLiteral("no samples of sent/s"));
    StairSamples starved;
    starved.sent = {60, 60};
    starved.completed = {60, 60};
    EXPECT_EQ(judgeStair(plan, 100, starved).reason, QStringLiteral("sent only 60 % of the rate"));
}

TEST(CeilingSearch, FindsTheCeilingWithinItsResolutionAndConfirmsIt)
{
    CeilingSearchPlan plan;
    plan.from = 50;
    plan.step = 50;
    for (const double capacity : {120.0, 200.0, 333.0, 1000.0}) {
        const CeilingResult result = search(plan, capacity);
        ASSERT_TRUE(result.found()) << capacity;
        EXPECT_TRUE(result.confirmed);
        // Within the tolerance above (completed/s 95 % of sent/s still holds) and the
        // resolution below.
        EXPECT_LE(*result.ceiling, capacity / (1 - plan.tolerance)) << capacity;
        EXPECT_GE(*result.ceiling, capacity * (1 - plan.resolution)) << capacity;
        EXPECT_EQ(result.stairs.back().role, StairResult::Role::Confirm);
        EXPECT_DOUBLE_EQ(*result.bestCompleted, capacity);
    }
}

TEST(CeilingSearch, SaysWhenNoStairHeldOrEveryStairDid)
{
    CeilingSearchPlan plan;
    plan.from = 100;
    plan.step = 100;
    plan.until = 400;
    const CeilingResult none = search(plan, 50);
    EXPECT_FALSE(none.found());
    EXPECT_EQ(none.stairs.size(), 1U);
    EXPECT_TRUE(none.summary(QStringLiteral("/s")).startsWith(QStringLiteral("no stair held: 100 /s already failed")));
    const CeilingResult all = search(plan, 5000);
    EXPECT_TRUE(all.reachedUntil);
    EXPECT_EQ(*all.ceiling, 400);
    EXPECT_TRUE(all.summary(QStringLiteral("/s")).startsWith(QStringLiteral("at least 400 /s")));
}

TEST(CeilingSearch, ALastGoodStairThatFailsItsConfirmationGivesWayToTheOneBelow)
{
    CeilingSearchPlan plan;
    plan.from = 100;
    plan.step = 100;
    plan.resolution = 0.5; // no refining between 200 (held) and 300 (failed): 200 is confirmed
    CeilingStairs stairs(plan);
    const auto run = [&](double capacity) {
        const CeilingStairs::Next next = stairs.next();
        StairResult stair = simulate(plan, next.rate, capacity);
        stair.role = next.role;
        stairs.record(stair);
        return next;
    };
    run(250);
    run(250);
    EXPECT_EQ(run(250).rate, 300);
    const CeilingStairs::Next confirm = run(150); // the system got slower: 200 fails now
    EXPECT_EQ(confirm.role, StairResult::Role::Confirm);
    EXPECT_EQ(confirm.rate, 200);
    EXPECT_FALSE(stairs.result().confirmed);
    EXPECT_EQ(*stairs.result().ceiling, 100);
    // Between 100 (held) and 200 (failed now) the search goes on from the middle.
    EXPECT_EQ(stairs.next().rate, 150);
    EXPECT_EQ(stairs.next().role, StairResult::Role::Refine);
}
