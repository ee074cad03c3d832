// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's history progress: the words stand beside the bar (never on it), it hides
// when done, and it says it is stalled while Prometheus is not answering, then goes on.
#include "panels/historyprogress.h"

#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <gtest/gtest.h>

TEST(HistoryProgress, SaysHowFarItIsBesideTheBarAndHidesWhenDone)
{
    HistoryProgress progress;
    progress.show();
    progress.setProgress(3, 12);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&progress));
    EXPECT_TRUE(progress.isVisible());
    EXPECT_EQ(progress.text(), QStringLiteral("Loading history 25 %"));
    auto *bar = progress.findChild<QProgressBar *>();
    auto *text = progress.findChild<QLabel *>(QStringLiteral("historyText"));
    ASSERT_TRUE(bar && text);
    EXPECT_FALSE(bar->isTextVisible()) << "no text printed over the bar";
    QCoreApplication::processEvents();
    EXPECT_FALSE(text->geometry().intersects(bar->geometry())) << "the words beside the bar";
    EXPECT_EQ(bar->value(), 3);

    progress.setProgress(12, 12);
    EXPECT_FALSE(progress.isVisible());
}

TEST(HistoryProgress, SaysItIsStalledWhileTheSourceIsDown)
{
    HistoryProgress progress;
    progress.show();
    progress.setProgress(5, 10);
    progress.setSourceReachable(false);
    EXPECT_TRUE(progress.isStalled());
    EXPECT_EQ(progress.text(), QStringLiteral("History stalled at 50 %: Prometheus is not answering"));
    progress.setSourceReachable(true);
    EXPECT_FALSE(progress.isStalled());
    EXPECT_EQ(progress.text(), QStringLiteral("Loading history 50 %"));
    // Down while nothing loads: nothing shown.
    progress.setProgress(10, 10);
    progress.setSourceReachable(false);
    EXPECT_FALSE(progress.isVisible());
    EXPECT_FALSE(progress.isStalled());
}

TEST(HistoryProgress, CancelAsksToStop)
{
    HistoryProgress progress;
    progress.setProgress(1, 4);
    QSignalSpy cancelled(&progress, &HistoryProgress::cancelRequested);
    auto *cancel = progress.findChild<QToolButton *>(QStringLiteral("cancelHistory"));
    ASSERT_TRUE(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    EXPECT_EQ(cancelled.count(), 1);
}
