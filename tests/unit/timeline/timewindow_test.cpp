// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timewindow.h"

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

// Panning or zooming past now stops at now, the length kept: the instants after it have not
// happened, and a server asked about them answers with a fall that is not there.
TEST(TimeWindow, NoViewReachesPastNow)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    window.scrollTo({940'000 + 20'000, 1'000'000 + 20'000}); // from live toward the future: still live
    EXPECT_TRUE(window.isLive());
    window.scrollTo({900'000, 960'000}); // back, then the wheel forward past now
    for (int i = 1; i <= 10; ++i)
        window.scrollTo({900'000 + i * 20'000, 960'000 + i * 20'000});
    window.finishScroll();
    EXPECT_EQ(window.range(), (TimeRange{940'000, 1'000'000}));
    EXPECT_FALSE(window.isLive()) << "a pan still leaves live; the view stays put as time goes on";
    window.showRange({990'000, 1'030'000}); // a zoom out around an instant near now
    EXPECT_EQ(window.range(), (TimeRange{960'000, 1'000'000}));
    window.showRange({2'000'000, 2'010'000}); // wholly in the future
    EXPECT_EQ(window.range(), (TimeRange{990'000, 1'000'000}));
    now += 30'000;
    window.showRange({1'010'000, 1'040'000}); // later, that time has come
    EXPECT_EQ(window.range(), (TimeRange{1'000'000, 1'030'000}));
}

TEST(TimeWindow, EmptyRangeIsIgnored)
{
    TimeWindow window;
    const TimeRange before = window.range();
    window.showRange({5000, 5000});
    EXPECT_EQ(window.range(), before);
    EXPECT_TRUE(window.isLive());
}

TEST(TimeWindow, BackAndForwardWalkThroughZooms)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    EXPECT_FALSE(window.canGoBack()) << "choosing the live window length is not a navigation";
    QSignalSpy canBack(&window, &TimeWindow::canGoBackChanged);
    QSignalSpy canForward(&window, &TimeWindow::canGoForwardChanged);

    window.showRange({950'000, 980'000});
    window.showRange({960'000, 970'000});
    ASSERT_TRUE(window.canGoBack());
    ASSERT_EQ(canBack.size(), 1);
    EXPECT_TRUE(canBack.last().first().toBool());

    window.back();
    EXPECT_EQ(window.range(), (TimeRange{950'000, 980'000}));
    EXPECT_FALSE(window.isLive());
    EXPECT_TRUE(window.canGoForward());
    ASSERT_EQ(canForward.size(), 1);

    now += 10'000; // time passes: going back to live lands on the live window of now
    window.back();
    EXPECT_TRUE(window.isLive());
    EXPECT_EQ(window.range(), (TimeRange{950'000, 1'010'000}));
    EXPECT_FALSE(window.canGoBack());
    EXPECT_FALSE(canBack.last().first().toBool());
    window.back(); // nothing further back: nothing happens
    EXPECT_TRUE(window.isLive());

    window.forward();
    EXPECT_EQ(window.range(), (TimeRange{950'000, 980'000}));
    window.forward();
    EXPECT_EQ(window.range(), (TimeRange{960'000, 970'000}));
    EXPECT_FALSE(window.canGoForward());
    EXPECT_FALSE(canForward.last().first().toBool());
}

TEST(TimeWindow, ANewZoomAfterGoingBackDropsTheForwardHistory)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    window.showRange({950'000, 980'000});
    window.showRange({960'000, 970'000});
    window.back();
    ASSERT_TRUE(window.canGoForward());
    window.showRange({955'000, 965'000});
    EXPECT_FALSE(window.canGoForward());
    window.back();
    EXPECT_EQ(window.range(), (TimeRange{950'000, 980'000}));
}

TEST(TimeWindow, AGestureOfManyScrollsIsOneStepBack)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    window.showRange({900'000, 960'000});
    for (int i = 1; i <= 20; ++i)
        window.scrollTo({900'000 - i * 1000, 960'000 - i * 1000});
    window.finishScroll();
    EXPECT_EQ(window.range(), (TimeRange{880'000, 940'000}));
    window.back();
    EXPECT_EQ(window.range(), (TimeRange{900'000, 960'000})) << "one step back undoes the whole pan";

    // Scrolling away from live leaves it, and back returns to it.
    window.setLive(true);
    window.scrollTo({930'000, 990'000});
    EXPECT_FALSE(window.isLive());
    window.finishScroll();
    window.back();
    EXPECT_TRUE(window.isLive());
}

TEST(TimeWindow, PauseAndBackToLiveAreSteps)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    window.setLive(false); // pause
    now += 5000;
    window.setLive(true);
    window.back();
    EXPECT_FALSE(window.isLive());
    EXPECT_EQ(window.range(), (TimeRange{940'000, 1'000'000}));
    window.back();
    EXPECT_TRUE(window.isLive());
    EXPECT_EQ(window.range(), (TimeRange{945'000, 1'005'000}));
}

TEST(TimeWindow, PickingALengthWhileZoomedCanBeUndone)
{
    qint64 now = 1'000'000;
    TimeWindow window;
    window.setClock([&] { return now; });
    window.setWindowMs(60'000);
    window.showRange({950'000, 960'000});
    window.setWindowMs(300'000);
    EXPECT_TRUE(window.isLive());
    EXPECT_EQ(window.range(), (TimeRange{700'000, 1'000'000}));
    window.back();
    EXPECT_EQ(window.range(), (TimeRange{950'000, 960'000}));
    window.back();
    EXPECT_EQ(window.windowMs(), 60'000) << "the live view before the zoom had the old length";
    EXPECT_EQ(window.range(), (TimeRange{940'000, 1'000'000}));
}

TEST(TimeWindow, HistoryIsBounded)
{
    TimeWindow window;
    window.setClock([] { return 10'000'000; });
    for (int i = 0; i < TimeWindow::kHistoryDepth + 30; ++i)
        window.showRange({i * 1000, i * 1000 + 500});
    int steps = 0;
    while (window.canGoBack() && steps < 1000) {
        window.back();
        ++steps;
    }
    EXPECT_EQ(steps, TimeWindow::kHistoryDepth);
}
