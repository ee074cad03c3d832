// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Import Grafana dashboard… on a real window: the menu entry is there, and importing
// the Camunda export writes a dashboard the loader reads, saying so in the status bar.
#include "actions/grafanaimportaction.h"
#include "dashboard/loader/dashboardloader.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <gtest/gtest.h>

TEST(GrafanaImportAction, ImportsIntoANewDashboardFile)
{
    QMainWindow window;
    auto *action = new GrafanaImportAction(&window, QUrl(QStringLiteral("http://127.0.0.1:9")));
    QMenu *file = window.menuBar()->findChild<QMenu *>(QStringLiteral("fileMenu"));
    ASSERT_NE(file, nullptr);
    EXPECT_NE(file->findChild<QAction *>(QStringLiteral("importGrafanaAction")), nullptr);

    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("camunda.json"));
    QSignalSpy finished(action, &GrafanaImportAction::finished);
    action->importFile(sourcePath(QStringLiteral("tests/fixtures/grafana/camunda-grafana.json")), output, false);
    ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }, 30000));
    EXPECT_TRUE(finished.at(0).at(0).toBool()) << finished.at(0).at(1).toString().toStdString();
    EXPECT_EQ(window.statusBar()->currentMessage(),
              QStringLiteral("Converted 12 panels, 4 variables to %1").arg(output));

    const DashboardLoader::LoadResult loaded = DashboardLoader::fromFile(output);
    ASSERT_TRUE(loaded.usable);
    EXPECT_TRUE(loaded.issues.isEmpty());
    EXPECT_EQ(loaded.dashboard.panels.size(), 12u);
    EXPECT_EQ(loaded.dashboard.title, QStringLiteral("Camunda 8 load test"));
}

TEST(GrafanaImportAction, TheNewWindowReachesPrometheusAsThisOneDoes)
{
    QMainWindow window;
    const GrafanaImportAction action(&window, QUrl(QStringLiteral("https://prom.example:9090/")),
                                     {QStringLiteral("--bearer-token-file"), QStringLiteral("/etc/chaoscope/token")});
    EXPECT_EQ(action.windowArguments(QStringLiteral("/tmp/camunda.json")),
              (QStringList{QStringLiteral("--dashboard"), QStringLiteral("/tmp/camunda.json"),
                           QStringLiteral("--prometheus"), QStringLiteral("https://prom.example:9090/"),
                           QStringLiteral("--bearer-token-file"), QStringLiteral("/etc/chaoscope/token")}));
}
