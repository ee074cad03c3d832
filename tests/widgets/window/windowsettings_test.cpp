// SPDX-License-Identifier: GPL-3.0-or-later
// What the window remembers between runs and what it tells about its keys: the layout comes
// back after a restart and Reset layout undoes it; recent sessions are most-recent-first and
// skip deleted files; Help ▸ Keyboard shortcuts lists the keys the window really has.
// (The test main points XDG_CONFIG_HOME at a scratch folder: the user's settings are safe.)
#include "annotating/annotationdock.h"
#include "chart/timelinechart.h"
#include "dialogs/shortcutsdialog.h"
#include "offlineapp.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "settings/appsettings.h"
#include "theme/uitheme.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <memory>

namespace {

// One run of the app's window: its own store, poller and window, as main() makes them.
struct AppRun : OfflineApp
{
    AppRun() { makeWindow(); }

    QAction *action(const QString &text) const
    {
        for (QAction *candidate : mainWindow->findChildren<QAction *>())
            if (candidate->text().remove(QLatin1Char('&')) == text)
                return candidate;
        return nullptr;
    }
};

class WindowSettings : public ::testing::Test
{
protected:
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }
};

} // namespace

TEST_F(WindowSettings, TheLayoutComesBackAfterARestartAndResetLayoutUndoesIt)
{
    {
        AppRun first;
        first.mainWindow->restoreLayout();
        first.mainWindow->resize(1100, 700);
        first.mainWindow->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(first.mainWindow.get()));
        first.mainWindow->annotationDock()->hide(); // the user closes the annotation list
        first.mainWindow->close();
    }
    AppRun second;
    second.mainWindow->resize(1600, 1000);
    second.mainWindow->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(second.mainWindow.get()));
    ASSERT_TRUE(second.mainWindow->annotationDock()->isVisible()) << "a new window starts with the dock";
    second.mainWindow->restoreLayout();
    EXPECT_FALSE(second.mainWindow->annotationDock()->isVisible()) << "the dock stays closed after a restart";
    EXPECT_EQ(second.mainWindow->size(), QSize(1100, 700));

    QAction *reset = second.action(QStringLiteral("Reset layout"));
    ASSERT_NE(reset, nullptr);
    reset->trigger();
    EXPECT_TRUE(second.mainWindow->annotationDock()->isVisible());
    EXPECT_TRUE(AppSettings::windowState().isEmpty()) << "the saved layout is forgotten too";
}

TEST_F(WindowSettings, AWindowThatDidNotRestoreItsLayoutDoesNotOverwriteTheSavedOne)
{
    AppSettings::saveWindow(QByteArray("geometry"), QByteArray("state"));
    {
        AppRun headless; // screenshots and tests: --size wins, nothing is restored
        headless.mainWindow->show();
        headless.mainWindow->close();
    }
    EXPECT_EQ(AppSettings::windowState(), QByteArray("state"));
}

TEST_F(WindowSettings, RecentSessionsAreMostRecentFirstWithoutDuplicatesOrDeletedFiles)
{
    QTemporaryDir dir;
    QStringList paths;
    for (int i = 0; i < AppSettings::kRecentLimit + 2; ++i) {
        paths << dir.filePath(QStringLiteral("run-%1.chaoscope").arg(i));
        QFile file(paths.last());
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    }
    for (const QString &path : paths)
        AppSettings::addRecentSession(path);
    AppSettings::addRecentSession(paths[5]); // opened again: moves to the top, once
    QStringList recent = AppSettings::recentSessions();
    ASSERT_EQ(recent.size(), AppSettings::kRecentLimit);
    EXPECT_EQ(recent.first(), paths[5]);
    EXPECT_EQ(recent.count(paths[5]), 1);
    EXPECT_EQ(recent[1], paths.last());
    EXPECT_FALSE(recent.contains(paths.first())) << "the oldest fell off the end";

    QFile::remove(paths.last());
    recent = AppSettings::recentSessions();
    EXPECT_FALSE(recent.contains(paths.last())) << "a deleted file is not offered";
}

TEST_F(WindowSettings, TheLastLiveRunIsRememberedWithAnAbsoluteDashboardPath)
{
    QTemporaryDir dir;
    const QString dashboard = dir.filePath(QStringLiteral("mine.json"));
    QFile file(dashboard);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.close();
    AppSettings::rememberLiveRun(QStringLiteral("http://127.0.0.1:9090/"), dashboard);
    EXPECT_EQ(AppSettings::lastPrometheusUrl(), QStringLiteral("http://127.0.0.1:9090/"));
    EXPECT_EQ(AppSettings::lastDashboard(), dashboard);
    EXPECT_EQ(AppSettings::recentDashboards(), QStringList{dashboard});
    AppSettings::rememberLiveRun(QStringLiteral("http://127.0.0.1:9091/"), QStringLiteral("testbed"));
    EXPECT_EQ(AppSettings::lastDashboard(), QStringLiteral("testbed")) << "a built-in dashboard is kept by name";
}

TEST_F(WindowSettings, TheShortcutListShowsTheKeysTheWindowReallyHas)
{
    AppRun run;
    const QList<ShortcutsDialog::Entry> entries = ShortcutsDialog::collect(run.mainWindow.get());
    const auto keysOf = [&](const QString &what) {
        for (const ShortcutsDialog::Entry &entry : entries)
            if (entry.what == what)
                return entry.keys;
        return QString();
    };
    EXPECT_EQ(keysOf(QStringLiteral("Mark now")), QKeySequence(Qt::Key_M).toString(QKeySequence::NativeText));
    EXPECT_EQ(keysOf(QStringLiteral("Pause")), QKeySequence(Qt::Key_Space).toString(QKeySequence::NativeText));
    EXPECT_EQ(keysOf(QStringLiteral("Live")), QKeySequence(Qt::Key_Home).toString(QKeySequence::NativeText));
    EXPECT_TRUE(keysOf(QStringLiteral("Keyboard shortcuts")).contains(QStringLiteral("F1")));
    EXPECT_EQ(keysOf(QStringLiteral("Add a note at a time")), QStringLiteral("Ctrl+Click"))
        << "mouse gestures are listed too";
    // As the chart answers the wheel (ChartInteraction.ShiftDragAndTheWheelPanCtrlWheelZooms…).
    EXPECT_EQ(keysOf(QStringLiteral("Pan in time")), QStringLiteral("Shift+Wheel"))
        << "the plain wheel scrolls the page";
    EXPECT_EQ(keysOf(QStringLiteral("Zoom in or out")), QStringLiteral("Ctrl+Wheel"));

    // Every action of the window that has a key is in the list: none is forgotten.
    for (const QAction *action : run.mainWindow->findChildren<QAction *>()) {
        if (action->shortcut().isEmpty())
            continue;
        const QString what = action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")).trimmed();
        EXPECT_FALSE(keysOf(what).isEmpty()) << what.toStdString() << " is missing from the shortcut list";
    }

    // The dialog itself opens from Help and copies the same list.
    run.mainWindow->showShortcuts();
    auto *dialog = run.mainWindow->findChild<ShortcutsDialog *>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->toText().contains(QStringLiteral("Mark now\tM")));
}

namespace {

// The colour most pixels of a widget's grab have: its background, whatever is drawn on it.
QColor dominantColor(QWidget *widget)
{
    const QImage image = widget->grab().toImage();
    QHash<QRgb, int> counts;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            ++counts[image.pixel(x, y)];
    QRgb best = 0;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        if (it.value() > counts.value(best))
            best = it.key();
    return QColor(best);
}

} // namespace

TEST_F(WindowSettings, TheDarkThemeDarkensWindowPanelsAndChartsAndIsRemembered)
{
    AppRun run;
    DashboardDefinition dashboard;
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    SeriesDefinition series;
    series.query = QStringLiteral("up");
    panel.series.push_back(series);
    dashboard.panels.push_back(panel);
    run.poller->setDashboard(dashboard);
    run.mainWindow->showDashboard({});
    run.mainWindow->resize(1200, 800);
    run.mainWindow->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(run.mainWindow.get()));
    ASSERT_EQ(run.mainWindow->dashboardView()->panels().size(), 1u);
    PanelWidget *shown = run.mainWindow->dashboardView()->panels().front();

    QAction *dark = run.action(QStringLiteral("Dark"));
    QAction *light = run.action(QStringLiteral("Light"));
    ASSERT_NE(dark, nullptr);
    ASSERT_NE(light, nullptr);

    light->trigger();
    EXPECT_GT(dominantColor(shown->chart()).lightness(), 200) << "light: the plot is white";
    EXPECT_GT(dominantColor(run.mainWindow->centralWidget()).lightness(), 200);

    dark->trigger();
    EXPECT_TRUE(UiTheme::instance()->isDark());
    EXPECT_EQ(AppSettings::theme(), QStringLiteral("dark")) << "the choice survives a restart";
    EXPECT_LT(dominantColor(shown->chart()).lightness(), 60) << "dark: the plot is dark too, not only the frame";
    EXPECT_LT(dominantColor(run.mainWindow->centralWidget()).lightness(), 60);
    EXPECT_LT(dominantColor(run.mainWindow->menuBar()).lightness(), 80)
        << "controls follow the palette " << run.mainWindow->menuBar()->palette().window().color().name().toStdString()
        << " app " << QApplication::palette().window().color().name().toStdString() << " style "
        << QApplication::style()->name().toStdString();
    // Every series colour stands out from the dark plot.
    for (int i = 0; i < 8; ++i) {
        const QColor color = Palette::seriesColor(i, Palette::Background::Dark);
        EXPECT_GT(color.lightness() - UiTheme::darkColors().panel.lightness(), 40) << "series colour " << i;
    }

    // A dashboard's black set-point line stays readable on dark, and stays black on light.
    EXPECT_GT(Palette::resolve(QStringLiteral("#000000"), 0, Palette::Background::Dark).lightness(), 180);
    EXPECT_EQ(Palette::resolve(QStringLiteral("#000000"), 0, Palette::Background::Light), QColor(Qt::black));
    EXPECT_EQ(Palette::resolve(QStringLiteral("#0072B2"), 0, Palette::Background::Dark), QColor(0x00, 0x72, 0xB2));
    EXPECT_EQ(Palette::resolve(QStringLiteral("#009E73"), 0, Palette::Background::Dark), QColor(0x00, 0x9E, 0x73))
        << "a colour readable on dark is kept as the file says";

    light->trigger();
    EXPECT_EQ(AppSettings::theme(), QStringLiteral("light"));
    EXPECT_GT(dominantColor(shown->chart()).lightness(), 200) << "and back";
}

TEST_F(WindowSettings, TheWindowPickerNamesAWindowOutsideItsList)
{
    AppRun run;
    auto *picker = run.mainWindow->findChild<QComboBox *>(QStringLiteral("windowPicker"));
    ASSERT_NE(picker, nullptr);
    run.window.setWindowMs(2 * 3'600'000); // --window 2h
    run.mainWindow->showDashboard({});
    EXPECT_EQ(picker->currentText(), QStringLiteral("2 h"));
    run.window.setWindowMs(90 * 60'000); // a dashboard's "90m"
    run.mainWindow->showDashboard({});
    EXPECT_EQ(picker->currentText(), QStringLiteral("1 h 30 min")) << "not the nearest choice, 1 h or 2 h";
    const int at = picker->currentIndex();
    EXPECT_EQ(picker->itemData(at - 1).toLongLong(), 3'600'000) << "in order";
    EXPECT_EQ(picker->itemData(at + 1).toLongLong(), 2 * 3'600'000);
}
