// SPDX-License-Identifier: GPL-3.0-or-later
// The features a run composes bring their docks to the window, which only hosts them: a
// scenario's dock once it starts, the cluster's beside the Load tester's with its View entry
// and key. Each dock is listed in View, to be shown again once closed.
#include "loadtester/loadtestercontroller.h"
#include "modules/clustermodule.h"
#include "modules/scenariomodule.h"
#include "offlineapp.h"
#include "session/sessionrecorder.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

namespace {

QAction *viewEntry(MainWindow *window, const QString &objectName)
{
    QMenu *view = window->menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"));
    if (!view)
        return nullptr;
    for (QAction *action : view->actions()) {
        if (action->objectName() == objectName)
            return action;
    }
    return nullptr;
}

struct ModuleDocksTest : ::testing::Test, protected OfflineApp
{
    QTemporaryDir folder;
    MainWindow *mainWindow = nullptr;

    void SetUp() override
    {
        ASSERT_TRUE(folder.isValid());
        mainWindow = makeWindow();
        mainWindow->resize(1280, 800);
        mainWindow->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(mainWindow));
    }

    QString write(const QString &name, const QByteArray &text)
    {
        QFile file(folder.filePath(name));
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
        return file.fileName();
    }
};

} // namespace

TEST_F(ModuleDocksTest, AScenarioBringsItsDockOnceItStarts)
{
    LoadTesterController controller;
    SessionRecorder recorder(&store, &annotations);
    ScenarioModule scenario(
        {&controller, &annotations, client.get(), &recorder, &store, poller.get(), nullptr, mainWindow, folder.path()});
    EXPECT_EQ(mainWindow->findChild<QDockWidget *>(QStringLiteral("scenarioDock")), nullptr)
        << "no dock before anything runs";

    const QString path = write(QStringLiteral("steady.json"), R"({"title": "steady",
        "steps": [{"annotate": "steady state"}, {"hold": "1h"}]})");
    ASSERT_EQ(scenario.start(path), std::nullopt);
    auto *dock = mainWindow->findChild<QDockWidget *>(QStringLiteral("scenarioDock"));
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(QTest::qWaitFor([&] { return dock->isVisible(); }, 5000)) << "shown in the window already shown";
    EXPECT_EQ(dock->windowTitle(), QStringLiteral("Scenario"));
    QAction *entry = viewEntry(mainWindow, QStringLiteral("scenarioDockToggle"));
    ASSERT_NE(entry, nullptr) << "listed in View";
    ASSERT_TRUE(QTest::qWaitFor([&] { return annotations.rowCount() == 1; }, 5000)) << "the runner runs";
    EXPECT_TRUE(scenario.ran());

    dock->close();
    entry->trigger();
    EXPECT_TRUE(dock->isVisible()) << "View shows it again";

    // A broken file is refused before anything starts, with its reason on stderr.
    const QString broken = write(QStringLiteral("broken.json"), R"({"steps": [{"launch": "rockets"}]})");
    EXPECT_EQ(scenario.start(broken), 2);
}

TEST_F(ModuleDocksTest, TheClusterDockStandsBesideTheLoadTestersWithItsViewEntryAndKey)
{
    LoadTesterController controller;
    mainWindow->setLoadTester(&controller);
    const QString kubeconfig = write(QStringLiteral("kubeconfig"), R"(apiVersion: v1
kind: Config
current-context: chaos
clusters:
- name: testbed
  cluster: {server: "https://127.0.0.1:9"}
contexts:
- name: chaos
  context: {cluster: testbed, user: admin, namespace: chaos}
users:
- name: admin
  user: {token: not-a-real-token}
)");
    ClusterModule cluster(&annotations, &store, poller.get());
    DashboardDefinition dashboard;
    ASSERT_EQ(cluster.connectTo(KubeConfig::Request{{kubeconfig}, {}, {}}, dashboard), std::nullopt);
    ASSERT_NE(cluster.controller(), nullptr);
    cluster.host(mainWindow, dashboard.kubernetes); // not started: nothing is sent

    auto *dock = mainWindow->findChild<QDockWidget *>(QStringLiteral("clusterDockWidget"));
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return mainWindow->tabifiedDockWidgets(mainWindow->controlDock()).contains(dock); }, 5000))
        << "tabbed with the Load tester dock";
    ASSERT_NE(viewEntry(mainWindow, QStringLiteral("clusterDockWidgetToggle")), nullptr);
    QAction *focus = viewEntry(mainWindow, QStringLiteral("clusterFocusAction"));
    ASSERT_NE(focus, nullptr);
    EXPECT_EQ(focus->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    dock->close();
    focus->trigger();
    EXPECT_TRUE(dock->isVisible()) << "the key brings the dock back";

    // No cluster asked for and none in the dashboard: no controller, no dock.
    ClusterModule none(&annotations, &store, poller.get());
    EXPECT_EQ(none.connectTo(std::nullopt, dashboard), std::nullopt);
    EXPECT_EQ(none.controller(), nullptr);
}
