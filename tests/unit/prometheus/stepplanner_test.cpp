// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/stepplanner.h"

#include <QRandomGenerator>
#include <gtest/gtest.h>
#include <set>

namespace {

constexpr qint64 kS = 1000;
constexpr qint64 kM = 60 * kS;
constexpr qint64 kH = 60 * kM;

const std::set<qint64> kNice{1 * kS,  2 * kS,  5 * kS,  10 * kS, 15 * kS, 30 * kS, 1 * kM, 2 * kM,  5 * kM,
                             10 * kM, 15 * kM, 30 * kM, 1 * kH,  2 * kH,  3 * kH,  6 * kH, 12 * kH, 24 * kH};

bool isNice(qint64 step)
{
    return kNice.count(step) > 0 || (step > 24 * kH && step % (24 * kH) == 0);
}

qint64 instantCount(const TimeRange &range, qint64 step)
{
    return range.isEmpty() ? 0 : (range.endMs - range.startMs) / step + 1;
}

// Every evaluation instant the server would use for [start, end] at step.
std::vector<qint64> instants(const TimeRange &range, qint64 step)
{
    std::vector<qint64> out;
    for (qint64 t = range.startMs; t <= range.endMs; t += step)
        out.push_back(t);
    return out;
}

} // namespace

TEST(StepPlanner, ChoosesAboutOnePointPerPixelRoundedToANiceStep)
{
    EXPECT_EQ(StepPlanner::chooseStepMs(5 * kM, 1600, 1 * kS), 1 * kS);   // 0.19 s/px -> 1 s
    EXPECT_EQ(StepPlanner::chooseStepMs(1 * kH, 1000, 1 * kS), 5 * kS);   // 3.6 s/px -> 5 s
    EXPECT_EQ(StepPlanner::chooseStepMs(24 * kH, 1000, 15 * kS), 2 * kM); // 86.4 s/px -> 2 m
    EXPECT_EQ(StepPlanner::chooseStepMs(8 * kH, 1440, 1 * kS), 30 * kS);  // 20 s/px -> 30 s
    EXPECT_EQ(StepPlanner::chooseStepMs(7 * 24 * kH, 800, 15 * kS), 15 * kM);
}

TEST(StepPlanner, NeverBelowTheScrapeIntervalNorOneSecond)
{
    EXPECT_EQ(StepPlanner::chooseStepMs(5 * kM, 1600, 15 * kS), 15 * kS);
    EXPECT_EQ(StepPlanner::chooseStepMs(5 * kM, 1600, 20 * kS), 30 * kS); // not a nice step: up
    EXPECT_EQ(StepPlanner::chooseStepMs(10 * kS, 4000, 0), 1 * kS);       // unknown scrape interval
    EXPECT_EQ(StepPlanner::chooseStepMs(0, 1000, 0), 1 * kS);
    EXPECT_EQ(StepPlanner::chooseStepMs(0, 1000, 60 * kS), 1 * kM);
    EXPECT_EQ(StepPlanner::chooseStepMs(1 * kH, 0, 1 * kS), 1 * kH); // no width yet: one point
}

TEST(StepPlanner, NeverOverTheServerLimitEvenForAVeryWidePanel)
{
    const qint64 window = 30 * 24 * kH;
    const qint64 step = StepPlanner::chooseStepMs(window, 100000, 1 * kS);
    EXPECT_LE(window / step + 1, StepPlanner::kServerMaxPointsPerSeries);
    EXPECT_TRUE(isNice(step));
}

TEST(StepPlanner, StepBoundsHoldForManyPanels)
{
    QRandomGenerator random(42);
    for (int i = 0; i < 20000; ++i) {
        const qint64 window = random.bounded(1, 400) * static_cast<qint64>(random.bounded(1, 100000)) * 100;
        const int width = random.bounded(1, 8000);
        const qint64 scrape = random.bounded(0, 4) == 0 ? 0 : random.bounded(1, 300) * kS;
        const qint64 step = StepPlanner::chooseStepMs(window, width, scrape);
        ASSERT_GE(step, 1 * kS);
        ASSERT_GE(step, scrape) << window << " " << width;
        ASSERT_TRUE(isNice(step)) << step;
        ASSERT_LE(window / step + 1, StepPlanner::kServerMaxPointsPerSeries) << window << " " << step;
        // About one point per pixel column: never more points than pixels (plus the end point).
        ASSERT_LE(window / step, width) << window << " " << width << " " << step;
    }
}

TEST(StepPlanner, AlignsToTheStepGrid)
{
    EXPECT_EQ(StepPlanner::alignToStep({12345, 67890}, 1000), (TimeRange{12000, 67000}));
    EXPECT_EQ(StepPlanner::alignToStep({12000, 67000}, 1000), (TimeRange{12000, 67000}));
    EXPECT_EQ(StepPlanner::alignToStep({1700000012345, 1700000099999}, 15000),
              (TimeRange{1700000010000, 1700000085000}));
    EXPECT_EQ(StepPlanner::alignToStep({-1500, -500}, 1000), (TimeRange{-2000, -1000}));
    EXPECT_EQ(StepPlanner::alignToStep({5, 7}, 0), (TimeRange{5, 7})); // nothing to align to

    // Two polls a little apart evaluate at the same instants.
    const TimeRange a = StepPlanner::alignToStep({1700000001234, 1700000301234}, 5000);
    const TimeRange b = StepPlanner::alignToStep({1700000003999, 1700000303999}, 5000);
    EXPECT_EQ(a.startMs % 5000, 0);
    EXPECT_EQ(b.startMs % 5000, 0);
    EXPECT_EQ(a, b);
}

TEST(StepPlanner, ShortRangeIsOneChunk)
{
    const TimeRange range{1000, 31000};
    const auto chunks = StepPlanner::splitRange(range, 1000);
    ASSERT_EQ(chunks.size(), 1u);
    EXPECT_EQ(chunks.front(), range);

    const auto single = StepPlanner::splitRange({5000, 5000}, 1000);
    ASSERT_EQ(single.size(), 1u);
    EXPECT_EQ(single.front(), (TimeRange{5000, 5000}));

    EXPECT_TRUE(StepPlanner::splitRange({5000, 4000}, 1000).empty()); // empty range
    EXPECT_TRUE(StepPlanner::splitRange({0, 4000}, 0).empty());       // no step
}

TEST(StepPlanner, EightHoursAtOneSecondNeedsThreeRequests)
{
    const TimeRange day{0, 8 * kH};
    const auto chunks = StepPlanner::splitRange(day, 1 * kS);
    ASSERT_EQ(chunks.size(), 3u); // 28,801 instants
    EXPECT_EQ(chunks[0], (TimeRange{0, 10999 * kS}));
    EXPECT_EQ(chunks[1], (TimeRange{11000 * kS, 21999 * kS}));
    EXPECT_EQ(chunks[2], (TimeRange{22000 * kS, 8 * kH}));
}

TEST(StepPlanner, ExactlyAtTheLimitIsOneChunkAndOneMoreIsTwo)
{
    const qint64 step = 1 * kS;
    const TimeRange atLimit{0, (StepPlanner::kServerMaxPointsPerSeries - 1) * step};
    EXPECT_EQ(StepPlanner::splitRange(atLimit, step).size(), 1u);
    const TimeRange oneMore{0, StepPlanner::kServerMaxPointsPerSeries * step};
    const auto chunks = StepPlanner::splitRange(oneMore, step);
    ASSERT_EQ(chunks.size(), 2u);
    EXPECT_EQ(chunks[1], (TimeRange{oneMore.endMs, oneMore.endMs}));
}

TEST(StepPlanner, ChunksCoverTheRangeExactlyOnceWithinTheLimit)
{
    QRandomGenerator random(7);
    for (int i = 0; i < 3000; ++i) {
        const qint64 step = random.bounded(1, 20) * 500;
        const qint64 start = random.bounded(-100000, 100000) * 37;
        const qint64 length =
            random.bounded(0, 300) * static_cast<qint64>(random.bounded(1, 700)) + random.bounded(0, 3000);
        const int maxPoints = random.bounded(1, 60);
        const TimeRange range{start, start + length};

        const auto chunks = StepPlanner::splitRange(range, step, maxPoints);
        ASSERT_FALSE(chunks.empty());
        EXPECT_EQ(chunks.front().startMs, range.startMs);
        EXPECT_EQ(chunks.back().endMs, range.endMs);

        std::vector<qint64> joined;
        for (size_t c = 0; c < chunks.size(); ++c) {
            const TimeRange &chunk = chunks[c];
            ASSERT_FALSE(chunk.isEmpty());
            ASSERT_LE(instantCount(chunk, step), maxPoints);
            // Each chunk starts on the caller's grid, so the server evaluates the same instants.
            ASSERT_EQ((chunk.startMs - range.startMs) % step, 0);
            if (c > 0) {
                ASSERT_GT(chunk.startMs, chunks[c - 1].endMs);
            }
            const auto part = instants(chunk, step);
            joined.insert(joined.end(), part.begin(), part.end());
        }
        ASSERT_EQ(joined, instants(range, step))
            << "range " << range.startMs << ".." << range.endMs << " step " << step << " max " << maxPoints;
    }
}

TEST(StepPlanner, DefaultLimitIsTheServers)
{
    const qint64 step = 1 * kS;
    const TimeRange week{0, 7 * 24 * kH};
    for (const TimeRange &chunk : StepPlanner::splitRange(week, step))
        EXPECT_LE(instantCount(chunk, step), StepPlanner::kServerMaxPointsPerSeries);
}
