// SPDX-License-Identifier: GPL-3.0-or-later
// Panels changed in place as a user changes them: from a panel's right-click menu (move,
// rename, edit, add a derived series, remove) and the Dashboard menu (columns), each drawn at
// once with the samples the panel had, undone and redone with the window's undo stack, and
// the dashboard marked modified until it is back as saved.
#include "actions/dashboardediting.h"
#include "actions/paneleditingaction.h"
#include "chart/timelinechart.h"
#include "editing/derivedseriesdialog.h"
#include "editing/paneleditordialog.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "timeline/timewindow.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace {

DashboardDefinition threePanels()
{
    DashboardDefinition dashboard;
    dashboard.title = QStringLiteral("Edits");
    dashboard.columns = 2;
    const QStringList titles{QStringLiteral("Throughput"), QStringLiteral("Backlog"), QStringLiteral("Pool")};
    for (const QString &title : titles) {
        PanelDefinition panel;
        panel.title = title;
        SeriesDefinition series;
        series.query = QStringLiteral("sum(%1)").arg(title.toLower());
        series.legend = title.toLower();
        panel.series.push_back(series);
        dashboard.panels.push_back(panel);
    }
    return dashboard;
}

// A menu's action by its text, looking into submenus ("Move" ▸ "Right").
QAction *actionIn(QMenu *menu, const QStringList &path)
{
    for (QAction *action : menu->actions()) {
        if (action->text() != path.front())
            continue;
        if (path.size() == 1)
            return action;
        return action->menu() ? actionIn(action->menu(), path.mid(1)) : nullptr;
    }
    return nullptr;
}

struct Window
{
    QMainWindow main;
    SampleStore store;
    TimeWindow timeWindow;
    PrometheusClient client{[] {
        PrometheusConnection connection;
        connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/")); // never polled here
        return connection;
    }()};
    DashboardPoller poller{&client, &store, &timeWindow};
    DashboardView *view = nullptr;
    QUndoStack undo;
    std::unique_ptr<DashboardEditing> editing;
    std::unique_ptr<PanelEditingAction> action;

    Window()
    {
        const DashboardDefinition dashboard = threePanels();
        timeWindow.setWindowMs(60'000);
        const qint64 now = timeWindow.now();
        // What each panel had drawn: its number as value, as the poller stores answers.
        for (int p = 0; p < 3; ++p)
            store.merge(SeriesKey::ofQuery(p, 0, {}, QStringLiteral("{}")), {},
                        std::vector<qint64>{now - 2000, now - 1000}, std::vector<double>{double(p), double(p)});
        poller.setDashboard(dashboard);
        poller.bindStoredSeries({});
        view = new DashboardView(&poller, &store, &timeWindow);
        main.setCentralWidget(view);
        view->rebuild();
        editing = std::make_unique<DashboardEditing>(
            &undo, [this] { return poller.dashboard(); },
            [this](const DashboardDefinition &changed, const std::vector<KeyRename> &renames) {
                store.rename(renames); // as the run applies a change
                poller.setDashboard(changed);
                poller.bindStoredSeries({});
                view->rebuild();
                action->dashboardChanged();
            });
        action =
            std::make_unique<PanelEditingAction>(&main, view, editing.get(), [this] { return poller.dashboard(); });
        main.resize(1200, 800);
        main.show();
    }

    const DashboardDefinition &dashboard() const { return poller.dashboard(); }

    // Right-clicks panel `panel` and picks the menu entry.
    void choose(int panel, const QStringList &path)
    {
        TimelineChart *chart = view->panels().at(std::size_t(panel))->chart();
        emit chart->customContextMenuRequested(QPoint(40, 40));
        auto *menu = view->panels().at(std::size_t(panel))->findChild<QMenu *>(QStringLiteral("panelMenu"));
        ASSERT_NE(menu, nullptr);
        QAction *entry = actionIn(menu, path);
        ASSERT_NE(entry, nullptr) << path.join(QStringLiteral(" ▸ ")).toStdString();
        ASSERT_TRUE(entry->isEnabled()) << path.join(QStringLiteral(" ▸ ")).toStdString();
        entry->trigger();
        menu->close();
        QCoreApplication::processEvents(); // the edit is queued: it rebuilds the grid the menu belongs to
    }

    // The value the panel draws for its first series: whose samples it shows.
    double drawn(int panel) const
    {
        const std::vector<SeriesBinding> bound = view->shown().seriesOf(panel);
        if (bound.empty())
            return -1;
        const SampleStore::Series *series = store.series(bound.front().key);
        return series && !series->isEmpty() ? series->values().back() : -1;
    }
};

} // namespace

TEST(PanelEditing, MovingAPanelTakesWhatItDrewAlongWithUndoAndRedo)
{
    Window window;
    ASSERT_EQ(window.drawn(0), 0);
    window.choose(0, {QStringLiteral("Move"), QStringLiteral("Right")});
    EXPECT_EQ(window.dashboard().panels[0].title, QStringLiteral("Backlog"));
    EXPECT_EQ(window.dashboard().panels[1].title, QStringLiteral("Throughput"));
    EXPECT_EQ(window.drawn(0), 1) << "Backlog's samples, drawn where Backlog is now";
    EXPECT_EQ(window.drawn(1), 0);
    EXPECT_TRUE(window.editing->isModified());

    window.choose(2, {QStringLiteral("Move"), QStringLiteral("Up")}); // Pool changes places with Backlog
    EXPECT_EQ(window.dashboard().panels[0].title, QStringLiteral("Pool"));
    EXPECT_EQ(window.drawn(0), 2);
    EXPECT_EQ(window.drawn(2), 1);

    window.undo.undo();
    window.undo.undo();
    EXPECT_EQ(window.dashboard().panels[0].title, QStringLiteral("Throughput"));
    EXPECT_EQ(window.drawn(0), 0);
    EXPECT_EQ(window.drawn(1), 1);
    EXPECT_EQ(window.drawn(2), 2);
    EXPECT_FALSE(window.editing->isModified()) << "back as it was saved";
    window.undo.redo();
    EXPECT_EQ(window.dashboard().panels[0].title, QStringLiteral("Backlog"));
    EXPECT_EQ(window.drawn(0), 1);

    // The first panel of a row cannot move further left.
    TimelineChart *chart = window.view->panels().at(0)->chart();
    emit chart->customContextMenuRequested(QPoint(40, 40));
    auto *menu = window.view->panels().at(0)->findChild<QMenu *>(QStringLiteral("panelMenu"));
    ASSERT_NE(menu, nullptr);
    EXPECT_FALSE(actionIn(menu, {QStringLiteral("Move"), QStringLiteral("Left")})->isEnabled());
    EXPECT_FALSE(actionIn(menu, {QStringLiteral("Move"), QStringLiteral("Up")})->isEnabled());
    menu->close();
}

TEST(PanelEditing, RenamingAndRemovingAreUndoneAndARemovedPanelComesBackWithItsSamples)
{
    Window window;
    window.choose(1, {QStringLiteral("Rename…")});
    auto *rename = qobject_cast<QInputDialog *>(window.action->dialog());
    ASSERT_NE(rename, nullptr);
    EXPECT_EQ(rename->textValue(), QStringLiteral("Backlog"));
    rename->setTextValue(QStringLiteral("Job backlog"));
    rename->accept();
    EXPECT_EQ(window.dashboard().panels[1].title, QStringLiteral("Job backlog"));
    EXPECT_EQ(window.view->panels().at(1)->findChild<QLabel *>()->text().contains(QStringLiteral("Job backlog")), true);
    EXPECT_EQ(window.undo.undoText(), QStringLiteral("Rename Backlog to Job backlog"));

    window.choose(0, {QStringLiteral("Remove panel")});
    ASSERT_EQ(window.dashboard().panels.size(), 2u);
    EXPECT_EQ(window.view->panels().size(), 2u);
    EXPECT_EQ(window.drawn(0), 1) << "the others close up with their samples";
    EXPECT_EQ(window.drawn(1), 2);

    window.undo.undo();
    ASSERT_EQ(window.dashboard().panels.size(), 3u);
    EXPECT_EQ(window.drawn(0), 0) << "the removed panel is back with what it had drawn";
    window.undo.undo();
    EXPECT_EQ(window.dashboard().panels[1].title, QStringLiteral("Backlog"));
    EXPECT_FALSE(window.editing->isModified());
}

TEST(PanelEditing, ThePanelEditorChangesASeriesLookAndAddsAQuery)
{
    Window window;
    window.choose(1, {QStringLiteral("Edit panel…")});
    auto *editor = qobject_cast<PanelEditorDialog *>(window.action->dialog());
    ASSERT_NE(editor, nullptr);
    QPushButton *ok = editor->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    ASSERT_EQ(editor->seriesList()->count(), 1);

    editor->legendEdit()->selectAll();
    QTest::keyClicks(editor->legendEdit(), QStringLiteral("jobs waiting"));
    QTest::keyClicks(editor->colorEdit(), QStringLiteral("no colour"));
    EXPECT_FALSE(ok->isEnabled()) << "a colour Qt cannot read is said, not taken";
    EXPECT_TRUE(editor->problem().contains(QStringLiteral("no colour"))) << editor->problem().toStdString();
    editor->colorEdit()->selectAll();
    QTest::keyClicks(editor->colorEdit(), QStringLiteral("#D55E00"));
    editor->axisBox()->setCurrentIndex(1);
    emit editor->axisBox()->activated(1);

    QTest::mouseClick(editor->addButton(), Qt::LeftButton);
    EXPECT_FALSE(ok->isEnabled()) << "a new series needs its query";
    QTest::keyClicks(editor->queryEdit(), QStringLiteral("sum(backlog_limit)"));
    EXPECT_TRUE(ok->isEnabled()) << editor->problem().toStdString();
    QTest::mouseClick(ok, Qt::LeftButton);

    const PanelDefinition &panel = window.dashboard().panels[1];
    ASSERT_EQ(panel.series.size(), 2u);
    EXPECT_EQ(panel.series[0].legend, QStringLiteral("jobs waiting"));
    EXPECT_EQ(panel.series[0].color, QStringLiteral("#D55E00"));
    EXPECT_EQ(panel.series[0].axis, AxisSide::Right);
    EXPECT_EQ(panel.series[1].query, QStringLiteral("sum(backlog_limit)"));
    EXPECT_EQ(window.drawn(1), 1) << "the same query keeps what it had";
    const TimelineChart *chart = window.view->panels().at(1)->chart();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !chart->legend().isEmpty(); }, 5000)) << "the legend is drawn";
    EXPECT_EQ(chart->legend().front().name, QStringLiteral("jobs waiting"));
    EXPECT_EQ(chart->legend().front().color, QColor(QStringLiteral("#D55E00")));

    window.undo.undo();
    EXPECT_EQ(window.dashboard().panels[1].series.size(), 1u);
    EXPECT_EQ(window.dashboard().panels[1].series[0].legend, QStringLiteral("backlog"));
}

TEST(PanelEditing, ADerivedSeriesIsBuiltFromTheFormAndColumnsFromTheDashboardMenu)
{
    Window window;
    window.choose(0, {QStringLiteral("Add derived series…")});
    auto *form = qobject_cast<DerivedSeriesDialog *>(window.action->dialog());
    ASSERT_NE(form, nullptr);
    QPushButton *ok = form->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QTest::keyClicks(form->formulaEdit(), QStringLiteral("backlog / "));
    EXPECT_FALSE(ok->isEnabled());
    EXPECT_TRUE(form->problem().contains(QStringLiteral("column"))) << form->problem().toStdString();
    QTest::keyClicks(form->formulaEdit(), QStringLiteral("throughput"));
    ASSERT_NE(form->inputBox(QStringLiteral("backlog")), nullptr);
    ASSERT_NE(form->inputBox(QStringLiteral("throughput")), nullptr);
    EXPECT_FALSE(ok->isEnabled()) << form->problem().toStdString();
    form->inputBox(QStringLiteral("backlog"))->setCurrentIndex(2);    // Backlog › backlog
    form->inputBox(QStringLiteral("throughput"))->setCurrentIndex(1); // Throughput › throughput
    emit form->inputBox(QStringLiteral("throughput"))->activated(1);
    EXPECT_TRUE(ok->isEnabled()) << form->problem().toStdString();
    QTest::keyClicks(form->legendEdit(), QStringLiteral("wait (s)"));
    QTest::mouseClick(ok, Qt::LeftButton);

    const DashboardDefinition &dashboard = window.dashboard();
    ASSERT_EQ(dashboard.panels[0].series.size(), 2u);
    EXPECT_EQ(dashboard.panels[0].series[1].derive, QStringLiteral("backlog / throughput"));
    EXPECT_EQ(dashboard.panels[1].series[0].id, QStringLiteral("backlog"));
    EXPECT_EQ(dashboard.panels[0].series[0].id, QStringLiteral("throughput"));

    QMenu *columns =
        window.main.menuBar()->findChild<QMenu *>(QStringLiteral("columnsMenu"), Qt::FindChildrenRecursively);
    ASSERT_NE(columns, nullptr);
    actionIn(columns, {QStringLiteral("3")})->trigger();
    EXPECT_EQ(window.dashboard().columns, 3);
    EXPECT_TRUE(actionIn(columns, {QStringLiteral("3")})->isChecked());
    window.undo.undo();
    EXPECT_EQ(window.dashboard().columns, 2);
    EXPECT_TRUE(actionIn(columns, {QStringLiteral("2")})->isChecked());
}
