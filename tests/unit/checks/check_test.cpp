// SPDX-License-Identifier: GPL-3.0-or-later
// Steady-state checks judged sample by sample: what must hold, for how long a break is
// tolerated, gaps in the data, phases, and the words the verdict and a guard use.
#include "checks/check.h"
#include "scenario/scenario.h"
#include "scenario/scenarioverdict.h"

#include <gtest/gtest.h>

namespace {

Check pendingBelow(double threshold, qint64 forMs)
{
    Check check;
    check.name = QStringLiteral("pending growth");
    check.query = QStringLiteral("sum(http_client_pool_pending)");
    check.condition = *CheckCondition::parse(QStringLiteral("< %1").arg(threshold));
    check.forMs = forMs;
    return check;
}

} // namespace

TEST(CheckCondition, ParsesEveryComparisonAndRefusesTheRest)
{
    EXPECT_EQ(CheckCondition::parse(QStringLiteral("< 5000"))->op, CheckCondition::Op::Below);
    EXPECT_EQ(CheckCondition::parse(QStringLiteral("<=0.05"))->op, CheckCondition::Op::AtMost);
    EXPECT_EQ(CheckCondition::parse(QStringLiteral("≤ 0.05"))->op, CheckCondition::Op::AtMost);
    EXPECT_EQ(CheckCondition::parse(QStringLiteral(" > 180 "))->op, CheckCondition::Op::Above);
    EXPECT_EQ(CheckCondition::parse(QStringLiteral(">= 1e3"))->threshold, 1000.0);
    EXPECT_DOUBLE_EQ(CheckCondition::parse(QStringLiteral("< -2.5"))->threshold, -2.5);
    for (const char *bad : {"", "5000", "== 1", "< five", "< 1 2", "<", "< inf", "! 3"})
        EXPECT_FALSE(CheckCondition::parse(QString::fromUtf8(bad))) << bad;
}

TEST(CheckCondition, HoldsAtTheEdgeAsWritten)
{
    EXPECT_FALSE(CheckCondition::parse(QStringLiteral("< 10"))->holds(10));
    EXPECT_TRUE(CheckCondition::parse(QStringLiteral("<= 10"))->holds(10));
    EXPECT_FALSE(CheckCondition::parse(QStringLiteral("> 10"))->holds(10));
    EXPECT_TRUE(CheckCondition::parse(QStringLiteral(">= 10"))->holds(10));
    // "Worst" is the side the condition fears.
    EXPECT_TRUE(CheckCondition::parse(QStringLiteral("< 10"))->isWorse(12, 3));
    EXPECT_TRUE(CheckCondition::parse(QStringLiteral("> 10"))->isWorse(3, 12));
}

TEST(CheckTracker, ABreakShorterThanForIsTolerated)
{
    CheckTracker tracker(pendingBelow(5000, 10'000));
    EXPECT_FALSE(tracker.observe(0, 100, QString()));
    EXPECT_FALSE(tracker.observe(1000, 6000, QString()));
    EXPECT_FALSE(tracker.observe(9000, 7000, QString())); // broken for 8 s
    EXPECT_FALSE(tracker.observe(10'000, 10, QString())); // back below: the break ends
    EXPECT_FALSE(tracker.observe(15'000, 6000, QString()));
    EXPECT_FALSE(tracker.observe(24'000, 6000, QString())); // 9 s
    EXPECT_FALSE(tracker.failed());
    EXPECT_TRUE(tracker.passed());
    EXPECT_EQ(*tracker.worst(), 7000);
    EXPECT_EQ(tracker.worstAtMs(), 9000);
    EXPECT_EQ(tracker.outcome(), QStringLiteral("held · worst 7k at +9 s"));
}

TEST(CheckTracker, FailsOnceWhenBrokenForItsDuration)
{
    CheckTracker tracker(pendingBelow(5000, 10'000));
    EXPECT_FALSE(tracker.observe(1000, 5200, QString()));
    EXPECT_FALSE(tracker.observe(6000, 5600, QString()));
    EXPECT_TRUE(tracker.observe(11'000, 6100, QString()));
    EXPECT_FALSE(tracker.observe(12'000, 9000, QString())) << "a failure is reported once";
    EXPECT_TRUE(tracker.failed());
    EXPECT_FALSE(tracker.passed());
    EXPECT_EQ(*tracker.failedAtMs(), 11'000);
    EXPECT_EQ(tracker.failureReason(), QStringLiteral("pending growth 6.1k ≥ 5k for 10 s"));
    EXPECT_EQ(tracker.outcome(),
              QStringLiteral("FAILED at +11 s: pending growth 6.1k ≥ 5k for 10 s · worst 9k at +12 s"));
}

TEST(CheckTracker, AGapEndsABreakAndIsNoSample)
{
    CheckTracker tracker(pendingBelow(5000, 5000));
    tracker.observe(0, 6000, QString());
    tracker.observe(3000, std::nullopt, QString()); // Prometheus returned nothing
    EXPECT_FALSE(tracker.observe(6000, 6000, QString())) << "the break restarted after the gap";
    EXPECT_FALSE(tracker.observe(7000, std::nan(""), QString()));
    EXPECT_EQ(tracker.samples(), 2);
}

TEST(CheckTracker, WithoutForTheFirstBrokenSampleFails)
{
    CheckTracker tracker(pendingBelow(5000, 0));
    EXPECT_TRUE(tracker.observe(500, 5000, QString()));
}

TEST(CheckTracker, NoSamplesIsNotAPass)
{
    CheckTracker tracker(pendingBelow(5000, 0));
    tracker.observe(0, std::nullopt, QString());
    EXPECT_FALSE(tracker.passed()) << "a check that saw nothing cannot say the run held";
    EXPECT_TRUE(tracker.outcome().startsWith(QStringLiteral("no samples")));
    Check warning = pendingBelow(5000, 0);
    warning.severity = Check::Severity::Warning;
    CheckTracker warned(warning);
    warned.observe(0, 9000, QString());
    EXPECT_TRUE(warned.failed());
    EXPECT_TRUE(warned.passed()) << "a warning is reported, it does not fail the run";
}

TEST(CheckTracker, JudgesOnlyItsPhasesAndAfterTheWarmUp)
{
    Check check = pendingBelow(100, 0);
    check.during = {QStringLiteral("limit in place")};
    check.graceMs = 2000;
    CheckTracker tracker(check);
    EXPECT_FALSE(tracker.observe(1000, 900, QStringLiteral("limit in place"))) << "still warming up";
    EXPECT_FALSE(tracker.observe(3000, 900, QStringLiteral("overload"))) << "another phase";
    EXPECT_FALSE(tracker.observe(4000, 50, QStringLiteral("limit in place")));
    EXPECT_TRUE(tracker.observe(5000, 150, QStringLiteral("limit in place")));
    ASSERT_EQ(tracker.phases().size(), 1u);
    EXPECT_EQ(tracker.phases()[0].phase, QStringLiteral("limit in place"));
    EXPECT_EQ(*tracker.phases()[0].worst, 150);
    EXPECT_TRUE(tracker.phases()[0].failed);
}

TEST(CheckTracker, EveryPhaseItStayedBrokenInIsNamed)
{
    CheckTracker tracker(pendingBelow(100, 0));
    tracker.observe(0, 10, QStringLiteral("baseline"));
    tracker.observe(1000, 500, QStringLiteral("overload"));
    tracker.observe(2000, 600, QStringLiteral("recovery"));
    ASSERT_EQ(tracker.phases().size(), 3u);
    EXPECT_FALSE(tracker.phases()[0].failed);
    EXPECT_TRUE(tracker.phases()[1].failed);
    EXPECT_TRUE(tracker.phases()[2].failed);
}

// Settling starts again with each phase of a live run: its first settleMs are not judged, and
// the phase says when the check came to hold.
TEST(CheckTracker, EachPhaseSettlesAndSaysWhenItHeld)
{
    Check check = pendingBelow(100, 0);
    check.settleMs = 5000;
    CheckTracker tracker(check);
    EXPECT_FALSE(tracker.observe(0, 900, QStringLiteral("overload"))) << "settling";
    EXPECT_TRUE(tracker.observe(6000, 900, QStringLiteral("overload"))) << "settled, and broken";
    EXPECT_FALSE(tracker.observe(7000, 900, QStringLiteral("limit in place"))) << "a new phase settles again";
    EXPECT_FALSE(tracker.observe(9000, 50, QStringLiteral("limit in place")));
    EXPECT_FALSE(tracker.observe(13000, 40, QStringLiteral("limit in place")));
    ASSERT_EQ(tracker.phases().size(), 2u);
    EXPECT_TRUE(tracker.phases()[0].failed);
    EXPECT_FALSE(tracker.phases()[0].heldAfterMs.has_value());
    EXPECT_FALSE(tracker.phases()[1].failed);
    EXPECT_EQ(tracker.phases()[1].heldAfterMs, 2000) << "held from +9 s, 2 s into the phase";
    EXPECT_EQ(*tracker.phases()[1].worst, 40) << "what settling saw is not the phase's worst";
}

TEST(ScenarioVerdict, ExitCodesAndSummary)
{
    ScenarioVerdict verdict;
    verdict.stepsMessage = QStringLiteral("all 3 steps succeeded");
    EXPECT_EQ(verdict.exitCode(), 0);
    EXPECT_EQ(verdict.summary(), QStringLiteral("all 3 steps succeeded"));
    verdict.checks.push_back({QStringLiteral("p99"), false, true, true, QStringLiteral("held"), {}, {}});
    EXPECT_EQ(verdict.summary(), QStringLiteral("all 3 steps succeeded, 1 check held"));
    verdict.checks.push_back({QStringLiteral("pending growth"),
                              true,
                              true,
                              false,
                              QStringLiteral("FAILED"),
                              {QStringLiteral("overload")},
                              {}});
    EXPECT_EQ(verdict.exitCode(), ScenarioVerdict::kExitExpectationFailed);
    EXPECT_EQ(verdict.summary(), QStringLiteral("expectation failed: pending growth (phase overload)"));
    verdict.stepsSucceeded = false;
    verdict.stepsMessage = QStringLiteral("step 2 (set rate to 500) failed: refused");
    EXPECT_EQ(verdict.exitCode(), ScenarioVerdict::kExitStepFailed) << "a failed step is the bigger news";
    EXPECT_EQ(verdict.summary(), verdict.stepsMessage);
}

TEST(ScenarioLoader, ExpectationsAndGuards)
{
    const auto loaded = ScenarioLoader::fromJson(R"json({"title": "t", "steps": [
        {"annotate": "overload"}, {"setRate": 400}],
      "expect": [{"name": "p99", "query": "histogram_quantile(0.99, x)", "holds": "<= 0.5", "unit": "s",
                  "during": "overload", "after": "30s", "severity": "warning"}],
      "guards": [{"name": "pending growth", "query": "sum(http_client_pool_pending)", "holds": "< 5000",
                  "for": "10s", "then": {"pause": true}},
                 {"query": "up == 0", "holds": "< 1", "then": {"stop": true}},
                 {"name": "soft", "query": "x", "holds": "> 1", "then": {"setRate": 50}, "continueScenario": true}]})json");
    ASSERT_TRUE(loaded.usable) << loaded.issues.value(0).toString().toStdString();
    const Scenario &scenario = loaded.scenario;
    ASSERT_EQ(scenario.expectations.size(), 1u);
    EXPECT_EQ(scenario.expectations[0].during, QStringList{QStringLiteral("overload")});
    EXPECT_EQ(scenario.expectations[0].graceMs, 30'000);
    EXPECT_EQ(scenario.expectations[0].severity, Check::Severity::Warning);
    EXPECT_EQ(scenario.expectations[0].describe(),
              QStringLiteral("p99: histogram_quantile(0.99, x) ≤ 500 ms during overload"));
    ASSERT_EQ(scenario.guards.size(), 3u);
    EXPECT_EQ(scenario.guards[0].check.forMs, 10'000);
    EXPECT_EQ(scenario.guards[0].action->kind, ScenarioStep::Kind::Pause);
    EXPECT_EQ(scenario.guards[0].describeAction(), QStringLiteral("pause the load, stop the scenario"));
    EXPECT_EQ(scenario.guards[1].check.name, QStringLiteral("up == 0")) << "the query names a check without a name";
    EXPECT_FALSE(scenario.guards[1].action);
    EXPECT_EQ(scenario.guards[1].describeAction(), QStringLiteral("stop the scenario"));
    EXPECT_FALSE(scenario.guards[2].stopsScenario);
    EXPECT_EQ(scenario.guards[2].action->value, 50);
}

TEST(ScenarioLoader, CheckMistakesAreLocatedAndStopTheRun)
{
    const auto loaded = ScenarioLoader::fromJson(R"json({"steps": [{"annotate": "overload"}],
      "expect": [{"query": "x", "holds": "5000"},
                 {"holds": "< 1", "for": "soon"},
                 {"query": "x", "holds": "< 1", "during": ["overlaod"]},
                 {"query": "x", "holds": "< 1", "severity": "fatal", "colour": "red"}],
      "guards": [{"query": "x", "holds": "< 1"},
                 {"query": "x", "holds": "< 1", "then": {"setRate": -5}},
                 {"query": "x", "holds": "< 1", "then": {"screenshot": "a.png"}}]})json");
    EXPECT_FALSE(loaded.usable);
    QStringList places;
    for (const DashboardIssue &issue : loaded.issues)
        places << issue.toString();
    const QString all = places.join(QLatin1Char('\n'));
    for (const char *expected :
         {"expect[0].holds: must be a comparison", "expect[1].query: missing", "expect[1].for: is not a duration",
          "expect[2].during: no annotate step is named \"overlaod\" (phases: overload)",
          "expect[3].severity: must be \"critical\" or \"warning\"", "expect[3].colour: unknown key",
          "guards[0].then: needs one action", "guards[1].then.setRate: must be a number ≥ 0",
          "guards[2].then: needs one action"})
        EXPECT_TRUE(all.contains(QString::fromUtf8(expected))) << expected << "\nin:\n" << all.toStdString();
}
