// SPDX-License-Identifier: GPL-3.0-or-later
// Home returns to live wherever the focus is: in a text field (a query typed in Explore, a
// rate in the Load tester dock) the first Home takes the cursor to the start and the second
// goes live; anywhere else the first does.
#include "offlineapp.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <gtest/gtest.h>

TEST(HomeKey, ReturnsToLiveFromATextFieldWithASecondHomeAndFromAnythingElseAtOnce)
{
    OfflineApp app;
    MainWindow &window = *app.makeWindow();
    auto *dock = new QDockWidget(QStringLiteral("Typing"));
    auto *field = new QLineEdit(QStringLiteral("sum(rate(starter_requests_sent_total[10s]))"));
    dock->setWidget(field);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    auto *list = new QListWidget;
    list->addItems({QStringLiteral("a note"), QStringLiteral("another")});
    auto *listDock = new QDockWidget(QStringLiteral("List"));
    listDock->setWidget(list);
    window.addDockWidget(Qt::RightDockWidgetArea, listDock);
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));

    app.window.setLive(false);
    field->setFocus();
    field->end(false);
    QTest::keyClick(field, Qt::Key_Home);
    EXPECT_EQ(field->cursorPosition(), 0) << "the first Home is the field's";
    EXPECT_FALSE(app.window.isLive());
    QTest::keyClick(field, Qt::Key_Home);
    EXPECT_TRUE(app.window.isLive()) << "the second goes live";

    app.window.setLive(false);
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Home);
    EXPECT_TRUE(app.window.isLive()) << "from a list, at once";
}
