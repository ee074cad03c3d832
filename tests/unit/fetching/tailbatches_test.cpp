// SPDX-License-Identifier: GPL-3.0-or-later
// A refresh tick's tail polls grouped into requests: one per step for the polls that keep
// pace, alone for one catching up or one that cannot be merged.
#include "fetching/tailbatches.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kNow = 1'000'000'000;

TailBatches::Poll poll(int query, qint64 startMs, qint64 stepMs = 1000, bool mergeable = true)
{
    return {query, {startMs, kNow}, stepMs, mergeable};
}

} // namespace

TEST(TailBatches, PollsAtOneStepAreOneRequestOverTheUnionOfTheirRanges)
{
    const auto requests = TailBatches::group({poll(0, kNow - 3000), poll(1, kNow - 5000), poll(2, kNow - 2000)});
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].queries, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(requests[0].range, (TimeRange{kNow - 5000, kNow}));
    EXPECT_EQ(requests[0].stepMs, 1000);
}

TEST(TailBatches, EachStepHasItsOwnRequest)
{
    const auto requests = TailBatches::group({poll(0, kNow - 3000, 1000), poll(1, kNow - 30'000, 15'000)});
    ASSERT_EQ(requests.size(), 2u);
    for (const auto &request : requests)
        EXPECT_EQ(request.queries.size(), 1u);
}

TEST(TailBatches, APollFarBehindTheOthersGoesAlone)
{
    // Query 2 catches up ten minutes after an outage: the others must not ask for them too.
    const auto requests = TailBatches::group({poll(0, kNow - 3000), poll(1, kNow - 3000), poll(2, kNow - 600'000)});
    ASSERT_EQ(requests.size(), 2u);
    const auto alone = std::find_if(requests.begin(), requests.end(),
                                    [](const auto &request) { return request.queries == std::vector<int>{2}; });
    ASSERT_NE(alone, requests.end());
    EXPECT_EQ(alone->range, (TimeRange{kNow - 600'000, kNow}));
    const auto together =
        std::find_if(requests.begin(), requests.end(), [](const auto &request) { return request.queries.size() == 2; });
    ASSERT_NE(together, requests.end());
    EXPECT_EQ(together->range, (TimeRange{kNow - 3000, kNow}));
}

TEST(TailBatches, APollThatCannotBeMergedGoesAlone)
{
    const auto requests = TailBatches::group(
        {poll(0, kNow - 3000), poll(1, kNow - 3000, 1000, /*mergeable=*/false), poll(2, kNow - 3000)});
    ASSERT_EQ(requests.size(), 2u);
    std::vector<std::vector<int>> groups;
    for (const auto &request : requests)
        groups.push_back(request.queries);
    std::sort(groups.begin(), groups.end());
    EXPECT_EQ(groups, (std::vector<std::vector<int>>{{0, 2}, {1}}));
}

TEST(TailBatches, EveryPollIsInExactlyOneRequest)
{
    std::vector<TailBatches::Poll> polls;
    for (int i = 0; i < 40; ++i)
        polls.push_back(
            poll(i, kNow - 1000 * (i % 7) - (i % 11 == 0 ? 900'000 : 0), i % 3 == 0 ? 1000 : 5000, i % 13 != 0));
    std::vector<int> seen;
    for (const auto &request : TailBatches::group(polls))
        seen.insert(seen.end(), request.queries.begin(), request.queries.end());
    std::sort(seen.begin(), seen.end());
    std::vector<int> all(40);
    for (int i = 0; i < 40; ++i)
        all[std::size_t(i)] = i;
    EXPECT_EQ(seen, all);
}

TEST(TailBatches, NoPollsNoRequests)
{
    EXPECT_TRUE(TailBatches::group({}).empty());
}
