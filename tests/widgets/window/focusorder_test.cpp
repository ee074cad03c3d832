// SPDX-License-Identifier: GPL-3.0-or-later
// Tab moves through a window the way the eye reads it, and always comes back round: in a
// dialog down the form and then along the buttons; in the main window from the dashboard to
// the toolbar, the charts row by row and the annotation list. No keyboard trap anywhere
// (Qt 6.4's button boxes made one, see DialogButtons::keepTabbable).
#include "chart/timelinechart.h"
#include "dashboard/loader/dashboardloader.h"
#include "dialogs/phasestatisticsdialog.h"
#include "dialogs/shortcutsdialog.h"
#include "export/exportdialog.h"
#include "export/exportfigure.h"
#include "offlineapp.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <gtest/gtest.h>
#include <memory>

namespace {

// The widgets Tab visits from the one that has the focus when the window opens, once round:
// it ends where it started, or (a trap) where it starts repeating itself.
struct TabRound
{
    std::vector<QWidget *> visited; // the start first
    bool closed = false;            // Tab came back to the start
};

TabRound tabRound(QWidget *window)
{
    window->show();
    window->activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(window));
    TabRound round;
    QWidget *start = QApplication::focusWidget();
    if (!start)
        return round;
    round.visited.push_back(start);
    for (int i = 0; i < 100; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QWidget *now = QApplication::focusWidget();
        if (now == start) {
            round.closed = true;
            break;
        }
        if (!now || std::find(round.visited.begin(), round.visited.end(), now) != round.visited.end())
            break;
        round.visited.push_back(now);
    }
    return round;
}

QString nameOf(QWidget *widget)
{
    if (auto *button = qobject_cast<QAbstractButton *>(widget))
        return button->text();
    return widget->objectName().isEmpty() ? QString::fromLatin1(widget->metaObject()->className())
                                          : widget->objectName();
}

std::string describe(const TabRound &round)
{
    std::string out;
    for (QWidget *widget : round.visited)
        out += nameOf(widget).toStdString() + " → ";
    return out + (round.closed ? "(start)" : "(stuck)");
}

QAbstractButton *button(QWidget *dialog, const QString &text)
{
    for (QAbstractButton *candidate : dialog->findChildren<QAbstractButton *>()) {
        if (candidate->text() == text)
            return candidate;
    }
    return nullptr;
}

std::ptrdiff_t indexOf(const TabRound &round, QWidget *widget)
{
    const auto it = std::find(round.visited.begin(), round.visited.end(), widget);
    return it == round.visited.end() ? -1 : it - round.visited.begin();
}

// The app's window over the testbed dashboard, as main() makes it (never polled).
struct Window : OfflineApp
{
    Window()
    {
        poller->setDashboard(DashboardLoader::fromBuiltin(QStringLiteral("testbed")).dashboard);
        makeWindow()->resize(1400, 900);
        mainWindow->showDashboard({});
        // Rows in the annotation list: a table with cells must not keep Tab to itself.
        for (int i = 0; i < 3; ++i)
            annotations.add(Annotation{0,
                                       1'700'000'000'000 + i * 60'000,
                                       std::nullopt,
                                       QStringLiteral("note %1").arg(i),
                                       {},
                                       Annotation::Source::Manual,
                                       false,
                                       {},
                                       0});
    }
};

} // namespace

TEST(FocusOrder, TheExportDialogGoesDownTheFormThenAlongTheButtons)
{
    Window app;
    ExportDialog dialog(&app.store, ExportFigure::fromDashboard(*app.poller, &app.annotations, app.window.range()));
    const TabRound round = tabRound(&dialog);
    ASSERT_TRUE(round.closed) << describe(round);
    const QList<QComboBox *> combos = dialog.findChildren<QComboBox *>();
    const QList<QSpinBox *> spins = dialog.findChildren<QSpinBox *>();
    const QList<QLineEdit *> edits = dialog.findChildren<QLineEdit *>(Qt::FindDirectChildrenOnly);
    ASSERT_EQ(combos.size(), 3);
    ASSERT_EQ(spins.size(), 2);
    ASSERT_EQ(edits.size(), 2);
    // Format, width, height, pixel ratio, theme, title, subtitle, caption, the buttons.
    EXPECT_EQ(nameOf(round.visited.front()), QStringLiteral("QComboBox")) << "the format is where the dialog starts";
    std::vector<std::ptrdiff_t> at;
    for (QWidget *widget :
         {static_cast<QWidget *>(combos[0]), static_cast<QWidget *>(spins[0]), static_cast<QWidget *>(spins[1]),
          static_cast<QWidget *>(combos[1]), static_cast<QWidget *>(combos[2]), static_cast<QWidget *>(edits[0]),
          static_cast<QWidget *>(edits[1])})
        at.push_back(indexOf(round, widget));
    for (const QString &text : {QStringLiteral("Caption: time range, queries, source, version"),
                                QStringLiteral("Save…"), QStringLiteral("Copy picture"), QStringLiteral("Cancel")})
        at.push_back(indexOf(round, button(&dialog, text)));
    for (std::size_t i = 0; i < at.size(); ++i) {
        EXPECT_GE(at[i], 0) << "item " << i << " is never reached: " << describe(round);
        if (i > 0) {
            EXPECT_GT(at[i], at[i - 1]) << "item " << i << " comes too early: " << describe(round);
        }
    }
}

TEST(FocusOrder, EveryButtonOfTheSmallDialogsIsReachedAndTabComesBackRound)
{
    Window app;
    PhaseStatisticsDialog phases(&app.store, &app.annotations);
    const TabRound phaseRound = tabRound(&phases);
    EXPECT_TRUE(phaseRound.closed) << describe(phaseRound);
    for (const QString &text :
         {QStringLiteral("Copy as text"), QStringLiteral("Copy as Markdown"), QStringLiteral("Close")})
        EXPECT_GE(indexOf(phaseRound, button(&phases, text)), 0) << text.toStdString() << ": " << describe(phaseRound);
    phases.hide();

    ShortcutsDialog shortcuts(app.mainWindow.get());
    const TabRound shortcutRound = tabRound(&shortcuts);
    EXPECT_TRUE(shortcutRound.closed) << describe(shortcutRound);
    for (const QString &text : {QStringLiteral("Copy"), QStringLiteral("Close")})
        EXPECT_GE(indexOf(shortcutRound, button(&shortcuts, text)), 0)
            << text.toStdString() << ": " << describe(shortcutRound);
}

TEST(FocusOrder, TheWindowGoesFromTheToolbarThroughTheChartsRowByRowToTheAnnotations)
{
    Window app;
    const TabRound round = tabRound(app.mainWindow.get());
    ASSERT_TRUE(round.closed) << describe(round);
    const std::ptrdiff_t windowPicker =
        indexOf(round, app.mainWindow->findChild<QWidget *>(QStringLiteral("windowPicker")));
    const std::ptrdiff_t search =
        indexOf(round, app.mainWindow->findChild<QWidget *>(QStringLiteral("annotationSearch")));
    const std::ptrdiff_t add =
        indexOf(round, app.mainWindow->findChild<QWidget *>(QStringLiteral("annotationAddButton")));
    EXPECT_GE(windowPicker, 0) << describe(round);
    std::ptrdiff_t previous = windowPicker;
    QPoint previousAt(-1, -1);
    for (PanelWidget *panel : app.mainWindow->dashboardView()->panels()) {
        const std::ptrdiff_t at = indexOf(round, panel->chart());
        const QPoint where = panel->mapTo(app.mainWindow.get(), QPoint(0, 0));
        EXPECT_GT(at, previous) << "the chart at " << where.x() << "," << where.y() << ": " << describe(round);
        // Reading order: a chart is right of the previous one in its row, or in a lower row.
        EXPECT_TRUE(where.y() > previousAt.y() || (where.y() == previousAt.y() && where.x() > previousAt.x()));
        previous = at;
        previousAt = where;
    }
    EXPECT_GT(search, previous) << "the annotation list comes after the charts: " << describe(round);
    EXPECT_GT(add, search) << describe(round);
}
