// SPDX-License-Identifier: GPL-3.0-or-later
// The shared hover instant, and the nearest-sample look-up behind the hover read-out.
#include "store/samplestore.h"
#include "timeline/timecursor.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

TEST(TimeCursor, FollowsTheHoveredPanelAndIgnoresALateLeaveOfAnother)
{
    TimeCursor cursor;
    QObject left;
    QObject right;
    QSignalSpy changed(&cursor, &TimeCursor::changed);
    cursor.hover(1000, &left);
    EXPECT_EQ(cursor.timeMs(), 1000);
    EXPECT_EQ(cursor.origin(), &left);
    cursor.hover(1000, &left); // the same: no repaint
    EXPECT_EQ(changed.size(), 1);

    cursor.hover(2000, &right);
    cursor.leave(&left); // arrives after the neighbour took over
    EXPECT_EQ(cursor.timeMs(), 2000);
    EXPECT_EQ(cursor.origin(), &right);
    cursor.leave(&right);
    EXPECT_FALSE(cursor.timeMs().has_value());
    EXPECT_EQ(changed.size(), 3);
}

TEST(NearestSample, PicksTheCloserNeighbourWithinTheAllowedDistance)
{
    SampleStore store;
    const std::vector<qint64> t{1000, 2000, 4000};
    const std::vector<double> v{1, 2, 4};
    store.merge(QStringLiteral("s"), {}, t, v);
    const SampleStore::Series &series = *store.series(QStringLiteral("s"));

    auto at = [&](qint64 time, qint64 maxDistance = 10'000) { return nearestSample(series, time, maxDistance); };
    ASSERT_TRUE(at(0));
    EXPECT_EQ(at(0)->timestampMs, 1000);
    EXPECT_EQ(at(1400)->timestampMs, 1000);
    EXPECT_EQ(at(1500)->timestampMs, 1000) << "a tie goes to the older sample";
    EXPECT_EQ(at(1600)->timestampMs, 2000);
    EXPECT_DOUBLE_EQ(at(3100)->value, 4.0);
    EXPECT_EQ(at(2000)->timestampMs, 2000);
    ASSERT_TRUE(at(12'000));
    EXPECT_EQ(at(12'000)->timestampMs, 4000) << "after the last sample: the last one";
    EXPECT_FALSE(at(3000, 500)) << "in a gap the read-out shows no value";
    EXPECT_FALSE(at(8000, 1000));

    store.merge(QStringLiteral("empty"), {}, std::vector<qint64>{}, std::vector<double>{});
    EXPECT_FALSE(nearestSample(*store.series(QStringLiteral("empty")), 0, 1000));
}
