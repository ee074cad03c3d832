// SPDX-License-Identifier: GPL-3.0-or-later
// What a query has in the store, at which step: ranges recorded as answers come, printed back,
// and whether a range the user looks at needs fetching.
#include "fetching/fetchcoverage.h"
#include "historytesttext.h"

#include <gtest/gtest.h>

namespace {

using namespace Qt::StringLiterals;
using HistoryTestText::ms;
using HistoryTestText::span;

} // namespace

TEST(FetchCoverage, JoinsTouchingAnswersAtOneStepAndCoversAtThatStepOrCoarser)
{
    FetchCoverage coverage;
    EXPECT_FALSE(coverage.fetchedUntil());
    EXPECT_FALSE(coverage.isCovered(span(u"0–1h"_s), ms(u"1h"_s)));

    coverage.record(span(u"0–3h"_s), ms(u"15s"_s));
    coverage.record(span(u"2h59m30s–3h10s"_s), ms(u"15s"_s)); // a tail poll: joined
    coverage.record(span(u"2h–3h"_s), ms(u"1s"_s));
    coverage.record(span(u"3h5m–3h6m"_s), ms(u"1s"_s)); // a gap before it: kept apart
    EXPECT_EQ(coverage.describe(0),
              (QStringList{u"0–3h10s step 15s"_s, u"2h–3h step 1s"_s, u"3h5m–3h6m step 1s"_s, u"until 3h6m"_s}));

    EXPECT_TRUE(coverage.isCovered(span(u"0–3h10s"_s), ms(u"15s"_s)));
    EXPECT_TRUE(coverage.isCovered(span(u"1h–2h"_s), ms(u"1m"_s))) << "finer data covers a coarser need";
    EXPECT_FALSE(coverage.isCovered(span(u"1h–2h"_s), ms(u"5s"_s))) << "the 15 s data is too coarse";
    EXPECT_TRUE(coverage.isCovered(span(u"2h–3h"_s), ms(u"5s"_s)));
    EXPECT_TRUE(coverage.isCovered(span(u"2h–3h1s"_s), ms(u"1s"_s))) << "one step short of the end still counts";
    EXPECT_FALSE(coverage.isCovered(span(u"2h–3h6m"_s), ms(u"1s"_s))) << "the gap";
    EXPECT_FALSE(coverage.isCovered(span(u"-1m–1h"_s), ms(u"15s"_s))) << "before the first answer";

    // The newest answered end only grows: history loaded into the past does not move it back.
    coverage.record(span(u"-3h–0"_s), ms(u"30s"_s));
    EXPECT_EQ(coverage.fetchedUntil(), ms(u"3h6m"_s));
    coverage.clear();
    EXPECT_TRUE(coverage.describe(0).isEmpty());
}
