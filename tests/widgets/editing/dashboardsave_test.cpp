// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Save dashboard on a built-in dashboard, started as the demo starts it: from the source
// tree, which has a folder of the built-in's name. It once tried to write over that folder
// ("Filename refers to a directory"); a built-in is saved as a copy in the user's dashboards
// folder, and never over an earlier copy.
#include "actions/dashboardediting.h"
#include "actions/dashboardsaveaction.h"
#include "dashboard/loader/dashboardloader.h"
#include "settings/appsettings.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace {

// The working folder for the length of a test.
struct InFolder
{
    explicit InFolder(const QString &path) : previous(QDir::currentPath()) { QDir::setCurrent(path); }
    ~InFolder() { QDir::setCurrent(previous); }
    InFolder(const InFolder &) = delete;
    InFolder &operator=(const InFolder &) = delete;
    QString previous;
};

} // namespace

TEST(DashboardSave, ABuiltInIsSavedAsACopyInTheDashboardsFolderWhateverTheWorkingFolderHolds)
{
    const DashboardLoader::LoadResult builtin = DashboardLoader::load(QStringLiteral("testbed"));
    ASSERT_TRUE(builtin.usable);
    QTemporaryDir tree;
    ASSERT_TRUE(QDir(tree.path()).mkdir(QStringLiteral("testbed"))); // as the source tree has
    const InFolder inTree(tree.path());

    QMainWindow window;
    QUndoStack undo;
    DashboardDefinition current = builtin.dashboard;
    DashboardEditing editing(
        &undo, [&] { return current; }, [&](const DashboardDefinition &changed, const auto &) { current = changed; });
    DashboardSaveAction action(
        &window, &editing, [&] { return current; }, QStringLiteral("testbed"));
    QAction *save = window.findChild<QAction *>(QStringLiteral("saveDashboardAction"));
    ASSERT_NE(save, nullptr);

    QSignalSpy saved(&action, &DashboardSaveAction::saved);
    save->trigger(); // no dialog: a copy has a place of its own
    ASSERT_TRUE(saved.wait(10000));
    ASSERT_TRUE(saved.first().at(0).toBool()) << saved.first().at(1).toString().toStdString();
    const QString copy = QDir(AppSettings::dashboardsFolder()).filePath(QStringLiteral("testbed.json"));
    EXPECT_EQ(action.path(), copy);
    EXPECT_TRUE(saved.first().at(1).toString().contains(QStringLiteral("a copy"))) << "the message says it is a copy";
    EXPECT_TRUE(QFileInfo(tree.filePath(QStringLiteral("testbed"))).isDir()) << "the folder is untouched";
    const DashboardLoader::LoadResult reread = DashboardLoader::fromFile(copy);
    ASSERT_TRUE(reread.usable);
    EXPECT_EQ(reread.dashboard.title, builtin.dashboard.title);
    EXPECT_EQ(reread.dashboard.panels.size(), builtin.dashboard.panels.size());

    // Saved again: to the copy. Another run of the built-in: a second copy, the first kept.
    save->trigger();
    ASSERT_TRUE(saved.wait(10000));
    EXPECT_EQ(action.path(), copy);
    DashboardSaveAction again(
        &window, &editing, [&] { return current; }, QStringLiteral("testbed"));
    QSignalSpy savedAgain(&again, &DashboardSaveAction::saved);
    const QList<QAction *> saves = window.findChildren<QAction *>(QStringLiteral("saveDashboardAction"));
    ASSERT_EQ(saves.size(), 2);
    saves.last()->trigger();
    ASSERT_TRUE(savedAgain.wait(10000));
    EXPECT_EQ(again.path(), QDir(AppSettings::dashboardsFolder()).filePath(QStringLiteral("testbed 2.json")));
    EXPECT_TRUE(QFileInfo::exists(copy));
}
