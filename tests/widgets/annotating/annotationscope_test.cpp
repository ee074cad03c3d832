// SPDX-License-Identifier: GPL-3.0-or-later
// Annotation queries and panel scopes in the real main window: each query has a switch in the
// toolbar that takes its marks off every chart (and brings them back); a query limited to a
// panel marks that panel only, a panel's annotationTags claim the notes so tagged; a query's
// mark cannot be moved or edited, and the dock's "Copy into a note" makes an editable note
// of it.
#include "annotating/annotationdock.h"
#include "annotating/annotationeditor.h"
#include "chart/timelinechart.h"
#include "dashboard/loader/dashboardloader.h"
#include "offlineapp.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"

#include <QAction>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace {

const char *kDashboard = R"json({
    "title": "Scopes",
    "annotations": [
        {"name": "restarts", "query": "increase(kube_pod_container_status_restarts_total[2m]) > 0"},
        {"name": "lag", "query": "kafka_consumergroup_lag > 1000", "panels": ["Kafka"], "hidden": true}],
    "panels": [
        {"title": "Throughput", "series": [{"query": "rate(a_total[1m])"}]},
        {"title": "Kafka", "annotationTags": ["kafka"], "series": [{"query": "kafka_consumergroup_lag"}]}]
})json";

class AnnotationScopes : public ::testing::Test, protected OfflineApp
{
protected:
    void SetUp() override
    {
        window.setClock([] { return kNowMs; });
        const auto loaded = DashboardLoader::fromJson(kDashboard);
        ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.value(0).toString().toStdString();
        poller->setDashboard(loaded.dashboard);
        makeWindow();
        mainWindow->showDashboard({});
        mainWindow->resize(1800, 900);
        mainWindow->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(mainWindow.get()));
        restartId = add(Annotation::Source::Query, QStringLiteral("restarts"), QStringLiteral("worker-1 restarted"),
                        {QStringLiteral("restarts")}, kNowMs - 120'000);
        lagId = add(Annotation::Source::Query, QStringLiteral("lag"), QStringLiteral("orders lag"),
                    {QStringLiteral("lag")}, kNowMs - 90'000);
        kafkaNoteId = add(Annotation::Source::Manual, {}, QStringLiteral("broker 2 down #kafka"),
                          {QStringLiteral("kafka")}, kNowMs - 60'000);
        noteId = add(Annotation::Source::Manual, {}, QStringLiteral("rate 300 → 500"), {}, kNowMs - 30'000);
    }

    quint64 add(Annotation::Source source, const QString &author, const QString &text, const QStringList &tags,
                qint64 timeMs)
    {
        Annotation a;
        a.source = source;
        a.author = author;
        a.text = text;
        a.tags = tags;
        a.timeMs = timeMs;
        return annotations.add(a);
    }

    // The ids a panel's chart drew the last time it was painted (painted now).
    std::set<quint64> drawnOn(int panel) const
    {
        TimelineChart *chart = mainWindow->dashboardView()->panels()[std::size_t(panel)]->chart();
        chart->grab();
        std::set<quint64> ids;
        for (const auto &d : chart->drawnAnnotations())
            ids.insert(d.id);
        return ids;
    }

    QToolButton *switchOf(const QString &query) const
    {
        return mainWindow->findChild<QToolButton *>(QStringLiteral("annotationQuery:") + query);
    }

    static constexpr qint64 kNowMs = 1'714'556'580'000;
    quint64 restartId = 0;
    quint64 lagId = 0;
    quint64 kafkaNoteId = 0;
    quint64 noteId = 0;
};

} // namespace

TEST_F(AnnotationScopes, EachPanelDrawsWhatItsScopeSaysAndTheToolbarSwitchesAQueryOffAndOn)
{
    // "lag" starts switched off ("hidden": true); "restarts" everywhere; the #kafka note only
    // on the panel claiming the tag; the plain note everywhere.
    EXPECT_EQ(drawnOn(0), (std::set<quint64>{restartId, noteId}));
    EXPECT_EQ(drawnOn(1), (std::set<quint64>{restartId, kafkaNoteId, noteId}));
    ASSERT_NE(switchOf(QStringLiteral("restarts")), nullptr);
    ASSERT_NE(switchOf(QStringLiteral("lag")), nullptr);
    EXPECT_TRUE(switchOf(QStringLiteral("restarts"))->isChecked());
    EXPECT_FALSE(switchOf(QStringLiteral("lag"))->isChecked());

    QTest::mouseClick(switchOf(QStringLiteral("lag")), Qt::LeftButton);
    EXPECT_EQ(drawnOn(0), (std::set<quint64>{restartId, noteId})) << "lag is limited to the Kafka panel";
    EXPECT_EQ(drawnOn(1), (std::set<quint64>{restartId, lagId, kafkaNoteId, noteId}));

    QTest::mouseClick(switchOf(QStringLiteral("restarts")), Qt::LeftButton);
    EXPECT_EQ(drawnOn(0), (std::set<quint64>{noteId}));
    EXPECT_EQ(drawnOn(1), (std::set<quint64>{lagId, kafkaNoteId, noteId}));
    EXPECT_EQ(annotations.rowCount(), 4) << "switched off is hidden, not deleted";
    EXPECT_TRUE(mainWindow->dashboardView()->annotationScope().shows(*annotations.find(lagId), 1));

    QTest::mouseClick(switchOf(QStringLiteral("restarts")), Qt::LeftButton);
    EXPECT_TRUE(drawnOn(0).contains(restartId));
}

TEST_F(AnnotationScopes, AQueryMarkIsReadOnlyAndIsCopiedIntoANoteOfTheUsers)
{
    auto *dock = mainWindow->findChild<AnnotationDock *>();
    ASSERT_NE(dock, nullptr);
    AnnotationEditor *editor = dock->editor();
    Annotation moved = *annotations.find(restartId);
    moved.text = QStringLiteral("edited");
    EXPECT_FALSE(editor->update(moved));
    EXPECT_FALSE(editor->move(restartId, kNowMs - 10'000, std::nullopt));
    EXPECT_EQ(annotations.find(restartId)->text, QStringLiteral("worker-1 restarted"));
    EXPECT_EQ(annotations.find(restartId)->timeMs, kNowMs - 120'000);

    auto *table = dock->findChild<QTableView *>();
    ASSERT_NE(table, nullptr);
    auto *copy = dock->findChild<QAction *>(QStringLiteral("annotationCopyAsNote"));
    ASSERT_NE(copy, nullptr);
    int row = -1;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        const QModelIndex index = table->model()->index(r, AnnotationModel::TextColumn);
        if (index.data(AnnotationModel::AnnotationIdRole).value<quint64>() == restartId)
            row = r;
    }
    ASSERT_GE(row, 0);
    EXPECT_FALSE(table->model()->flags(table->model()->index(row, AnnotationModel::TextColumn)) & Qt::ItemIsEditable);
    table->selectRow(row);
    EXPECT_TRUE(copy->isVisible()) << "offered for a query's mark";
    copy->trigger();
    ASSERT_EQ(annotations.rowCount(), 5);
    std::optional<Annotation> note;
    for (const Annotation &a : annotations.annotations()) {
        if (a.source == Annotation::Source::Manual && a.text == QStringLiteral("worker-1 restarted"))
            note = a;
    }
    ASSERT_TRUE(note.has_value()) << "a note with the mark's words";
    EXPECT_EQ(note->timeMs, kNowMs - 120'000);
    EXPECT_EQ(note->tags, QStringList{QStringLiteral("restarts")});
    Annotation edited = *note;
    edited.text = QStringLiteral("worker-1 restarted: OOM at 512 Mi");
    EXPECT_TRUE(editor->update(edited)) << "the copy is the user's to edit";
    editor->undoStack()->undo();
    editor->undoStack()->undo();
    EXPECT_EQ(annotations.rowCount(), 4) << "the copy is undone like any edit";

    table->selectRow(row);
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, 0).data(AnnotationModel::AnnotationIdRole).value<quint64>() == noteId)
            table->selectRow(r);
    }
    EXPECT_FALSE(copy->isVisible()) << "a note of one's own needs no copy";
}
