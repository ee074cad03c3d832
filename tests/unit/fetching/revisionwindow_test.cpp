// SPDX-License-Identifier: GPL-3.0-or-later
// Tail polls ask again for as much as the server still revises, so that what is recorded is
// the final answer: Prometheus revises its newest instant only; VictoriaMetrics the last
// 30 s by default (measured against the real one: integration test dashboardpoller).
#include "fetching/historyplanner.h"
#include "fetching/revisionwindow.h"
#include "historytesttext.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace {

using namespace Qt::StringLiterals;
using HistoryTestText::ms;
using HistoryTestText::span;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

TEST(RevisionWindow, FindsTheOldestSampleTheAnswerChanged)
{
    const std::vector<qint64> stored{1000, 2000, 3000, 4000};
    const std::vector<double> values{1, 2, kNaN, 4};
    const TimeRange asked{2000, 5000};
    // Same values (NaN included) and a new instant: nothing revised.
    EXPECT_FALSE(RevisionWindow::oldestRevision(stored, values, std::vector<qint64>{2000, 3000, 4000, 5000},
                                                std::vector<double>{2, kNaN, 4, 5}, asked, 4000));
    // The newest changed, and one before it: the older counts.
    EXPECT_EQ(RevisionWindow::oldestRevision(stored, values, std::vector<qint64>{2000, 3000, 4000},
                                             std::vector<double>{2, 3, 4.5}, asked, 4000),
              3000);
    // Before the range asked, nothing is compared.
    EXPECT_FALSE(RevisionWindow::oldestRevision(stored, values, std::vector<qint64>{2000, 3000, 4000},
                                                std::vector<double>{2, kNaN, 4}, asked, 4000));
}

TEST(RevisionWindow, ASampleAppearingOrVanishingWhereTheServerHadAnsweredIsARevision)
{
    // Asked up to 4 s before; the store has 1 s and 4 s only: 2 s appeared late, 5 s is new.
    const std::vector<qint64> stored{1000, 4000};
    const std::vector<double> values{1, 4};
    const std::vector<qint64> answer{2000, 4000, 5000};
    const std::vector<double> answered{2, 4, 5};
    EXPECT_EQ(RevisionWindow::oldestRevision(stored, values, answer, answered, {2000, 5000}, 4000), 2000);
    EXPECT_FALSE(RevisionWindow::oldestRevision(stored, values, answer, answered, {2000, 5000}, std::nullopt));
    // A series the store has never seen, in a range asked for before.
    EXPECT_EQ(RevisionWindow::oldestRevision({}, {}, answer, answered, {2000, 5000}, 4500), 2000);
    EXPECT_FALSE(RevisionWindow::oldestRevision({}, {}, answer, answered, {2000, 5000}, 1500));
    // VictoriaMetrics asked for its last 30 s only: an empty answer where samples were.
    EXPECT_EQ(RevisionWindow::oldestRevision(stored, values, {}, {}, {1000, 5000}, 4000), 1000);
    EXPECT_FALSE(RevisionWindow::oldestRevision(stored, values, {}, {}, {4500, 5000}, 4000));
}

TEST(RevisionWindow, TheServersRoundingIsNotARevision)
{
    // Two answers of a real VictoriaMetrics for the same instant, asked in ranges 5 s apart:
    // the same sum, added up in another order.
    EXPECT_FALSE(RevisionWindow::isRevision(3133.5415331522627, 3133.541533152262));
    EXPECT_FALSE(RevisionWindow::isRevision(3.0712760884524486, 3.071276088452449));
    EXPECT_FALSE(RevisionWindow::isRevision(kNaN, kNaN));
    // What data still arriving does to a rate: a change in the fourth digit.
    EXPECT_TRUE(RevisionWindow::isRevision(98.13211666742961, 98.14998334248861));
    EXPECT_TRUE(RevisionWindow::isRevision(0, 1e-12));
    EXPECT_TRUE(RevisionWindow::isRevision(-1e-20, 1e-20));
    EXPECT_TRUE(RevisionWindow::isRevision(kNaN, 0));
    EXPECT_TRUE(RevisionWindow::isRevision(1, std::numeric_limits<double>::infinity()));
    EXPECT_TRUE(RevisionWindow::isRevision(std::numeric_limits<double>::infinity(), 1e308));

    // Every tail finding its oldest instant off in the last digit asks again for no more.
    const std::vector<qint64> stored{1000, 2000, 3000};
    const std::vector<double> values{3133.5415331522627, 3132.9157168070474, 3131.0};
    RevisionWindow window;
    const TimeRange asked{1000, 4000};
    const auto oldest = RevisionWindow::oldestRevision(
        stored, values, std::vector<qint64>{1000, 2000, 3000, 4000},
        std::vector<double>{3133.541533152262, 3132.915716807048, 3131.0, 3130.0}, asked, 3000);
    EXPECT_FALSE(oldest);
    EXPECT_FALSE(window.observe(asked, 1000, oldest));
    EXPECT_EQ(window.overlapMs(1000), 2000);
}

TEST(RevisionWindow, PrometheusRevisingItsNewestInstantKeepsTheOverlapOfTwoSteps)
{
    RevisionWindow window;
    const qint64 step = 1000;
    const TimeRange asked{ms(u"1h"_s) - 2 * step, ms(u"1h"_s) + step};
    EXPECT_FALSE(window.observe(asked, step, ms(u"1h"_s)));
    EXPECT_FALSE(window.observe(asked, step, std::nullopt));
    EXPECT_EQ(window.overlapMs(step), 2 * step);
    EXPECT_EQ(window.learnedMs(), 0);
}

TEST(RevisionWindow, AChangeAtTheOldestInstantAskedWidensTheOverlapUntilItCoversTheServersDelay)
{
    // A server that revises the last 30 s (VictoriaMetrics' -search.latencyOffset): each
    // tail poll that finds its oldest instant changed doubles the overlap.
    RevisionWindow window;
    const qint64 step = 1000;
    qint64 newest = ms(u"1h"_s);
    int polls = 0;
    while (polls < 20) {
        const TimeRange asked{newest - window.overlapMs(step), newest + step};
        const bool oldestChanged = newest + step - asked.startMs <= 30'000;
        if (!window.observe(asked, step, oldestChanged ? std::optional<qint64>(asked.startMs) : std::nullopt))
            break;
        newest += step;
        ++polls;
    }
    EXPECT_LE(polls, 5) << "it took too many polls to reach back 30 s";
    EXPECT_GE(window.overlapMs(step), 30'000);
    EXPECT_LE(window.overlapMs(step), 2 * 32'000);
}

TEST(RevisionWindow, TheQueriesOfOneRequestReportingOneRevisionWidenItOnce)
{
    // A merged tail of 19 queries: each finds the oldest instant of the same 7 s changed.
    RevisionWindow window;
    const TimeRange asked{ms(u"1h"_s) - 7000, ms(u"1h"_s)};
    EXPECT_TRUE(window.observe(asked, 1000, asked.startMs));
    const qint64 once = window.overlapMs(1000);
    for (int query = 1; query < 19; ++query)
        EXPECT_FALSE(window.observe(asked, 1000, asked.startMs));
    EXPECT_EQ(window.overlapMs(1000), once);
    EXPECT_EQ(once, 14'000);
}

TEST(RevisionWindow, NeverAsksForMoreThanFiveMinutes)
{
    RevisionWindow window;
    for (int i = 0; i < 30; ++i) {
        const TimeRange asked{ms(u"1h"_s) - window.overlapMs(15'000), ms(u"1h"_s)};
        window.observe(asked, 15'000, asked.startMs);
    }
    EXPECT_EQ(window.overlapMs(15'000), RevisionWindow::kMaxMs);
}

TEST(RevisionWindow, ThePlannersTailAsksAgainForWhatTheServerRevises)
{
    const HistoryPlanner planner;
    FetchCoverage coverage;
    coverage.record(span(u"0–3h"_s), ms(u"1s"_s));
    const HistoryPlanner::View live{span(u"0–3h"_s), true, ms(u"3h"_s)};
    const HistoryPlanner::Query revising{coverage, ms(u"3h"_s), ms(u"1s"_s), ms(u"32s"_s)};
    EXPECT_EQ(HistoryPlanner::describe(planner.next(live, ms(u"15s"_s), revising, true), 0),
              u"tail 2h59m28s–3h step 1s"_s);
}
