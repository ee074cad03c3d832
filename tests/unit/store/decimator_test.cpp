// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/decimator.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <set>
#include <vector>

namespace {

using Times = std::vector<qint64>;
using Values = std::vector<double>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Samples
{
    Times t;
    Values v;
};

// Noise in [-1, 1] at a fixed step from t0.
Samples noise(std::size_t count, qint64 t0, qint64 stepMs, unsigned seed = 7)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    Samples s;
    s.t.resize(count);
    s.v.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        s.t[i] = t0 + qint64(i) * stepMs;
        s.v[i] = value(random);
    }
    return s;
}

Decimator::Points m4(const Samples &s, TimeRange range, qint64 columnMs, qint64 gapMs = 0)
{
    return Decimator::m4(s.t, s.v, range, columnMs, gapMs);
}

std::size_t nanCount(const Decimator::Points &p)
{
    return static_cast<std::size_t>(
        std::count_if(p.values.begin(), p.values.end(), [](double v) { return std::isnan(v); }));
}

qint64 floorDiv(qint64 a, qint64 b)
{
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

void expectStrictlyIncreasing(const Decimator::Points &p)
{
    ASSERT_EQ(p.timestampsMs.size(), p.values.size());
    for (std::size_t i = 1; i < p.timestampsMs.size(); ++i)
        ASSERT_LT(p.timestampsMs[i - 1], p.timestampsMs[i]) << "at output index " << i;
}

} // namespace

TEST(Decimator, EmptyInputGivesNothing)
{
    const auto p = Decimator::m4({}, {}, TimeRange{0, 1000}, 10, 0);
    EXPECT_TRUE(p.timestampsMs.empty());
    EXPECT_TRUE(p.values.empty());
}

TEST(Decimator, EmptyRangeGivesNothing)
{
    const Samples s = noise(100, 0, 1000);
    EXPECT_TRUE(m4(s, TimeRange{50'000, 40'000}, 1000).timestampsMs.empty());
}

TEST(Decimator, OneSample)
{
    const Samples s{{5000}, {42}};
    auto p = m4(s, {0, 10'000}, 100);
    EXPECT_EQ(p.timestampsMs, (Times{5000}));
    EXPECT_EQ(p.values, (Values{42}));

    // Just outside the range it is still the edge sample, so a line can run to the edge.
    p = m4(s, {6000, 10'000}, 100);
    EXPECT_EQ(p.timestampsMs, (Times{5000}));
    p = m4(s, {0, 4000}, 100);
    EXPECT_EQ(p.timestampsMs, (Times{5000}));

    // A lone non-finite sample draws nothing.
    const Samples nan{{5000}, {kNaN}};
    EXPECT_TRUE(m4(nan, {0, 10'000}, 100).timestampsMs.empty());
}

TEST(Decimator, FewSamplesPassThrough)
{
    // One sample per column: the output is the input.
    const Samples s = noise(50, 0, 1000);
    const auto p = m4(s, {0, 49'000}, 1000);
    EXPECT_EQ(p.timestampsMs, s.t);
    EXPECT_EQ(p.values, s.v);
}

TEST(Decimator, OnlyTheNearestOutsideSamplesAreKept)
{
    const Samples s = noise(100, 0, 1000);
    const auto p = m4(s, {10'500, 19'500}, 1000);
    // 11..19 inside, 10 and 20 as edges; 9 and 21 not.
    Times expected;
    for (qint64 i = 10; i <= 20; ++i)
        expected.push_back(i * 1000);
    EXPECT_EQ(p.timestampsMs, expected);
}

TEST(Decimator, EmitsFirstMinMaxLastInTimeOrderAndDedupes)
{
    // One column [0, 10000): first 5, max 9 at 2000, min -3 at 6000, last 1.
    const Samples s{{0, 1000, 2000, 3000, 6000, 7000, 9000}, {5, 6, 9, 2, -3, 0, 1}};
    auto p = m4(s, {0, 9999}, 10'000);
    EXPECT_EQ(p.timestampsMs, (Times{0, 2000, 6000, 9000}));
    EXPECT_EQ(p.values, (Values{5, 9, -3, 1}));

    // First is also the max, last also the min: two points.
    const Samples falling{{0, 1000, 2000}, {3, 2, 1}};
    p = m4(falling, {0, 9999}, 10'000);
    EXPECT_EQ(p.timestampsMs, (Times{0, 2000}));
    EXPECT_EQ(p.values, (Values{3, 1}));

    // A flat line: first and last only (min and max are their first occurrence).
    const Samples flat{{0, 1000, 2000, 3000}, {7, 7, 7, 7}};
    p = m4(flat, {0, 9999}, 10'000);
    EXPECT_EQ(p.timestampsMs, (Times{0, 3000}));
}

TEST(Decimator, MatchesABruteForceM4)
{
    const Samples s = noise(20'000, 1'700'000'000'123, 997, 11);
    const TimeRange range{s.t[1234] - 10, s.t[18'000] + 10};
    const qint64 columnMs = 37'000;
    const auto p = m4(s, range, columnMs);

    // Expected: the edges, and per column the set {first, argmin, argmax, last}.
    std::set<std::size_t> expected;
    expected.insert(1233);
    expected.insert(18'001);
    std::size_t i = 1234;
    while (i <= 18'000) {
        const qint64 column = floorDiv(s.t[i], columnMs);
        std::size_t first = i, last = i, lo = i, hi = i;
        for (; i <= 18'000 && floorDiv(s.t[i], columnMs) == column; ++i) {
            last = i;
            if (s.v[i] < s.v[lo])
                lo = i;
            if (s.v[i] > s.v[hi])
                hi = i;
        }
        expected.insert({first, lo, hi, last});
    }
    Times expectedTimes;
    Values expectedValues;
    for (std::size_t index : expected) {
        expectedTimes.push_back(s.t[index]);
        expectedValues.push_back(s.v[index]);
    }
    EXPECT_EQ(p.timestampsMs, expectedTimes);
    EXPECT_EQ(p.values, expectedValues);
}

TEST(Decimator, SingleSampleSpikeSurvivesInAMillionSamples)
{
    Samples s = noise(1'000'000, 1'700'000'000'000, 1000);
    s.v[123'457] = 1000.0;  // one scrape that went wild
    s.v[876'543] = -1000.0; // and one the other way
    const TimeRange range{s.t.front(), s.t.back()};
    const int width = 1200;
    const auto p = m4(s, range, Decimator::columnMsFor(range, width));
    ASSERT_FALSE(p.values.empty());
    EXPECT_EQ(*std::max_element(p.values.begin(), p.values.end()), 1000.0);
    EXPECT_EQ(*std::min_element(p.values.begin(), p.values.end()), -1000.0);
    EXPECT_NE(std::find(p.timestampsMs.begin(), p.timestampsMs.end(), s.t[123'457]), p.timestampsMs.end());
    EXPECT_LE(p.timestampsMs.size(), 4u * (width + 1) + 2);
    expectStrictlyIncreasing(p);
}

TEST(Decimator, OutputIsBoundedByFourPointsPerColumnPlusEdges)
{
    const Samples s = noise(300'000, 1'700'000'000'000, 250, 3);
    for (const qint64 columnMs : {1LL, 999LL, 1000LL, 60'000LL, 3'600'000LL}) {
        const TimeRange range{s.t[1000] + 3, s.t[250'000] - 7};
        const auto p = m4(s, range, columnMs);
        const qint64 columns = floorDiv(range.endMs, columnMs) - floorDiv(range.startMs, columnMs) + 1;
        EXPECT_LE(qint64(p.timestampsMs.size()), 4 * columns + 2) << "columnMs " << columnMs;
        EXPECT_LE(p.timestampsMs.size(), std::size_t(250'000 - 1000 + 2));
        EXPECT_EQ(nanCount(p), 0u);
        expectStrictlyIncreasing(p);
    }
}

TEST(Decimator, GapLongerThanGapMsStaysAGap)
{
    // 1 s samples, with nothing between 30 s and 90 s.
    Samples s;
    for (qint64 t = 0; t <= 120'000; t += 1000) {
        if (t > 30'000 && t < 90'000)
            continue;
        s.t.push_back(t);
        s.v.push_back(1.0);
    }
    // Narrow columns (gap spans many columns) and a wide one (gap inside a column).
    for (const qint64 columnMs : {1000LL, 5000LL, 200'000LL}) {
        const auto p = m4(s, {0, 120'000}, columnMs, 5000);
        ASSERT_EQ(nanCount(p), 1u) << "columnMs " << columnMs;
        const auto marker = std::find_if(p.values.begin(), p.values.end(), [](double v) { return std::isnan(v); });
        const auto index = static_cast<std::size_t>(marker - p.values.begin());
        ASSERT_GT(index, 0u);
        ASSERT_LT(index + 1, p.values.size());
        // The points around the marker are the samples around the gap, or (when the gap lies
        // inside one column) the column's points on either side of it.
        EXPECT_LE(p.timestampsMs[index - 1], 30'000);
        EXPECT_EQ(p.timestampsMs[index], 60'000); // halfway
        EXPECT_GE(p.timestampsMs[index + 1], 90'000);
        if (columnMs <= 5000) {
            EXPECT_EQ(p.timestampsMs[index - 1], 30'000);
            EXPECT_EQ(p.timestampsMs[index + 1], 90'000);
        }
        expectStrictlyIncreasing(p);
    }

    // Gaps up to gapMs are not gaps, and gapMs <= 0 turns detection off.
    EXPECT_EQ(nanCount(m4(s, {0, 120'000}, 1000, 60'000)), 0u);
    EXPECT_EQ(nanCount(m4(s, {0, 120'000}, 1000, 0)), 0u);
}

TEST(Decimator, GapAtTheRangeEdgeIsKept)
{
    // The sample before the range is far away: the line must not be drawn from it.
    const Samples s{{0, 100'000, 101'000, 102'000}, {1, 2, 3, 4}};
    const auto p = m4(s, {50'000, 110'000}, 1000, 5000);
    EXPECT_EQ(p.timestampsMs, (Times{0, 50'000, 100'000, 101'000, 102'000}));
    EXPECT_TRUE(std::isnan(p.values[1]));
}

TEST(Decimator, NonFiniteValuesAreGaps)
{
    const double inf = std::numeric_limits<double>::infinity();
    const Samples s{{0, 1000, 2000, 3000, 4000, 5000, 6000}, {1, 2, kNaN, inf, 5, 6, -inf}};
    auto p = m4(s, {0, 6000}, 1000, 0); // no gap detection by time: NaN still breaks
    EXPECT_EQ(p.timestampsMs, (Times{0, 1000, 2500, 4000, 5000}));
    ASSERT_EQ(p.values.size(), 5u);
    EXPECT_TRUE(std::isnan(p.values[2]));
    EXPECT_EQ(p.values[3], 5);
    EXPECT_EQ(nanCount(p), 1u);

    // Inside one wide column: first/min (1 at 0) and max/last (6 at 5000) with the break
    // between them; the infinities become neither min nor max.
    p = m4(s, {0, 6000}, 100'000, 0);
    EXPECT_EQ(p.timestampsMs, (Times{0, 2500, 5000}));
    EXPECT_EQ(nanCount(p), 1u);
    for (double v : p.values)
        EXPECT_FALSE(std::isinf(v));
}

TEST(Decimator, ManyGapsInOneColumnStayBounded)
{
    // Flapping data: every other sample NaN, all in one column.
    Samples s;
    for (int i = 0; i < 1000; ++i) {
        s.t.push_back(i * 1000);
        s.v.push_back(i % 2 ? kNaN : double(i % 7));
    }
    const auto p = m4(s, {0, 999'000}, 10'000'000, 5000);
    // 4 points and at most one marker in front of each.
    EXPECT_LE(p.timestampsMs.size(), 8u);
    EXPECT_GE(nanCount(p), 1u);
    expectStrictlyIncreasing(p);
}

TEST(Decimator, ColumnsAreAnchoredToAbsoluteTime)
{
    const Samples s = noise(50'000, 1'700'000'000'000, 1000, 5);
    const qint64 columnMs = 60'000;
    const TimeRange a{s.t[100] + 123, s.t[40'000] + 45};
    const qint64 delta = 7 * 60'000 + 17'321; // not a multiple of the column
    const TimeRange b{a.startMs + delta, a.endMs + delta};
    const auto pa = m4(s, a, columnMs, 5000);
    const auto pb = m4(s, b, columnMs, 5000);

    // Complete columns shared by both: from the first column boundary at or after b's
    // start to the last boundary at or before a's end.
    const qint64 sharedStart = (floorDiv(b.startMs - 1, columnMs) + 1) * columnMs;
    const qint64 sharedEnd = floorDiv(a.endMs + 1, columnMs) * columnMs; // exclusive
    ASSERT_LT(sharedStart, sharedEnd);
    auto slice = [&](const Decimator::Points &p) {
        Decimator::Points out;
        for (std::size_t i = 0; i < p.timestampsMs.size(); ++i) {
            if (p.timestampsMs[i] >= sharedStart && p.timestampsMs[i] < sharedEnd) {
                out.timestampsMs.push_back(p.timestampsMs[i]);
                out.values.push_back(p.values[i]);
            }
        }
        return out;
    };
    const auto sa = slice(pa);
    const auto sb = slice(pb);
    EXPECT_GT(sa.timestampsMs.size(), 100u);
    EXPECT_EQ(sa.timestampsMs, sb.timestampsMs);
    EXPECT_EQ(sa.values, sb.values);

    // A live update (one more sample at the end) changes only the last column.
    Samples grown = s;
    grown.t.push_back(s.t.back() + 1000);
    grown.v.push_back(100.0);
    const TimeRange live{s.t[10'000], s.t.back() + 1000};
    const auto before = m4(s, live, columnMs);
    const auto after = m4(grown, live, columnMs);
    const qint64 lastColumnStart = floorDiv(grown.t.back(), columnMs) * columnMs;
    auto countBefore = [&](const Decimator::Points &p) {
        return std::count_if(p.timestampsMs.begin(), p.timestampsMs.end(),
                             [&](qint64 t) { return t < lastColumnStart; });
    };
    const auto n = countBefore(before);
    ASSERT_EQ(n, countBefore(after));
    EXPECT_TRUE(std::equal(before.timestampsMs.begin(), before.timestampsMs.begin() + n, after.timestampsMs.begin()));
    EXPECT_TRUE(std::equal(before.values.begin(), before.values.begin() + n, after.values.begin()));
}

TEST(Decimator, NegativeTimestampsUseFloorColumns)
{
    // Columns of 10 s: [-10000, 0) and [0, 10000); -1 and 0 must not share a column.
    const Samples s{{-5000, -1, 0, 5000}, {1, 2, 3, 4}};
    const auto p = m4(s, {-10'000, 9999}, 10'000);
    EXPECT_EQ(p.timestampsMs, (Times{-5000, -1, 0, 5000}));
}

TEST(Decimator, ColumnMsFor)
{
    EXPECT_EQ(Decimator::columnMsFor({0, 900'000}, 900), 1000);
    EXPECT_EQ(Decimator::columnMsFor({0, 900'001}, 900), 1001); // rounded up
    EXPECT_EQ(Decimator::columnMsFor({0, 100}, 900), 1);        // at least 1 ms
    EXPECT_EQ(Decimator::columnMsFor({0, 1000}, 0), 1000);      // no width: one column
    EXPECT_EQ(Decimator::columnMsFor({5, 4}, 100), 1);          // empty range
}

namespace {

// Same points, NaN markers included (NaN != NaN for operator==).
::testing::AssertionResult samePoints(const Decimator::Points &a, const Decimator::Points &b)
{
    if (a.timestampsMs != b.timestampsMs)
        return ::testing::AssertionFailure()
               << "timestamps differ (" << a.timestampsMs.size() << " vs " << b.timestampsMs.size() << " points)";
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        const bool same = std::isnan(a.values[i]) ? std::isnan(b.values[i]) : a.values[i] == b.values[i];
        if (!same)
            return ::testing::AssertionFailure()
                   << "value " << i << " differs: " << a.values[i] << " vs " << b.values[i];
    }
    return ::testing::AssertionSuccess();
}

// Noise with holes (missing samples) and NaN runs, as a flapping target produces.
Samples ragged(std::size_t count, qint64 t0, qint64 stepMs, unsigned seed)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::uniform_int_distribution<int> event(0, 999);
    Samples s;
    qint64 t = t0;
    for (std::size_t i = 0; i < count; ++i) {
        t += stepMs;
        const int e = event(random);
        if (e < 3)
            t += stepMs * (5 + e * 40); // a hole
        s.t.push_back(t);
        s.v.push_back(e >= 3 && e < 8 ? kNaN : value(random));
    }
    return s;
}

} // namespace

TEST(M4Cache, LiveUpdatesMatchM4AndRecomputeOnlyTheNewestColumns)
{
    const Samples all = ragged(40'000, 1'700'000'000'000, 1000, 21);
    Decimator::M4Cache cache;
    const qint64 windowMs = 4 * 3'600'000;
    const int width = 700;
    Samples live;
    std::size_t next = 0;
    // Start with 30,000 samples, then one sample per tick, the window following the newest.
    for (; next < 30'000; ++next) {
        live.t.push_back(all.t[next]);
        live.v.push_back(all.v[next]);
    }
    const qint64 columnMs = Decimator::columnMsFor({0, windowMs}, width);
    std::size_t reused = 0;
    for (int tick = 0; tick < 300; ++tick, ++next) {
        live.t.push_back(all.t[next]);
        live.v.push_back(all.v[next]);
        cache.invalidate({all.t[next], all.t[next]});
        const TimeRange range{live.t.back() - windowMs, live.t.back()};
        const auto expected = Decimator::m4(live.t, live.v, range, columnMs, 5000);
        const auto got = cache.m4(live.t, live.v, range, columnMs, 5000);
        ASSERT_TRUE(samePoints(got, expected)) << "tick " << tick;
        if (tick > 0) {
            // The window moved by a second: at most a column entered, the newest changed.
            EXPECT_LE(cache.computedColumns(), 3u) << "tick " << tick;
            reused += cache.reusedColumns();
        }
    }
    EXPECT_GT(reused, 299u * 600);
}

TEST(M4Cache, ChangedSamplesInThePastAreRecomputed)
{
    Samples s = ragged(50'000, 1'700'000'000'000, 1000, 5);
    Decimator::M4Cache cache;
    const TimeRange range{s.t[2000] + 500, s.t[45'000] - 300};
    const qint64 columnMs = Decimator::columnMsFor(range, 900);
    std::mt19937 random(3);
    std::uniform_int_distribution<std::size_t> index(0, s.t.size() - 1);
    ASSERT_TRUE(samePoints(cache.m4(s.t, s.v, range, columnMs, 4000), Decimator::m4(s.t, s.v, range, columnMs, 4000)));
    for (int round = 0; round < 200; ++round) {
        // A re-fetched value, a spike, a sample turning NaN, or a sample removed.
        const std::size_t i = index(random);
        const qint64 t = s.t[i];
        switch (round % 4) {
        case 0:
            s.v[i] += 0.5;
            break;
        case 1:
            s.v[i] = 50.0;
            break;
        case 2:
            s.v[i] = kNaN;
            break;
        case 3:
            s.t.erase(s.t.begin() + std::ptrdiff_t(i));
            s.v.erase(s.v.begin() + std::ptrdiff_t(i));
            break;
        }
        cache.invalidate({t, t});
        const auto expected = Decimator::m4(s.t, s.v, range, columnMs, 4000);
        ASSERT_TRUE(samePoints(cache.m4(s.t, s.v, range, columnMs, 4000), expected)) << "round " << round;
        EXPECT_LE(cache.computedColumns(), 8u) << "round " << round;
    }
}

TEST(M4Cache, ZoomLevelsAreKeptAndPansComputeOnlyNewColumns)
{
    const Samples s = ragged(60'000, 1'700'000'000'000, 1000, 9);
    Decimator::M4Cache cache;
    const TimeRange wide{s.t[0] + 1, s.t[59'000]};
    const TimeRange narrow{s.t[20'000] + 7, s.t[30'000]};
    const qint64 wideColumn = Decimator::columnMsFor(wide, 1000);
    const qint64 narrowColumn = Decimator::columnMsFor(narrow, 1000);
    for (int round = 0; round < 3; ++round) {
        ASSERT_TRUE(
            samePoints(cache.m4(s.t, s.v, wide, wideColumn, 5000), Decimator::m4(s.t, s.v, wide, wideColumn, 5000)));
        if (round > 0) {
            EXPECT_LE(cache.computedColumns(), 1u); // back to a kept level: nothing to do
        }
        ASSERT_TRUE(samePoints(cache.m4(s.t, s.v, narrow, narrowColumn, 5000),
                               Decimator::m4(s.t, s.v, narrow, narrowColumn, 5000)));
        if (round > 0) {
            EXPECT_LE(cache.computedColumns(), 1u);
        }
    }
    // A pan by 30 columns computes about those.
    const TimeRange panned{narrow.startMs + 30 * narrowColumn, narrow.endMs + 30 * narrowColumn};
    ASSERT_TRUE(samePoints(cache.m4(s.t, s.v, panned, narrowColumn, 5000),
                           Decimator::m4(s.t, s.v, panned, narrowColumn, 5000)));
    EXPECT_LE(cache.computedColumns(), 32u);
    EXPECT_GE(cache.reusedColumns(), 900u);
}

TEST(M4Cache, SamplesDroppedByRetentionAreNoticedWithoutBeingReported)
{
    Samples s = ragged(30'000, 1'700'000'000'000, 1000, 13);
    Decimator::M4Cache cache;
    const TimeRange range{s.t[0] - 5000, s.t.back()};
    const qint64 columnMs = Decimator::columnMsFor(range, 600);
    ASSERT_TRUE(samePoints(cache.m4(s.t, s.v, range, columnMs, 5000), Decimator::m4(s.t, s.v, range, columnMs, 5000)));
    for (int round = 0; round < 5; ++round) {
        s.t.erase(s.t.begin(), s.t.begin() + 1234);
        s.v.erase(s.v.begin(), s.v.begin() + 1234);
        ASSERT_TRUE(
            samePoints(cache.m4(s.t, s.v, range, columnMs, 5000), Decimator::m4(s.t, s.v, range, columnMs, 5000)))
            << "round " << round;
    }
}

TEST(M4Cache, RandomRangesAndChangesAlwaysMatchM4)
{
    std::mt19937 random(77);
    for (int series = 0; series < 6; ++series) {
        Samples s = ragged(8000, 1'700'000'000'000 + series * 333, 1000, unsigned(series) + 100);
        Decimator::M4Cache cache;
        std::uniform_int_distribution<std::size_t> index(0, s.t.size() - 1);
        std::uniform_int_distribution<int> widths(50, 400);
        for (int round = 0; round < 60; ++round) {
            std::size_t a = index(random), b = index(random);
            if (a > b)
                std::swap(a, b);
            const TimeRange range{s.t[a] - 499, s.t[b] + 250};
            if (round % 3 == 0) {
                const std::size_t i = index(random);
                s.v[i] = round % 2 ? kNaN : double(round);
                cache.invalidate({s.t[i], s.t[i]});
            }
            const qint64 columnMs = Decimator::columnMsFor(range, widths(random) / 50 * 50);
            ASSERT_TRUE(
                samePoints(cache.m4(s.t, s.v, range, columnMs, 3000), Decimator::m4(s.t, s.v, range, columnMs, 3000)))
                << "series " << series << " round " << round;
        }
    }
}

namespace {

// M4 written down the slow, obvious way from the contract in decimator.h, to check the fast
// path against: edge samples alone, finite samples grouped by anchored column, a gap event in
// front of a finite sample after non-finite ones or after more than gapMs, each column's
// first/min/max/last in time order with the first pending marker in front of a point.
Decimator::Points referenceM4(const Samples &s, const TimeRange &range, qint64 columnMs, qint64 gapMs)
{
    Decimator::Points out;
    const std::size_t n = s.t.size();
    const std::size_t first = std::size_t(std::lower_bound(s.t.begin(), s.t.end(), range.startMs) - s.t.begin());
    const std::size_t last = std::size_t(std::upper_bound(s.t.begin(), s.t.end(), range.endMs) - s.t.begin());
    if (n == 0 || range.isEmpty())
        return out;
    struct Sample
    {
        std::size_t index;
        bool edge;
    };
    std::vector<Sample> sequence;
    if (first > 0)
        sequence.push_back({first - 1, true});
    for (std::size_t i = first; i < last; ++i)
        sequence.push_back({i, false});
    if (last < n)
        sequence.push_back({last, true});

    struct Group
    {
        std::vector<std::size_t> members;
        std::vector<std::pair<std::size_t, qint64>> gaps;
        qint64 column;
        bool edge;
    };
    std::vector<Group> groups;
    bool haveFinite = false, broken = false;
    qint64 lastT = 0;
    for (const Sample &sample : sequence) {
        const std::size_t i = sample.index;
        if (!std::isfinite(s.v[i])) {
            broken = haveFinite;
            continue;
        }
        const qint64 column = floorDiv(s.t[i], columnMs);
        if (sample.edge || groups.empty() || groups.back().edge || groups.back().column != column)
            groups.push_back({{}, {}, column, sample.edge});
        if (haveFinite && (broken || (gapMs > 0 && s.t[i] - lastT > gapMs)))
            groups.back().gaps.push_back({i, lastT + (s.t[i] - lastT) / 2});
        groups.back().members.push_back(i);
        haveFinite = true;
        broken = false;
        lastT = s.t[i];
    }
    for (const Group &group : groups) {
        std::size_t lo = group.members.front(), hi = lo;
        for (std::size_t i : group.members) {
            if (s.v[i] < s.v[lo])
                lo = i;
            if (s.v[i] > s.v[hi])
                hi = i;
        }
        const std::set<std::size_t> picked{group.members.front(), lo, hi, group.members.back()};
        std::size_t gap = 0;
        for (std::size_t p : picked) {
            bool marked = false;
            for (; gap < group.gaps.size() && group.gaps[gap].first <= p; ++gap) {
                if (!marked) {
                    out.timestampsMs.push_back(group.gaps[gap].second);
                    out.values.push_back(kNaN);
                    marked = true;
                }
            }
            out.timestampsMs.push_back(s.t[p]);
            out.values.push_back(s.v[p]);
        }
    }
    return out;
}

} // namespace

TEST(Decimator, MatchesTheContractOnRaggedData)
{
    std::mt19937 random(2024);
    for (int round = 0; round < 40; ++round) {
        const Samples s = ragged(20'000, 1'700'000'000'000 + round * 7, 1000, unsigned(round));
        std::uniform_int_distribution<std::size_t> index(0, s.t.size() - 1);
        std::size_t a = index(random), b = index(random);
        if (a > b)
            std::swap(a, b);
        const TimeRange range{s.t[a] - 300, s.t[b] + 700};
        for (const int width : {37, 400, 1500}) {
            const qint64 columnMs = Decimator::columnMsFor(range, width);
            for (const qint64 gapMs : {0LL, 2500LL, 60'000LL}) {
                ASSERT_TRUE(samePoints(m4(s, range, columnMs, gapMs), referenceM4(s, range, columnMs, gapMs)))
                    << "round " << round << " width " << width << " gap " << gapMs;
            }
        }
    }
}
