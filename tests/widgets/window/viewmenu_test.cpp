// SPDX-License-Identifier: GPL-3.0-or-later
// View lists every dock together, the Load tester's too (it once could not be found there),
// and each can be closed and shown again from it.
#include "loadtester/loadtestercontroller.h"
#include "offlineapp.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <gtest/gtest.h>

TEST(ViewMenu, ListsEveryDockTogetherAndShowsAClosedOneAgain)
{
    OfflineApp app;
    MainWindow &window = *app.makeWindow();
    LoadTesterController controller;
    window.setLoadTester(&controller, nullptr);
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    auto *view = window.menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"), Qt::FindDirectChildrenOnly);
    ASSERT_NE(view, nullptr);
    const QList<QAction *> actions = view->actions();
    ASSERT_GE(actions.size(), 2);
    EXPECT_EQ(actions.at(0)->text(), QStringLiteral("Annotations"));
    EXPECT_EQ(actions.at(1)->text(), QStringLiteral("Load tester")) << "next to the other dock";

    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("controlDock"));
    ASSERT_NE(dock, nullptr);
    ASSERT_TRUE(dock->isVisible());
    EXPECT_TRUE(dock->features() & QDockWidget::DockWidgetClosable);
    dock->close();
    EXPECT_FALSE(dock->isVisible());
    EXPECT_FALSE(actions.at(1)->isChecked());
    actions.at(1)->trigger();
    EXPECT_TRUE(dock->isVisible()) << "shown again from View";
}
