// SPDX-License-Identifier: GPL-3.0-or-later
// Load shapes as moves the load tester can take, and how a scenario file writes them.
#include "scenario/loadshape.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

namespace {

LoadShape ramp(std::optional<double> from, double to, qint64 overMs)
{
    LoadShape shape;
    shape.kind = LoadShape::Kind::Ramp;
    shape.from = from;
    shape.to = to;
    shape.overMs = overMs;
    return shape;
}

QString firstIssue(const char *json)
{
    const ScenarioLoader::LoadResult result = ScenarioLoader::fromJson(QByteArray(json));
    return result.issues.isEmpty() ? QString() : result.issues.first().toString();
}

} // namespace

TEST(LoadShape, RampMovesOnceASecondAndEndsOnItsTarget)
{
    const std::vector<LoadShape::Move> moves = ramp(100, 500, 120'000).plan(0);
    ASSERT_EQ(moves.size(), 121U); // the start, then one move a second
    EXPECT_EQ(moves.front(), (LoadShape::Move{0, 100}));
    EXPECT_EQ(moves[60], (LoadShape::Move{60'000, 300}));
    EXPECT_EQ(moves.back(), (LoadShape::Move{120'000, 500}));
    for (std::size_t i = 1; i < moves.size(); ++i)
        EXPECT_GT(moves[i].offsetMs, moves[i - 1].offsetMs);
}

TEST(LoadShape, RampOfFewUsersTakesWholeStepsOnly)
{
    // Locust users are whole: 10 → 50 over 2 minutes is 40 moves of one user, 3 s apart.
    const std::vector<LoadShape::Move> moves = ramp(10, 50, 120'000).plan(0);
    ASSERT_EQ(moves.size(), 41U);
    for (const LoadShape::Move &move : moves)
        EXPECT_EQ(move.rate, std::round(move.rate));
    EXPECT_EQ(moves[1], (LoadShape::Move{3000, 11}));
    EXPECT_EQ(moves.back().rate, 50);
}

TEST(LoadShape, RampWithoutStartGoesFromTheCurrentSetPointDownToo)
{
    const std::vector<LoadShape::Move> moves = ramp(std::nullopt, 100, 10'000).plan(200);
    ASSERT_EQ(moves.size(), 10U);
    EXPECT_EQ(moves.front(), (LoadShape::Move{1000, 190}));
    EXPECT_EQ(moves.back(), (LoadShape::Move{10'000, 100}));
    EXPECT_TRUE(ramp(std::nullopt, 100, 10'000).plan(100).size() <= 1);
}

TEST(LoadShape, StairsHoldEachStairAndStopAtUntil)
{
    LoadShape stairs;
    stairs.kind = LoadShape::Kind::Stairs;
    stairs.from = 100;
    stairs.step = 50;
    stairs.to = 320; // not on a stair: the last is 300
    stairs.everyMs = 60'000;
    const std::vector<LoadShape::Move> moves = stairs.plan(0);
    ASSERT_EQ(moves.size(), 5U);
    EXPECT_EQ(moves[1], (LoadShape::Move{60'000, 150}));
    EXPECT_EQ(moves.back(), (LoadShape::Move{240'000, 300}));
    EXPECT_EQ(stairs.durationMs(), 300'000);
    EXPECT_EQ(stairs.describe(), QStringLiteral("stairs 100 → 320 by 50 every 1m"));
}

TEST(LoadShape, ScenarioReadsShapesHoldsAndTheCeilingSearch)
{
    const ScenarioLoader::LoadResult result = ScenarioLoader::fromJson(R"json({"steps": [
        {"ramp": {"to": 500, "over": "2m"}},
        {"stairs": {"from": 100, "step": 50, "every": "1m", "until": 500}},
        {"hold": "5m"},
        {"findCeiling": {"from": 20, "step": 20, "every": "20s", "settle": "8s", "latencyBelow": "500ms",
                         "computed": "sum(engine_workers) / 0.02", "picture": "ceiling.png"}},
        {"findCeiling": true}
    ]})json");
    ASSERT_TRUE(result.usable) << qPrintable(result.issues.value(0).toString());
    const std::vector<ScenarioStep> &steps = result.scenario.steps;
    EXPECT_EQ(steps[0].kind, ScenarioStep::Kind::Shape);
    EXPECT_EQ(steps[0].describe(), QStringLiteral("ramp to 500 over 2m"));
    EXPECT_EQ(steps[1].shape.kind, LoadShape::Kind::Stairs);
    EXPECT_EQ(steps[2].describe(), QStringLiteral("hold the load for 5m"));
    EXPECT_EQ(steps[3].kind, ScenarioStep::Kind::FindCeiling);
    EXPECT_EQ(steps[3].ceiling.everyMs, 20'000);
    EXPECT_EQ(steps[3].ceiling.settleMs, 8000);
    EXPECT_DOUBLE_EQ(*steps[3].ceiling.latencyBelowSeconds, 0.5);
    EXPECT_EQ(steps[3].ceiling.picture, QStringLiteral("ceiling.png"));
    EXPECT_EQ(steps[4].ceiling.from, CeilingSearchPlan{}.from); // the defaults
}

TEST(LoadShape, BrokenShapesAreRefusedWhereTheyAre)
{
    EXPECT_EQ(firstIssue(R"({"steps": [{"ramp": {"to": 500}}]})"),
              QStringLiteral("steps[0].ramp.over: missing: a duration like \"1m\""));
    EXPECT_EQ(firstIssue(R"({"steps": [{"ramp": {"to": 500, "over": "2m", "speed": 3}}]})"),
              QStringLiteral("steps[0].ramp.speed: unknown key"));
    EXPECT_EQ(firstIssue(R"({"steps": [{"stairs": {"from": 100, "step": 0, "every": "1m", "until": 500}}]})"),
              QStringLiteral("steps[0].stairs: \"step\" must be a number > 0"));
    EXPECT_EQ(firstIssue(R"({"steps": [{"stairs": {"from": 600, "step": 50, "every": "1m", "until": 500}}]})"),
              QStringLiteral("steps[0].stairs: \"from\" is above \"until\""));
    EXPECT_EQ(firstIssue(R"({"steps": [{"hold": "soon"}]})"),
              QStringLiteral("steps[0].hold: must be a duration like \"5m\""));
    EXPECT_EQ(firstIssue(R"({"steps": [{"findCeiling": {"every": "10s", "settle": "9s"}}]})"),
              QStringLiteral("steps[0].findCeiling: \"every\" must leave at least 3s after \"settle\" to be judged"));
    EXPECT_EQ(firstIssue(R"({"steps": [{"findCeiling": {"picture": "../up.png"}}]})"),
              QStringLiteral("steps[0].findCeiling.picture: must stay inside the output folder (--output-dir): "
                             "\"..\" is not allowed"));
}
