// SPDX-License-Identifier: GPL-3.0-or-later
// What the window remembers between runs and what it tells about its keys: the layout comes
// back after a restart and Reset layout undoes it; recent sessions are most-recent-first and
// skip deleted files; Help ▸ Keyboard shortcuts lists the keys the window really has.
// (The test main points XDG_CONFIG_HOME at a scratch folder: the user's settings are safe.)
#include "annotationdock.h"
#include "annotationmodel.h"
#include "appsettings.h"
#include "dashboardpoller.h"
#include "mainwindow.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "shortcutsdialog.h"
#include "timewindow.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <memory>

namespace {

// One run of the app's window: its own store, poller and window, as main() makes them.
struct AppRun
{
    AppRun()
    {
        PrometheusConnection connection;
        connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9")); // never polled
        client = std::make_unique<PrometheusClient>(connection);
        poller = std::make_unique<DashboardPoller>(client.get(), &store, &window);
        mainWindow = std::make_unique<MainWindow>(client.get(), &store, &window, poller.get(), &annotations);
    }

    QAction *action(const QString &text) const
    {
        for (QAction *candidate : mainWindow->findChildren<QAction *>())
            if (candidate->text().remove(QLatin1Char('&')) == text)
                return candidate;
        return nullptr;
    }

    SampleStore store;
    TimeWindow window;
    AnnotationModel annotations;
    std::unique_ptr<PrometheusClient> client;
    std::unique_ptr<DashboardPoller> poller;
    std::unique_ptr<MainWindow> mainWindow;
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
    EXPECT_EQ(keysOf(QStringLiteral("Add a note at a time")), QStringLiteral("Ctrl+Click")) << "mouse gestures are listed too";

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
