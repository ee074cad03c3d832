// SPDX-License-Identifier: GPL-3.0-or-later
// A check judged over recorded samples, as the legend and the phase statistics show it: a break
// shorter than `for` holds, a longer one fails where it lasted long enough, a gap ends a break,
// "during" limits it to the phases its annotations start, and the whole range is as bad as its
// worst phase.
#include "analysis/checkjudgement.h"
#include "analysis/phasestatistics.h"

#include <QDateTime>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

struct Recorded
{
    std::vector<qint64> t;
    std::vector<double> v;
    CheckJudgement::Samples samples() const { return {t, v}; }
};

// One sample a second from kStart: `values[i]` at second i.
Recorded perSecond(const std::vector<double> &values)
{
    Recorded recorded;
    for (std::size_t i = 0; i < values.size(); ++i) {
        recorded.t.push_back(kStart + qint64(i) * 1000);
        recorded.v.push_back(values[i]);
    }
    return recorded;
}

Check pendingBelow(double threshold, qint64 forMs)
{
    Check check;
    check.name = QStringLiteral("pending growth");
    check.series = QStringLiteral("pending");
    check.condition = *CheckCondition::parse(QStringLiteral("< %1").arg(threshold));
    check.forMs = forMs;
    return check;
}

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

TEST(CheckJudgement, ABreakShorterThanForHoldsALongerOneFailsWhereItLastedLongEnough)
{
    // 3 s above 100 (held with for 5 s), then 8 s above (fails 5 s into it).
    std::vector<double> values(30, 10.0);
    for (int s = 5; s < 8; ++s)
        values[std::size_t(s)] = 150;
    for (int s = 15; s < 23; ++s)
        values[std::size_t(s)] = 120 + s;
    const Recorded pending = perSecond(values);
    const TimeRange all{kStart, kStart + 29'000};

    const CheckVerdict held =
        CheckJudgement::judge(pendingBelow(100, 5000), {pending.samples()}, {kStart, kStart + 12'000}, {});
    EXPECT_FALSE(held.failed());
    EXPECT_EQ(held.samples, 13);
    EXPECT_EQ(*held.worst, 150);
    EXPECT_EQ(held.describe(pendingBelow(100, 5000)),
              QStringLiteral("held · worst 150 at %1").arg(clock(kStart + 5000)));

    const Check check = pendingBelow(100, 5000);
    const CheckVerdict failed = CheckJudgement::judge(check, {pending.samples()}, all, {});
    ASSERT_TRUE(failed.failed());
    EXPECT_EQ(*failed.failedAtMs, kStart + 20'000) << "broken since 15 s, for 5 s";
    EXPECT_EQ(failed.failedValue, 140);
    EXPECT_EQ(*failed.worst, 150) << "the short break was the worst";
    EXPECT_EQ(failed.worstAtMs, kStart + 5000);
    EXPECT_EQ(failed.describe(check), QStringLiteral("FAILED at %1: 140 ≥ 100 for 5 s · worst 150 at %2")
                                          .arg(clock(kStart + 20'000), clock(kStart + 5000)));
    EXPECT_EQ(failed.badge(check), QStringLiteral("✗ 140 at %1").arg(clock(kStart + 20'000)));
}

TEST(CheckJudgement, AGapEndsABreakAndAQueryIsAsBadAsItsWorstSeries)
{
    const double gap = std::numeric_limits<double>::quiet_NaN();
    // Broken 4 s, a gap, broken 4 s again: never 5 s without a break.
    const Recorded interrupted = perSecond({200, 200, 200, 200, gap, 200, 200, 200, 200, 10});
    const Recorded steady = perSecond({10, 10, 10, 10, 10, 10, 10, 10, 10, 10});
    const Check check = pendingBelow(100, 4000);
    const TimeRange all{kStart, kStart + 9000};
    EXPECT_FALSE(CheckJudgement::judge(check, {interrupted.samples(), steady.samples()}, all, {}).failed());

    const Recorded worse = perSecond({10, 300, 300, 300, 300, 300, 300, 10, 10, 10});
    const CheckVerdict verdict = CheckJudgement::judge(check, {steady.samples(), worse.samples()}, all, {});
    ASSERT_TRUE(verdict.failed()) << "one replica's pending is enough";
    EXPECT_EQ(*verdict.failedAtMs, kStart + 5000);
    EXPECT_EQ(verdict.samples, 20);
}

TEST(CheckJudgement, PerPhaseEachStretchOnItsOwnTheWholeAsBadAsItsWorst)
{
    std::vector<double> values(60, 10.0);
    for (int s = 40; s < 50; ++s)
        values[std::size_t(s)] = 500;
    const Recorded pending = perSecond(values);
    Annotation overload;
    overload.timeMs = kStart + 30'000;
    overload.text = QStringLiteral("overload\nrate 500 /s");
    overload.source = Annotation::Source::Scenario;
    const std::vector<Phase> phases = Phases::of({kStart, kStart + 59'000}, {overload});
    ASSERT_EQ(phases.size(), 3u);
    EXPECT_EQ(phases[2].startedBy, QStringLiteral("overload"));

    Check check = pendingBelow(100, 5000);
    std::vector<CheckVerdict> verdicts = CheckJudgement::perPhase(check, {pending.samples()}, phases);
    ASSERT_EQ(verdicts.size(), 3u);
    EXPECT_FALSE(verdicts[1].failed()) << "before the overload";
    EXPECT_TRUE(verdicts[2].failed());
    EXPECT_TRUE(verdicts[0].failed()) << "the whole range failed where a phase did";
    EXPECT_EQ(verdicts[0].failedAtMs, verdicts[2].failedAtMs);
    EXPECT_EQ(verdicts[0].samples, 60);

    // "after" is the settling after the phase's start: with the first 14 s after "overload" not
    // judged, the break (+10 s to +19 s) counts from +14 s and just lasts its 5 s; with 15 s not.
    check.graceMs = 14'000;
    verdicts = CheckJudgement::perPhase(check, {pending.samples()}, phases);
    ASSERT_TRUE(verdicts[2].failed());
    EXPECT_EQ(*verdicts[2].failedAtMs, kStart + 49'000);
    check.graceMs = 15'000;
    EXPECT_FALSE(CheckJudgement::perPhase(check, {pending.samples()}, phases)[2].failed());

    // "during" another phase: the overload is not judged, the whole range holds.
    check.graceMs = 0;
    check.during = QStringList{QStringLiteral("recovery")};
    verdicts = CheckJudgement::perPhase(check, {pending.samples()}, phases);
    EXPECT_FALSE(verdicts[2].applies);
    EXPECT_EQ(verdicts[2].describe(check), QStringLiteral("not judged here"));
    EXPECT_FALSE(verdicts[0].applies);
    EXPECT_EQ(verdicts[0].badge(check), QStringLiteral("– < 100"));
    check.during = QStringList{QStringLiteral("overload")};
    EXPECT_TRUE(CheckJudgement::perPhase(check, {pending.samples()}, phases)[0].failed());
}

TEST(CheckJudgement, NoSamplesIsNeitherHeldNorFailed)
{
    const Check check = pendingBelow(100, 0);
    const CheckVerdict verdict = CheckJudgement::judge(check, {}, {kStart, kStart + 1000}, {});
    EXPECT_FALSE(verdict.failed());
    EXPECT_EQ(verdict.samples, 0);
    EXPECT_EQ(verdict.describe(check), QStringLiteral("no samples"));
}

// The in-flight limit of seed 000: the timeouts already queued drain for 11 s after the limit
// is set, then none. Without settling the phase reads "FAILED" (the drain lasted longer than
// `for`); with it, the fix reads as what it was: held, 11 s after it was set. A break that
// outlasts the settling still fails.
TEST(CheckJudgement, ASettlingPhaseSaysWhenItCameToHold)
{
    std::vector<double> values(60, 0.0);
    for (int s = 10; s < 30; ++s)
        values[std::size_t(s)] = 230; // the collapse
    for (int s = 30; s < 41; ++s)
        values[std::size_t(s)] = 40; // the drain after the limit at +30 s
    const Recorded timeouts = perSecond(values);
    Annotation limit;
    limit.timeMs = kStart + 30'000;
    limit.text = QStringLiteral("in-flight limit → 20");
    limit.source = Annotation::Source::Action;
    const std::vector<Phase> phases = Phases::of({kStart, kStart + 59'000}, {limit});
    ASSERT_EQ(phases.size(), 3u);

    Check check;
    check.name = QStringLiteral("no timeouts");
    check.series = QStringLiteral("timeouts");
    check.condition = *CheckCondition::parse(QStringLiteral("<= 0"));
    check.forMs = 10'000;
    EXPECT_TRUE(CheckJudgement::perPhase(check, {timeouts.samples()}, phases)[2].failed()) << "without settling";

    check.settleMs = 15'000;
    const std::vector<CheckVerdict> verdicts = CheckJudgement::perPhase(check, {timeouts.samples()}, phases);
    ASSERT_FALSE(verdicts[2].failed());
    ASSERT_TRUE(verdicts[2].heldAfterMs.has_value());
    EXPECT_EQ(*verdicts[2].heldAfterMs, 11'000);
    EXPECT_EQ(verdicts[2].describe(check),
              QStringLiteral("held after 11 s (settling 15 s) · worst 0 at %1").arg(clock(kStart + 45'000)));
    EXPECT_EQ(verdicts[2].cell(check), QStringLiteral("✓ after 11 s · worst 0"));
    EXPECT_TRUE(verdicts[1].failed()) << "the collapse before the limit is judged as before";
    EXPECT_FALSE(verdicts[0].heldAfterMs.has_value()) << "settling is a phase's, not the run's";

    // The seed 000 run as recorded: the drain ended on the last second of the settling, and
    // the phase read "held" as though nothing had drained at all.
    check.settleMs = 11'000;
    const CheckVerdict atTheEnd = CheckJudgement::perPhase(check, {timeouts.samples()}, phases)[2];
    ASSERT_FALSE(atTheEnd.failed());
    ASSERT_TRUE(atTheEnd.heldAfterMs.has_value()) << atTheEnd.describe(check).toStdString();
    EXPECT_EQ(*atTheEnd.heldAfterMs, 11'000);

    // A drain longer than the settling and `for` together still fails.
    check.settleMs = 5000;
    check.forMs = 2000;
    EXPECT_TRUE(CheckJudgement::perPhase(check, {timeouts.samples()}, phases)[2].failed());
}

// The range on screen or in a picture may open after the change that began a phase: the
// check settles from the change, as in the post of the whole run, not from the range's edge.
// And a note in the middle of a drain does not restart the settling.
TEST(CheckJudgement, ARangeThatOpensInsideAPhaseSettlesFromTheChangeNotFromItsEdge)
{
    std::vector<double> values(60, 0.0);
    for (int s = 30; s < 36; ++s)
        values[std::size_t(s)] = 40; // the drain after the limit at +30 s
    for (int s = 50; s < 56; ++s)
        values[std::size_t(s)] = 40; // a second break, 20 s after the limit
    const Recorded timeouts = perSecond(values);
    Annotation limit;
    limit.timeMs = kStart + 30'000;
    limit.text = QStringLiteral("in-flight limit → 20");
    limit.source = Annotation::Source::Action;
    const Annotation note = Annotation::note(kStart + 48'000, std::nullopt, QStringLiteral("timeouts again?"));
    Check check;
    check.name = QStringLiteral("no timeouts");
    check.series = QStringLiteral("timeouts");
    check.condition = *CheckCondition::parse(QStringLiteral("<= 0"));
    check.forMs = 3000;
    check.settleMs = 15'000;

    const TimeRange whole{kStart, kStart + 59'000};
    const TimeRange opensLater{kStart + 40'000, kStart + 59'000};
    for (const TimeRange &range : {whole, opensLater}) {
        const CheckVerdict verdict =
            CheckJudgement::perPhase(check, {timeouts.samples()}, Phases::of(range, {limit, note})).front();
        ASSERT_TRUE(verdict.failed()) << "the break at +50 s is 20 s after the limit: past its settling";
        EXPECT_EQ(*verdict.failedAtMs, kStart + 53'000);
    }
}
