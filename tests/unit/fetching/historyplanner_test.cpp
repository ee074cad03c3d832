// SPDX-License-Identifier: GPL-3.0-or-later
// What the poller asks Prometheus for, decided by the pure HistoryPlanner: ranges go in as
// text ("0–8h", relative to the start of the window) and the planned requests come out
// printed ("coarse 0–8h step 30s"). The scenarios of backfill_test, without a server.
#include "fetching/historyplanner.h"
#include "historytesttext.h"

#include <gtest/gtest.h>

namespace {

using namespace Qt::StringLiterals;
using HistoryTestText::ms;
using HistoryTestText::span;
using Planner = HistoryPlanner;
using Phase = HistoryPlanner::Phase;

Planner::Settings withMaxPoints(int maxPointsPerRequest)
{
    Planner::Settings settings;
    settings.maxPointsPerRequest = maxPointsPerRequest;
    return settings;
}

QStringList printed(const Planner::Plan &plan)
{
    return Planner::describe(plan, 0);
}

QStringList printed(const Planner::FineChunks &chunks)
{
    return Planner::describe(chunks, 0);
}

} // namespace

TEST(HistoryPlanner, AChaosDayIsACoarsePictureThenTheRawSamplesNewestFirst)
{
    const Planner planner; // 1 s scrape, 40,000 samples a query, Prometheus' 11,000 points
    const Planner::Plan plan = planner.plan(span(u"0–8h"_s), ms(u"30s"_s), 0);
    EXPECT_EQ(printed(plan), (QStringList{u"coarse 0–8h step 30s"_s, u"reserve 3 fine chunks"_s}));
    ASSERT_TRUE(plan.fine);

    // The coarse answer says one series: the detail at the scrape interval, oldest chunk
    // ranked last so that the live edge comes first.
    EXPECT_EQ(printed(planner.planFine(*plan.fine, 1, ms(u"30s"_s))),
              (QStringList{u"fine 0–3h3m19s step 1s rank 2"_s, u"fine 3h3m20s–6h6m39s step 1s rank 1"_s,
                           u"fine 6h6m40s–8h step 1s rank 0"_s, u"then step 1s"_s}));
}

TEST(HistoryPlanner, TheDetailIsWhatThePixelsNeedAndAZoomAsksForMore)
{
    Planner::Settings settings;
    settings.detailPointsPerColumn = 8;
    const Planner planner(settings);
    // 8 h in 650 px: a column is 44 s, the panel's step 1 min; 8 points a column is 10 s
    // detail -- 2,881 points a series where 1 s would be 28,801.
    const qint64 eightHours = planner.panelStepMs(span(u"0–8h"_s), 650);
    EXPECT_EQ(eightHours, ms(u"1m"_s));
    EXPECT_EQ(planner.detailStepFor(eightHours), ms(u"10s"_s));
    const Planner::Plan plan = planner.plan(span(u"0–8h"_s), eightHours, 0);
    ASSERT_TRUE(plan.fine);
    EXPECT_EQ(printed(planner.planFine(*plan.fine, 1, eightHours)),
              (QStringList{u"fine 0–8h step 10s rank 0"_s, u"then step 10s"_s}));
    // Zoomed to the last 30 minutes: a 5 s panel step, raw detail for what is shown.
    const qint64 zoomed = planner.panelStepMs(span(u"7h30m–8h"_s), 650);
    EXPECT_EQ(zoomed, ms(u"5s"_s));
    EXPECT_EQ(planner.plan(span(u"7h30m–8h"_s), zoomed, 1).fineStepMs, ms(u"1s"_s));
    // Without the cap, the scrape interval within the budget, as before.
    EXPECT_EQ(Planner().plan(span(u"0–8h"_s), eightHours, 1).fineStepMs, ms(u"1s"_s));
}

TEST(HistoryPlanner, ThreeHoursWithinAThousandPointsARequest)
{
    // backfill_test's first scenario: 800 px over 3 h is a 15 s step, the server takes 1000
    // points a request: 10,801 raw instants in 11 chunks.
    const Planner planner(withMaxPoints(1000));
    EXPECT_EQ(planner.panelStepMs(span(u"0–3h"_s), 800), ms(u"15s"_s));
    const Planner::Plan plan = planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0);
    EXPECT_EQ(printed(plan), (QStringList{u"coarse 0–3h step 15s"_s, u"reserve 11 fine chunks"_s}));
    EXPECT_EQ(printed(planner.planFine(*plan.fine, 1, ms(u"15s"_s))), (QStringList{
                                                                          u"fine 0–16m39s step 1s rank 10"_s,
                                                                          u"fine 16m40s–33m19s step 1s rank 9"_s,
                                                                          u"fine 33m20s–49m59s step 1s rank 8"_s,
                                                                          u"fine 50m–1h6m39s step 1s rank 7"_s,
                                                                          u"fine 1h6m40s–1h23m19s step 1s rank 6"_s,
                                                                          u"fine 1h23m20s–1h39m59s step 1s rank 5"_s,
                                                                          u"fine 1h40m–1h56m39s step 1s rank 4"_s,
                                                                          u"fine 1h56m40s–2h13m19s step 1s rank 3"_s,
                                                                          u"fine 2h13m20s–2h29m59s step 1s rank 2"_s,
                                                                          u"fine 2h30m–2h46m39s step 1s rank 1"_s,
                                                                          u"fine 2h46m40s–3h step 1s rank 0"_s,
                                                                          u"then step 1s"_s,
                                                                      }));
}

TEST(HistoryPlanner, AShortRangeIsOneRequestAtTheRawStep)
{
    const Planner planner(withMaxPoints(1000));
    const qint64 panelStep = planner.panelStepMs(span(u"0–15m"_s), 800);
    EXPECT_EQ(panelStep, ms(u"2s"_s));
    const Planner::Plan plan = planner.plan(span(u"0–15m"_s), panelStep, 0);
    EXPECT_EQ(printed(plan), QStringList{u"single 0–15m step 1s"_s}) << "901 points: no coarse pass first";
    EXPECT_EQ(plan.fineStepMs, 1000);
    // A panel whose own step is the scrape interval has nothing coarser to show first.
    EXPECT_EQ(printed(planner.plan(span(u"0–3h"_s), ms(u"1s"_s), 0)), QStringList{u"single 0–3h step 1s"_s});
}

TEST(HistoryPlanner, AQueryWithManySeriesGetsACoarserRawStep)
{
    const Planner planner(withMaxPoints(1000));
    // 40,000 samples over 20 series: 2000 points each over 3 h, about 5.4 s: a 10 s step.
    EXPECT_EQ(planner.fineStepFor(ms(u"3h"_s), 20), ms(u"10s"_s));
    const Planner::Plan plan = planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0);
    EXPECT_EQ(
        printed(planner.planFine(*plan.fine, 20, ms(u"15s"_s))),
        (QStringList{u"fine 0–2h46m30s step 10s rank 1"_s, u"fine 2h46m40s–3h step 10s rank 0"_s, u"then step 10s"_s}));
    // Known from an earlier answer, the count sets the step of the plan itself: few enough
    // points for a single pass.
    EXPECT_EQ(printed(planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 20)), QStringList{u"single 0–3h step 10s"_s});
    // Detail no finer than the picture drawn is no detail: no fine pass.
    EXPECT_EQ(printed(planner.planFine(*plan.fine, 20, ms(u"10s"_s))), QStringList{u"then step 10s"_s});
}

TEST(HistoryPlanner, AQueryWithoutSeriesStopsAfterTheCoarsePass)
{
    const Planner planner(withMaxPoints(1000));
    const Planner::Plan plan = planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0);
    EXPECT_EQ(printed(planner.planFine(*plan.fine, 0, ms(u"15s"_s))), QStringList{u"then step 15s"_s});
}

TEST(HistoryPlanner, AnEmptyRangePlansNothing)
{
    const Planner planner;
    const Planner::Plan plan = planner.plan({5000, 4000}, ms(u"15s"_s), 0);
    EXPECT_TRUE(printed(plan).isEmpty());
    EXPECT_FALSE(plan.fine);
}

TEST(HistoryPlanner, NextLoadsWhatTheVisibleRangeLacksAndElsePollsTheTail)
{
    const Planner planner;
    FetchCoverage coverage;
    const Planner::View live{span(u"0–3h"_s), true, ms(u"3h"_s)};
    const qint64 step = ms(u"15s"_s);

    // Nothing fetched: the whole window, up to now.
    EXPECT_EQ(Planner::describe(planner.next(live, step, {coverage, {}, {}}, true), 0), u"history 0–3h"_s);

    // Loaded: a refresh tick polls from two steps before the newest sample, at the raw step
    // the history ended with; a move of the window alone asks for nothing.
    coverage.record(span(u"0–3h"_s), ms(u"1s"_s));
    const Planner::Query loaded{coverage, ms(u"3h"_s), ms(u"1s"_s)};
    EXPECT_EQ(Planner::describe(planner.next(live, step, loaded, true), 0), u"tail 2h59m58s–3h step 1s"_s);
    EXPECT_EQ(Planner::describe(planner.next(live, step, loaded, false), 0), u"nothing"_s);

    // backfill_test: ten seconds later the live window has moved; its newest part is the
    // tail's, not history.
    const Planner::View later{span(u"10s–3h10s"_s), true, ms(u"3h10s"_s)};
    EXPECT_EQ(Planner::describe(planner.next(later, step, loaded, true), 0), u"tail 2h59m58s–3h10s step 1s"_s);

    // Before any sample arrived the tail starts from where the answers reached.
    EXPECT_EQ(Planner::describe(planner.next(later, step, {coverage, {}, ms(u"1s"_s)}, true), 0),
              u"tail 2h59m58s–3h10s step 1s"_s);
    // Never coarser than the panel's step, never finer than what history used.
    EXPECT_EQ(Planner::describe(planner.next(later, step, {coverage, ms(u"3h"_s), ms(u"1m"_s)}, true), 0),
              u"tail 2h59m30s–3h step 15s"_s);

    // Never from before the window: not for a series silent since long before it, nor for a
    // sample a wrong answer dated decades back (which once made every refresh ask for 1.8
    // billion points, the panel broken for good).
    const Planner::View lateLive{span(u"2h–5h"_s), true, ms(u"5h"_s)};
    FetchCoverage toNow;
    toNow.record(span(u"0–5h"_s), ms(u"1s"_s));
    EXPECT_EQ(Planner::describe(planner.next(lateLive, step, {toNow, ms(u"1h"_s), ms(u"1s"_s)}, true), 0),
              u"tail 2h–5h step 1s"_s);
    EXPECT_EQ(Planner::describe(planner.next(lateLive, step, {toNow, -1'700'000'000'000, ms(u"1s"_s)}, true), 0),
              u"tail 2h–5h step 1s"_s);
    // A view zoomed into the last seconds still asks again for the overlap before the newest.
    const Planner::View lastSeconds{span(u"4h59m59s–5h"_s), false, ms(u"5h"_s)};
    EXPECT_EQ(Planner::describe(planner.next(lastSeconds, step, {toNow, ms(u"5h"_s), ms(u"1s"_s)}, true), 0),
              u"tail 4h59m58s–5h step 1s"_s);
}

TEST(HistoryPlanner, AZoomIntoWhatIsLoadedAsksForNothingAndAZoomOutForTheRest)
{
    const Planner planner;
    FetchCoverage coverage;
    coverage.record(span(u"0–3h"_s), ms(u"1s"_s));
    const Planner::Query loaded{coverage, ms(u"3h"_s), ms(u"1s"_s)};

    const Planner::View zoomed{span(u"1h–2h"_s), false, ms(u"3h"_s)};
    const qint64 zoomStep = planner.panelStepMs(zoomed.visible, 800);
    EXPECT_EQ(zoomStep, ms(u"5s"_s));
    EXPECT_EQ(Planner::describe(planner.next(zoomed, zoomStep, loaded, false), 0), u"nothing"_s);
    // The tail is recorded while zoomed too.
    EXPECT_EQ(Planner::describe(planner.next(zoomed, zoomStep, loaded, true), 0), u"tail 2h59m58s–3h step 1s"_s);

    // Six hours back from now: three of them were never fetched; a paused window loads the
    // range as shown.
    const Planner::View wider{span(u"-3h–3h"_s), false, ms(u"3h"_s)};
    // A view reaching past now is asked for up to now and no further; one wholly after now,
    // for nothing.
    const Planner::View pastNow{span(u"2h30m–3h30m"_s), false, ms(u"3h"_s)};
    FetchCoverage none;
    EXPECT_EQ(Planner::describe(planner.next(pastNow, zoomStep, {none, {}, {}}, false), 0), u"history 2h30m–3h"_s);
    const Planner::View future{span(u"3h10m–3h20m"_s), false, ms(u"3h"_s)};
    EXPECT_EQ(Planner::describe(planner.next(future, zoomStep, {none, {}, {}}, true), 0), u"nothing"_s);
    EXPECT_EQ(Planner::describe(planner.next(pastNow, zoomStep, loaded, false), 0), u"nothing"_s)
        << "loaded up to now is loaded";

    const qint64 wideStep = planner.panelStepMs(wider.visible, 800);
    EXPECT_EQ(wideStep, ms(u"30s"_s));
    EXPECT_EQ(Planner::describe(planner.next(wider, wideStep, loaded, false), 0), u"history -3h–3h"_s);
}

TEST(HistoryPlanner, TheLoadStateFollowsTheAnswers)
{
    const Planner planner(withMaxPoints(1000));
    const Planner::Plan plan = planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0);
    Planner::LoadState load;
    load.begin(plan);
    EXPECT_EQ(load.describe(), u"drawn -, tail -, fine 1s, 11 fine chunks reserved"_s);

    // The coarse picture is drawn before its detail is planned from its answer.
    load.drawn(Phase::Coarse, ms(u"15s"_s));
    const std::optional<Planner::FinePlan> fine = load.takeFinePlan();
    ASSERT_TRUE(fine);
    load.fineStepMs = planner.planFine(*fine, 1, load.drawnStepMs).fineStepMs;
    EXPECT_EQ(load.describe(), u"drawn 15s, tail 15s, fine 1s"_s);
    load.drawn(Phase::Fine, ms(u"1s"_s));
    EXPECT_EQ(load.describe(), u"drawn 15s, tail 15s, fine 1s"_s) << "a chunk is only part of the detail";
    load.complete();
    EXPECT_EQ(load.describe(), u"drawn 1s, tail 1s, fine 1s"_s);
}

TEST(HistoryPlanner, CancelKeepsTheCoarseStepAndFailureKeepsWhatWasDrawn)
{
    const Planner planner(withMaxPoints(1000));
    const Planner::Plan plan = planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0);

    Planner::LoadState cancelled;
    cancelled.begin(plan);
    EXPECT_EQ(cancelled.cancel(true), 11) << "the reservation is given back";
    EXPECT_EQ(cancelled.cancel(true), 0) << "once";
    cancelled.drawn(Phase::Coarse, ms(u"15s"_s));
    EXPECT_FALSE(cancelled.takeFinePlan()) << "no detail is planned after the coarse answer";
    cancelled.fineStepMs = ms(u"1s"_s);
    cancelled.complete();
    EXPECT_EQ(cancelled.describe(), u"drawn 15s, tail 1s, fine 1s, cancelled"_s)
        << "the panel says the detail is not there; the tail brings raw samples";

    Planner::LoadState failed;
    failed.begin(plan);
    EXPECT_EQ(failed.fail(), 11);
    failed.complete();
    EXPECT_EQ(failed.describe(), u"drawn -, tail -, fine 1s, failed"_s);
    // The next load starts afresh.
    failed.begin(planner.plan(span(u"0–15m"_s), ms(u"2s"_s), 0));
    EXPECT_EQ(failed.describe(), u"drawn -, tail -, fine 1s"_s);
    // An empty plan forgets failure and cancel, and changes nothing else.
    cancelled.begin(planner.plan({5000, 4000}, ms(u"15s"_s), 0));
    EXPECT_EQ(cancelled.describe(), u"drawn 15s, tail 1s, fine 1s"_s);
}
