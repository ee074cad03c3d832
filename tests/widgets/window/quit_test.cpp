// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Quit: Ctrl+Q closes the window from wherever the focus is, and Quit stays the
// File menu's last entry whoever adds to the menu after the window was built.
#include "actions/filemenu.h"
#include "offlineapp.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <gtest/gtest.h>

TEST(Quit, CtrlQClosesTheWindowEvenFromAField)
{
    OfflineApp app;
    MainWindow &window = *app.makeWindow();
    window.resize(1200, 800);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    // The focus in a text field, as after typing a rate and Apply.
    auto *field = window.findChild<QLineEdit *>();
    if (field) {
        field->setFocus();
        ASSERT_TRUE(QTest::qWaitFor([&] { return field->hasFocus(); }, 2000));
    }
    QWidget *focused = QApplication::focusWidget() ? QApplication::focusWidget() : &window;
    QTest::keyClick(focused, Qt::Key_Q, Qt::ControlModifier);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !window.isVisible(); }, 2000)) << "Ctrl+Q closes the window";
}

TEST(Quit, QuitIsTheLastEntryOfTheFileMenu)
{
    OfflineApp app;
    MainWindow &window = *app.makeWindow();
    auto *file = window.menuBar()->findChild<QMenu *>(QStringLiteral("fileMenu"), Qt::FindDirectChildrenOnly);
    ASSERT_NE(file, nullptr);
    file->addAction(QStringLiteral("Added later"));
    emit file->aboutToShow();
    ASSERT_FALSE(file->actions().isEmpty());
    EXPECT_EQ(file->actions().last()->objectName(), QStringLiteral("quitAction"));
    EXPECT_EQ(file->actions().last()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
    EXPECT_TRUE(file->actions().at(file->actions().size() - 2)->isSeparator());
}

// File groups its entries whoever added them when: opening and saving, then the imports, then
// the exports, then Quit, a line between each (the imports and exports were interleaved).
TEST(Quit, TheFileMenuGroupsOpeningImportsAndExports)
{
    OfflineApp app;
    MainWindow &window = *app.makeWindow();
    auto *file = window.menuBar()->findChild<QMenu *>(QStringLiteral("fileMenu"), Qt::FindDirectChildrenOnly);
    ASSERT_NE(file, nullptr);
    setFileGroup(file->addAction(QStringLiteral("Import something later")), FileGroup::Import);
    file->addAction(QStringLiteral("Open something later"));
    emit file->aboutToShow();
    emit file->aboutToShow(); // arranged twice: no separator more
    QStringList groups;       // the menu as group letters: O, I, E, Q, and | for a line
    for (const QAction *action : file->actions()) {
        if (action->isSeparator()) {
            groups << QStringLiteral("|");
            continue;
        }
        const QString text = action->text();
        groups << (action->objectName() == QStringLiteral("quitAction") ? QStringLiteral("Q")
                   : text.contains(QStringLiteral("Import"))            ? QStringLiteral("I")
                   : text.contains(QStringLiteral("xport"))             ? QStringLiteral("E")
                                                                        : QStringLiteral("O"));
    }
    EXPECT_EQ(groups.join(QString()), QStringLiteral("O|II|EE|Q")) << groups.join(QLatin1Char(' ')).toStdString();
}
