// SPDX-License-Identifier: GPL-3.0-or-later
// The toolbar's variables: one combo box per choosable variable, none for fixed ones (and no
// bar at all without any), choosing a value emits it, and in the main window a choice reaches
// the dashboard's queries.
#include "dashboard/dashboardvariables.h"
#include "dashboard/loader/dashboardloader.h"
#include "fetching/variablevaluesloader.h"
#include "offlineapp.h"
#include "panels/variablebar.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolBar>
#include <gtest/gtest.h>
#include <memory>

namespace {

DashboardDefinition dashboardFrom(const char *json)
{
    const auto loaded = DashboardLoader::fromJson(json);
    EXPECT_TRUE(loaded.issues.isEmpty()) << loaded.issues.value(0).toString().toStdString();
    return loaded.dashboard;
}

const char *kThreeVariables = R"json({
    "variables": {
      "job": "starter",
      "namespace": { "title": "Namespace", "labelValues": { "label": "namespace" }, "default": "camunda" },
      "partition": { "values": ["1", "2", "3"], "default": "1", "includeAll": true }
    },
    "panels": [{"title": "p", "series": [{"query": "up{job=\"$job\", namespace=\"$namespace\", partition=~\"$partition\"}"}]}]
})json";

QStringList itemsOf(const QComboBox *combo)
{
    QStringList items;
    for (int i = 0; i < combo->count(); ++i)
        items << combo->itemText(i);
    return items;
}

} // namespace

TEST(VariableBar, OneComboPerChoosableVariable)
{
    VariableBar bar;
    bar.setVariables(dashboardFrom(kThreeVariables).variableDefinitions);
    EXPECT_TRUE(bar.hasChoosable());
    EXPECT_EQ(bar.findChildren<QComboBox *>().size(), 2);
    EXPECT_EQ(bar.comboFor(QStringLiteral("job")), nullptr) << "a fixed value offers no choice";
    QComboBox *partition = bar.comboFor(QStringLiteral("partition"));
    ASSERT_NE(partition, nullptr);
    EXPECT_EQ(itemsOf(partition), (QStringList{"All", "1", "2", "3"}));
    EXPECT_EQ(partition->currentText(), QStringLiteral("1"));
    QComboBox *ns = bar.comboFor(QStringLiteral("namespace"));
    ASSERT_NE(ns, nullptr);
    EXPECT_TRUE(ns->isEditable());
    EXPECT_EQ(ns->currentText(), QStringLiteral("camunda"));

    bar.setVariables(dashboardFrom(R"json({"variables": {"job": "starter"}, "panels": []})json").variableDefinitions);
    EXPECT_FALSE(bar.hasChoosable());
    EXPECT_TRUE(bar.findChildren<QComboBox *>().isEmpty());
}

TEST(VariableBar, ChoosingEmitsTheValue)
{
    VariableBar bar;
    bar.setVariables(dashboardFrom(kThreeVariables).variableDefinitions);
    bar.show();
    QSignalSpy chosen(&bar, &VariableBar::valueChosen);
    QComboBox *partition = bar.comboFor(QStringLiteral("partition"));
    partition->setCurrentIndex(0);
    emit partition->activated(0);
    ASSERT_EQ(chosen.size(), 1);
    EXPECT_EQ(chosen.last().at(0).toString(), QStringLiteral("partition"));
    EXPECT_EQ(chosen.last().at(1).toString(), DashboardVariables::kAllValue) << "All stands for every value";

    // Prometheus' values arrive; the value in use stays first when it is not among them.
    bar.setChoices(QStringLiteral("namespace"),
                   DashboardVariables::choicesWithCurrent({"blue", "green"}, QStringLiteral("camunda")));
    QComboBox *ns = bar.comboFor(QStringLiteral("namespace"));
    EXPECT_EQ(itemsOf(ns), (QStringList{"camunda", "blue", "green"}));
    EXPECT_EQ(ns->currentText(), QStringLiteral("camunda"));
    ns->setCurrentIndex(2);
    emit ns->activated(2);
    EXPECT_EQ(chosen.last().at(1).toString(), QStringLiteral("green"));
    // A value typed by hand (not listed yet) counts too.
    ns->lineEdit()->setText(QStringLiteral("yellow"));
    emit ns->lineEdit()->editingFinished();
    EXPECT_EQ(chosen.last().at(1).toString(), QStringLiteral("yellow"));

    bar.setError(QStringLiteral("namespace"), QStringLiteral("Prometheus refused the values"));
    EXPECT_TRUE(ns->toolTip().contains(QStringLiteral("Prometheus refused the values")));
    EXPECT_EQ(ns->currentText(), QStringLiteral("yellow")) << "a failed load keeps the current value";
}

TEST(VariableBar, ARefreshedListChangesNothingTheUserIsLookingAt)
{
    VariableBar bar;
    bar.setVariables(dashboardFrom(kThreeVariables).variableDefinitions);
    bar.show();
    QComboBox *ns = bar.comboFor(QStringLiteral("namespace"));
    bar.setChoices(QStringLiteral("namespace"), {"camunda", "blue"});
    ASSERT_EQ(itemsOf(ns), (QStringList{"camunda", "blue"}));

    // The same list again (every minute, all day): the combo is not rebuilt.
    QSignalSpy rebuilt(ns->model(), &QAbstractItemModel::rowsRemoved);
    bar.setChoices(QStringLiteral("namespace"), {"camunda", "blue"});
    EXPECT_EQ(rebuilt.size(), 0);

    // A new pod while the list is open: nothing moves under the pointer ...
    ns->showPopup();
    ASSERT_TRUE(QTest::qWaitFor([&] { return ns->view()->isVisible(); }, 5000));
    bar.setChoices(QStringLiteral("namespace"), {"camunda", "blue", "green"});
    EXPECT_EQ(itemsOf(ns), (QStringList{"camunda", "blue"}));
    ns->hidePopup();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !ns->view()->isVisible(); }, 5000));
    // ... and the next load shows it, keeping the value in use.
    bar.setChoices(QStringLiteral("namespace"), {"camunda", "blue", "green"});
    EXPECT_EQ(itemsOf(ns), (QStringList{"camunda", "blue", "green"}));
    EXPECT_EQ(ns->currentText(), QStringLiteral("camunda"));
}

TEST(VariableBar, TheMainWindowAsksForTheChoicesAgainWhileLive)
{
    OfflineApp app; // nobody answers there: each load fails
    app.poller->setDashboard(dashboardFrom(kThreeVariables));
    MainWindow &mainWindow = *app.makeWindow();
    auto *loader = mainWindow.findChild<VariableValuesLoader *>();
    ASSERT_NE(loader, nullptr);
    QSignalSpy asked(loader, &VariableValuesLoader::failed);
    mainWindow.setVariableRefreshMs(200);
    mainWindow.showDashboard({});
    EXPECT_TRUE(QTest::qWaitFor([&] { return asked.size() >= 3; }, 15000)) << asked.size() << " loads";

    // A recording shown offline asks Prometheus nothing.
    mainWindow.showOffline(QStringLiteral("Offline"));
    const qsizetype before = asked.size();
    // Seven refresh intervals pass without a new load (one may have been under way).
    EXPECT_FALSE(QTest::qWaitFor([&] { return asked.size() > before + 1; }, 1500));
}

TEST(VariableBar, InTheMainWindowAChoiceReachesTheQueries)
{
    OfflineApp app;
    DashboardPoller &poller = *app.poller;
    SampleStore &store = app.store;
    poller.setDashboard(dashboardFrom(kThreeVariables));
    MainWindow &mainWindow = *app.makeWindow();
    mainWindow.showDashboard({});
    mainWindow.resize(1800, 800); // wide enough that no toolbar item moves to its overflow menu
    mainWindow.show();
    auto *bar = mainWindow.findChild<VariableBar *>(QStringLiteral("variableBar"));
    ASSERT_NE(bar, nullptr);
    // The toolbar lays its widgets out (and shows them) when it next gets to it.
    EXPECT_TRUE(QTest::qWaitFor([&] { return bar->isVisible(); }, 5000));
    // A series of the old value in the store: the choice replaces it.
    store.merge(QStringLiteral("p0/q0/$namespace=camunda,$partition=1/{}"), {}, std::vector<qint64>{1000},
                std::vector<double>{1});
    QSignalSpy changed(&poller, &DashboardPoller::variableChanged);
    QComboBox *partition = bar->comboFor(QStringLiteral("partition"));
    partition->setCurrentIndex(2); // "2"
    emit partition->activated(2);
    ASSERT_EQ(changed.size(), 1);
    EXPECT_EQ(poller.dashboard().variableDefinitions[2].value, QStringLiteral("2"));
    EXPECT_TRUE(store.keysWithPrefix(QStringLiteral("p0/q0/")).isEmpty()) << "the old value's series left the store";

    // A dashboard without a choosable variable has no bar.
    poller.setDashboard(dashboardFrom(R"json({"variables": {"job": "starter"}, "panels": []})json"));
    mainWindow.showDashboard({});
    EXPECT_TRUE(QTest::qWaitFor([&] { return !bar->isVisible(); }, 5000));
}
