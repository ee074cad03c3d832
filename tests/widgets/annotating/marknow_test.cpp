// SPDX-License-Identifier: GPL-3.0-or-later
// "Mark now" on the real main window: M opens a one-line box at the moment the key was
// pressed, Enter saves the note at that moment, Esc leaves nothing behind, Ctrl+Z takes the
// note back.
#include "annotating/annotationprompt.h"
#include "dashboard/loader/dashboardloader.h"
#include "offlineapp.h"
#include "panels/paneltitle.h"

#include <QApplication>
#include <QLineEdit>
#include <QTest>
#include <gtest/gtest.h>

namespace {

class MarkNow : public ::testing::Test, protected OfflineApp
{
protected:
    void SetUp() override
    {
        window.setClock([this] { return clockMs; });
        makeWindow();
        mainWindow->resize(1200, 800);
        mainWindow->show();
        mainWindow->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(mainWindow.get()));
    }

    AnnotationPrompt *prompt() const { return mainWindow->findChild<AnnotationPrompt *>(); }

    // Keys go where a user's keys go: to the widget with the focus.
    QWidget *focused() const { return QApplication::focusWidget() ? QApplication::focusWidget() : mainWindow.get(); }

    qint64 clockMs = 1'714'556'580'000; // 2024-05-01 09:43:00 UTC
};

} // namespace

TEST_F(MarkNow, MTypeEnterPutsTheNoteAtTheMomentMWasPressed)
{
    const qint64 pressedAt = clockMs;
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    EXPECT_TRUE(prompt()->isVisible());
    EXPECT_TRUE(prompt()->placeholderText().contains(QStringLiteral("Enter")))
        << prompt()->placeholderText().toStdString();

    clockMs += 20'000; // typing takes a while; the note stays at the key press
    QTest::keyClicks(focused(), QStringLiteral("raised the rate to 500"));
    QTest::keyClick(focused(), Qt::Key_Return);

    ASSERT_EQ(annotations.rowCount(), 1);
    const Annotation note = annotations.annotations().front();
    EXPECT_EQ(note.text, QStringLiteral("raised the rate to 500"));
    EXPECT_EQ(note.timeMs, pressedAt);
    EXPECT_EQ(note.source, Annotation::Source::Manual);
    EXPECT_FALSE(note.author.isEmpty());
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() == nullptr; }, 2000)) << "the box goes away";
}

TEST_F(MarkNow, MThenEscapeAddsNothing)
{
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("never mind"));
    QTest::keyClick(focused(), Qt::Key_Escape);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() == nullptr; }, 2000));
    EXPECT_EQ(annotations.rowCount(), 0);

    // Enter on an empty box is no note either.
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    QTest::keyClick(focused(), Qt::Key_Return);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() == nullptr; }, 2000));
    EXPECT_EQ(annotations.rowCount(), 0);
}

TEST_F(MarkNow, ALetterMInTheNoteIsText)
{
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("m"));
    EXPECT_EQ(mainWindow->findChildren<AnnotationPrompt *>().size(), 1) << "M while typing does not open a second box";
    QTest::keyClick(focused(), Qt::Key_Return);
    ASSERT_EQ(annotations.rowCount(), 1);
    EXPECT_EQ(annotations.annotations().front().text, QStringLiteral("m"));
}

TEST_F(MarkNow, CtrlZTakesTheNoteBackAndCtrlShiftZPutsItBackWithItsId)
{
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("scaled the worker to 0"));
    QTest::keyClick(focused(), Qt::Key_Return);
    ASSERT_EQ(annotations.rowCount(), 1);
    const Annotation note = annotations.annotations().front();
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() == nullptr; }, 2000));

    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(annotations.rowCount(), 0);
    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    ASSERT_EQ(annotations.rowCount(), 1);
    EXPECT_EQ(annotations.annotations().front(), note);
}

TEST_F(MarkNow, ClickingElsewhereCancelsTheBox)
{
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("half a thought"));
    auto *search = mainWindow->findChild<QLineEdit *>(QStringLiteral("annotationSearch"));
    ASSERT_NE(search, nullptr);
    QTest::mouseClick(search, Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() == nullptr; }, 2000));
    EXPECT_EQ(annotations.rowCount(), 0);
}

TEST_F(MarkNow, HashWordsTypedInTheNoteBecomeItsTags)
{
    QTest::keyClick(focused(), Qt::Key_M);
    ASSERT_TRUE(QTest::qWaitFor([&] { return prompt() != nullptr && prompt()->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("#fix pool back to 20"));
    QTest::keyClick(focused(), Qt::Key_Return);
    ASSERT_EQ(annotations.rowCount(), 1);
    EXPECT_EQ(annotations.annotations().front().tags, QStringList{QStringLiteral("fix")});
    EXPECT_EQ(annotations.annotations().front().text, QStringLiteral("#fix pool back to 20"));
}

// At 1280 × 800 the box once opened over the top row of panels, on their titles.
TEST(MarkNowAt1280By800, TheBoxCoversNoPanelTitle)
{
    OfflineApp app;
    app.poller->setDashboard(DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard);
    MainWindow &window = *app.makeWindow();
    window.showDashboard({});
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window, Qt::Key_M);
    AnnotationPrompt *box = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            box = window.findChild<AnnotationPrompt *>();
            return box && box->isVisible();
        },
        2000));
    const QRect boxRect(box->mapTo(&window, QPoint(0, 0)), box->size());
    const QList<PanelTitle *> titles = window.findChildren<PanelTitle *>();
    ASSERT_FALSE(titles.isEmpty());
    for (PanelTitle *title : titles) {
        if (!title->isVisible())
            continue;
        const QRect titleRect(title->mapTo(&window, QPoint(0, 0)), title->size());
        EXPECT_FALSE(boxRect.intersects(titleRect)) << title->text().toStdString();
    }
    EXPECT_TRUE(window.rect().contains(boxRect)) << "the whole box in the window";
}
