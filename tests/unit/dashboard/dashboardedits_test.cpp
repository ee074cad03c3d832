// SPDX-License-Identifier: GPL-3.0-or-later
// Panels changed in the window keep what they have drawn: a panel moved takes its samples
// along (the store's keys renamed with it, a swap included), a panel removed or a query
// changed puts its samples aside where undo finds them, and a series new with an edit is put
// aside on undo and back on redo. A derived series built from the form names its inputs by
// ids it gives the series that had none. Every edit survives the writer and the loader.
#include "dashboard/dashboardedits.h"
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>

namespace {

DashboardDefinition threePanels()
{
    DashboardDefinition dashboard;
    dashboard.title = QStringLiteral("Edits");
    for (const char *name : {"throughput", "backlog", "pool"}) {
        PanelDefinition panel;
        panel.title = QString::fromUtf8(name);
        SeriesDefinition series;
        series.query = QStringLiteral("sum(%1)").arg(panel.title);
        panel.series.push_back(series);
        dashboard.panels.push_back(panel);
    }
    return dashboard;
}

// One sample per panel's series, its value the panel's number, as the poller would have stored it.
void fill(SampleStore &store, const DashboardDefinition &dashboard)
{
    for (int p = 0; p < int(dashboard.panels.size()); ++p)
        store.merge(SeriesKey::ofQuery(p, 0, {}, QStringLiteral("{}")), {}, std::vector<qint64>{1000},
                    std::vector<double>{double(p)});
}

double valueAt(const SampleStore &store, const QString &key)
{
    const SampleStore::Series *series = store.series(key);
    return series && !series->isEmpty() ? series->values().front() : -1;
}

QString key(int panel)
{
    return SeriesKey::ofQuery(panel, 0, {}, QStringLiteral("{}"));
}

} // namespace

TEST(DashboardEdits, SwappedPanelsTakeTheirSamplesAlongAndUndoBringsThemBack)
{
    const DashboardDefinition before = threePanels();
    SampleStore store;
    fill(store, before);
    const std::optional<DashboardEdits::Edit> swap = DashboardEdits::swapPanels(before, 0, 2, 1);
    ASSERT_TRUE(swap);
    EXPECT_EQ(swap->after.panels[0].title, QStringLiteral("pool"));
    EXPECT_EQ(swap->after.panels[2].title, QStringLiteral("throughput"));

    store.rename(swap->renames.redo);
    EXPECT_EQ(valueAt(store, key(0)), 2) << "pool's samples are where pool is now";
    EXPECT_EQ(valueAt(store, key(1)), 1);
    EXPECT_EQ(valueAt(store, key(2)), 0);
    store.rename(swap->renames.undo);
    EXPECT_EQ(valueAt(store, key(0)), 0);
    EXPECT_EQ(valueAt(store, key(2)), 2);
    EXPECT_EQ(store.keys().size(), 3);
}

TEST(DashboardEdits, AMovedPanelShiftsTheOthersAndTheirSamples)
{
    const DashboardDefinition before = threePanels();
    SampleStore store;
    fill(store, before);
    const std::optional<DashboardEdits::Edit> move = DashboardEdits::movePanel(before, 0, 2, 1);
    ASSERT_TRUE(move);
    EXPECT_EQ(move->after.panels[0].title, QStringLiteral("backlog"));
    EXPECT_EQ(move->after.panels[2].title, QStringLiteral("throughput"));
    store.rename(move->renames.redo);
    EXPECT_EQ(valueAt(store, key(0)), 1);
    EXPECT_EQ(valueAt(store, key(1)), 2);
    EXPECT_EQ(valueAt(store, key(2)), 0);
    EXPECT_FALSE(DashboardEdits::movePanel(before, 0, 3, 2)) << "no place 4";
    EXPECT_FALSE(DashboardEdits::movePanel(before, 1, 1, 2)) << "nothing to move";
}

TEST(DashboardEdits, ARemovedPanelsSamplesAreKeptAsideAndComeBackOnUndo)
{
    const DashboardDefinition before = threePanels();
    SampleStore store;
    fill(store, before);
    const std::optional<DashboardEdits::Edit> remove = DashboardEdits::removePanel(before, 0, 7);
    ASSERT_TRUE(remove);
    ASSERT_EQ(remove->after.panels.size(), 2u);
    store.rename(remove->renames.redo);
    EXPECT_EQ(valueAt(store, key(0)), 1) << "backlog moved up";
    EXPECT_EQ(valueAt(store, key(1)), 2);
    EXPECT_FALSE(store.contains(key(2)));
    EXPECT_EQ(valueAt(store, SeriesKey::parkedPrefix(7) + key(0)), 0) << "throughput's samples put aside";
    store.rename(remove->renames.undo);
    EXPECT_EQ(valueAt(store, key(0)), 0);
    EXPECT_EQ(valueAt(store, key(1)), 1);
    EXPECT_EQ(valueAt(store, key(2)), 2);
    EXPECT_EQ(store.keys().size(), 3);
}

TEST(DashboardEdits, AChangedQueryStartsAfreshAndALegendChangeKeepsTheSamples)
{
    const DashboardDefinition before = threePanels();
    SampleStore store;
    fill(store, before);
    PanelDefinition edited = before.panels[1];
    edited.series[0].legend = QStringLiteral("backlog {{partition}}");
    edited.series[0].color = QStringLiteral("#D55E00");
    const std::optional<DashboardEdits::Edit> look = DashboardEdits::replacePanel(before, 1, edited, {0}, 1);
    ASSERT_TRUE(look);
    store.rename(look->renames.redo);
    EXPECT_EQ(valueAt(store, key(1)), 1) << "same query: the samples stay";

    edited.series[0].query = QStringLiteral("sum(backlog) by (partition)");
    const std::optional<DashboardEdits::Edit> query = DashboardEdits::replacePanel(before, 1, edited, {0}, 2);
    ASSERT_TRUE(query);
    store.rename(query->renames.redo);
    EXPECT_FALSE(store.contains(key(1))) << "another question: nothing of the old answer is drawn for it";
    // What the new query brings is put aside on undo, and the old answer is back.
    store.merge(key(1), {}, std::vector<qint64>{2000}, std::vector<double>{42});
    store.rename(query->renames.undo);
    EXPECT_EQ(valueAt(store, key(1)), 1);
    store.rename(query->renames.redo);
    EXPECT_EQ(valueAt(store, key(1)), 42) << "and redo shows the new answer again";

    EXPECT_FALSE(DashboardEdits::replacePanel(before, 1, before.panels[1], {0}, 3)) << "nothing changed";
}

TEST(DashboardEdits, ADerivedSeriesGivesItsInputsIdsAndIsComputedFromThem)
{
    DashboardDefinition before = threePanels();
    before.panels[2].series[0].id = QStringLiteral("pool");
    QString error;
    const std::optional<DashboardEdits::Edit> added =
        DashboardEdits::addDerived(before, 1, QStringLiteral("backlog / pool"), QStringLiteral("per connection"),
                                   {{QStringLiteral("backlog"), 1, 0}, {QStringLiteral("pool"), 2, 0}}, 1, &error);
    ASSERT_TRUE(added) << error.toStdString();
    EXPECT_EQ(added->after.panels[1].series[0].id, QStringLiteral("backlog")) << "named after the formula's word";
    const SeriesDefinition &derived = added->after.panels[1].series[1];
    EXPECT_EQ(derived.derive, QStringLiteral("backlog / pool"));
    EXPECT_EQ(derived.deriveInputs.value(QStringLiteral("pool")), QStringLiteral("pool"));

    EXPECT_FALSE(DashboardEdits::addDerived(before, 1, QStringLiteral("backlog /"), {}, {}, 2, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("column"))) << error.toStdString();
    EXPECT_FALSE(
        DashboardEdits::addDerived(before, 1, QStringLiteral("a - b"), {}, {{QStringLiteral("a"), 0, 0}}, 2, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("\"b\""))) << error.toStdString();

    // Written and read back, the dashboard computes the same.
    const DashboardLoader::LoadResult back = DashboardLoader::fromJson(DashboardWriter::toJson(added->after));
    ASSERT_TRUE(back.usable);
    EXPECT_TRUE(back.issues.isEmpty()) << back.issues.value(0).toString().toStdString();
    EXPECT_EQ(back.dashboard.panels[1].series.size(), 2u);
    EXPECT_EQ(DashboardWriter::toJson(back.dashboard), DashboardWriter::toJson(added->after));
}

TEST(DashboardEdits, EveryBuiltinEditedRoundTripsThroughTheWriterAndLoader)
{
    for (const QString &name : DashboardLoader::builtinNames()) {
        const DashboardDefinition original = DashboardLoader::fromBuiltin(name).dashboard;
        ASSERT_GE(original.panels.size(), 2u) << name.toStdString();
        DashboardDefinition edited = DashboardEdits::swapPanels(original, 0, 1, 1)->after;
        edited = DashboardEdits::renamePanel(edited, 0, QStringLiteral("Renamed · ünïcode"))->after;
        if (const auto columns = DashboardEdits::setColumns(edited, edited.columns == 3 ? 2 : 3))
            edited = columns->after;
        PanelDefinition panel;
        panel.title = QStringLiteral("Added");
        panel.unit = QStringLiteral("ops/s");
        SeriesDefinition series;
        series.query = QStringLiteral("sum(rate(up[1m]))");
        series.legend = QStringLiteral("{{job}}");
        series.axis = AxisSide::Right;
        series.style = SeriesStyle::Area;
        series.color = QStringLiteral("#009E73");
        panel.series.push_back(series);
        edited = DashboardEdits::addPanel(edited, panel, 2).after;

        const DashboardLoader::LoadResult back = DashboardLoader::fromJson(DashboardWriter::toJson(edited));
        ASSERT_TRUE(back.usable) << name.toStdString();
        EXPECT_TRUE(back.issues.isEmpty())
            << name.toStdString() << ": " << back.issues.value(0).toString().toStdString();
        EXPECT_EQ(DashboardWriter::toJson(back.dashboard), DashboardWriter::toJson(edited)) << name.toStdString();
    }
}
