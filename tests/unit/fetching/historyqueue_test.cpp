// SPDX-License-Identifier: GPL-3.0-or-later
// The history requests of every query share one queue with a bounded number in flight: what
// it sends next, printed in order. backfill_test checks the same order against a server.
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

} // namespace

TEST(HistoryQueue, EveryPictureBeforeAnyDetailAndTheDetailNewestFirst)
{
    const Planner planner(withMaxPoints(4000));
    HistoryQueue queue;
    for (int query = 0; query < 3; ++query)
        queue.push(query, planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0).requests.front());
    EXPECT_EQ(queue.describe(0),
              (QStringList{u"q0 coarse 0–3h step 15s"_s, u"q1 coarse 0–3h step 15s"_s, u"q2 coarse 0–3h step 15s"_s}));

    // The first coarse answer plans its detail; the other queries' pictures still go first.
    ASSERT_EQ(queue.takeNext()->query, 0);
    const Planner::FinePlan fine = *planner.plan(span(u"0–3h"_s), ms(u"15s"_s), 0).fine;
    for (const Planner::Request &chunk : planner.planFine(fine, 1, ms(u"15s"_s)).requests)
        queue.push(0, chunk);
    ASSERT_EQ(queue.takeNext()->query, 1);
    for (const Planner::Request &chunk : planner.planFine(fine, 1, ms(u"15s"_s)).requests)
        queue.push(1, chunk);
    EXPECT_EQ(queue.describe(0), (QStringList{
                                     u"q2 coarse 0–3h step 15s"_s,
                                     u"q0 fine 2h13m20s–3h step 1s rank 0"_s,
                                     u"q1 fine 2h13m20s–3h step 1s rank 0"_s,
                                     u"q0 fine 1h6m40s–2h13m19s step 1s rank 1"_s,
                                     u"q1 fine 1h6m40s–2h13m19s step 1s rank 1"_s,
                                     u"q0 fine 0–1h6m39s step 1s rank 2"_s,
                                     u"q1 fine 0–1h6m39s step 1s rank 2"_s,
                                 }));

    // A new picture jumps the detail; a query's requests can be dropped at once.
    queue.push(2, {Phase::Single, span(u"0–15m"_s), 1000, 0});
    EXPECT_EQ(queue.dropQuery(1), 3);
    EXPECT_EQ(queue.size(), 5);
    const QStringList order = queue.describe(0);
    QStringList taken;
    while (const std::optional<HistoryQueue::Entry> next = queue.takeNext())
        taken << QStringLiteral("q%1 %2").arg(next->query).arg(Planner::describe(next->request, 0));
    EXPECT_EQ(taken, order);
    EXPECT_EQ(taken, (QStringList{u"q2 coarse 0–3h step 15s"_s, u"q2 single 0–15m step 1s"_s,
                                  u"q0 fine 2h13m20s–3h step 1s rank 0"_s, u"q0 fine 1h6m40s–2h13m19s step 1s rank 1"_s,
                                  u"q0 fine 0–1h6m39s step 1s rank 2"_s}));
    EXPECT_TRUE(queue.isEmpty());
}
