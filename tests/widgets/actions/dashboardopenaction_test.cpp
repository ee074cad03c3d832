// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Open dashboard on a real window: the built-in dashboards and the recent files are
// offered first in the File menu, a dashboard that reads opens (in a window of its own, with
// this window's Prometheus and credentials), and a broken file is named with the place it
// breaks, in this window, and opens nothing.
#include "actions/dashboardopenaction.h"
#include "dashboard/loader/dashboardloader.h"
#include "settings/appsettings.h"

#include <QAction>
#include <QFile>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

QStringList entryTexts(QMenu *menu)
{
    QStringList texts;
    for (QAction *action : menu->actions()) {
        if (!action->isSeparator() && !action->text().isEmpty())
            texts << action->text();
    }
    return texts;
}

} // namespace

TEST(DashboardOpenAction, OffersTheBuiltInsAndTheRecentFilesFirstInTheFileMenu)
{
    QTemporaryDir dir;
    const QString recent = dir.filePath(QStringLiteral("payments.json"));
    QFile file(recent);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"title": "Payments", "panels": [{"title": "p", "series": [{"query": "up"}]}]})");
    file.close();
    AppSettings::addRecentDashboard(recent);

    QMainWindow window;
    QMenu *fileMenu = window.menuBar()->addMenu(QStringLiteral("&File"));
    fileMenu->setObjectName(QStringLiteral("fileMenu"));
    fileMenu->addAction(QStringLiteral("&Quit"));
    DashboardOpenAction action(&window, QUrl(QStringLiteral("http://127.0.0.1:9")));
    ASSERT_EQ(fileMenu->actions().value(0), action.menu()->menuAction());

    emit action.menu()->aboutToShow();
    const QStringList texts = entryTexts(action.menu());
    for (const QString &name : DashboardLoader::builtinNames())
        EXPECT_TRUE(texts.contains(QStringLiteral("Built-in: %1").arg(name))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("payments.json"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("&Other file…")));
}

TEST(DashboardOpenAction, ADashboardThatReadsOpensAndABrokenOneIsNamedWhereItBreaks)
{
    QMainWindow window;
    DashboardOpenAction action(&window, QUrl(QStringLiteral("http://127.0.0.1:9")));
    QSignalSpy opened(&action, &DashboardOpenAction::opened);

    EXPECT_EQ(action.open(QStringLiteral("testbed"), false), std::nullopt);
    ASSERT_EQ(opened.size(), 1);
    EXPECT_EQ(window.statusBar()->currentMessage(),
              QStringLiteral("Opening “Testbed: starter and engine” in a new window"));

    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    QFile file(broken);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{\n  \"title\": \"x\",\n  \"panels\": [\n}");
    file.close();
    const std::optional<QString> problem = action.open(broken, false);
    ASSERT_TRUE(problem.has_value());
    EXPECT_TRUE(problem->contains(broken)) << problem->toStdString();
    EXPECT_TRUE(problem->contains(QStringLiteral("line 4"))) << problem->toStdString();
    EXPECT_EQ(opened.size(), 1) << "a broken dashboard opens nothing";

    const std::optional<QString> missing = action.open(dir.filePath(QStringLiteral("gone.json")), false);
    ASSERT_TRUE(missing.has_value());
    EXPECT_TRUE(missing->contains(QStringLiteral("gone.json"))) << missing->toStdString();
    EXPECT_EQ(opened.size(), 1);
}

TEST(DashboardOpenAction, TheNewWindowReachesPrometheusAsThisOneDoes)
{
    QMainWindow window;
    const DashboardOpenAction action(&window, QUrl(QStringLiteral("https://prom.example:9090/")),
                                     {QStringLiteral("--header"), QStringLiteral("X-Scope-OrgID: team")});
    EXPECT_EQ(action.windowArguments(QStringLiteral("camunda")),
              (QStringList{QStringLiteral("--dashboard"), QStringLiteral("camunda"), QStringLiteral("--prometheus"),
                           QStringLiteral("https://prom.example:9090/"), QStringLiteral("--header"),
                           QStringLiteral("X-Scope-OrgID: team")}));
}
