// SPDX-License-Identifier: GPL-3.0-or-later
#include "timewindow.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

TEST(TimeWindow, LiveWindowFollowsNowAndZoomLeavesLive)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    EXPECT_EQ(window.range(), (TimeRange{940'000, 1'000'000}));

    QSignalSpy changed(&window, &TimeWindow::rangeChanged);
    now += 5000;
    window.advanceToNow();
    EXPECT_EQ(window.range(), (TimeRange{945'000, 1'005'000}));
    EXPECT_EQ(changed.size(), 1);

    QSignalSpy live(&window, &TimeWindow::liveChanged);
    window.showRange({950'000, 960'000});
    EXPECT_FALSE(window.isLive());
    EXPECT_EQ(live.size(), 1);
    now += 5000;
    window.advanceToNow(); // a paused view stays where the user put it
    EXPECT_EQ(window.range(), (TimeRange{950'000, 960'000}));

    window.setLive(true);
    EXPECT_EQ(window.range(), (TimeRange{950'000, 1'010'000}));
}

TEST(TimeWindow, EmptyRangeIsIgnored)
{
    TimeWindow window;
    const TimeRange before = window.range();
    window.showRange({5000, 5000});
    EXPECT_EQ(window.range(), before);
    EXPECT_TRUE(window.isLive());
}
