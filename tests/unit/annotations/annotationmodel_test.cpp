// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotationfilter.h"
#include "annotations/annotationmodel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <gtest/gtest.h>

namespace {
Annotation point(qint64 t, const QString &text)
{
    Annotation a;
    a.timeMs = t;
    a.text = text;
    return a;
}

qint64 local(int y, int mo, int d, int h, int mi, int s)
{
    return QDateTime(QDate(y, mo, d), QTime(h, mi, s)).toMSecsSinceEpoch();
}

QModelIndex cell(const AnnotationModel &model, quint64 id, int column)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data(AnnotationModel::AnnotationIdRole).value<quint64>() == id)
            return model.index(row, column);
    }
    return {};
}
} // namespace

TEST(AnnotationModel, KeepsTimeOrderThroughAddsEditsAndRemovals)
{
    AnnotationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const quint64 b = model.add(point(2000, QStringLiteral("b")));
    const quint64 a = model.add(point(1000, QStringLiteral("a")));
    model.add(point(3000, QStringLiteral("c")));
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.index(0, AnnotationModel::TextColumn).data().toString(), QStringLiteral("a"));
    EXPECT_FALSE(model.find(a)->author.isNull());
    EXPECT_GT(model.find(a)->createdAtMs, 0);

    Annotation moved = *model.find(b);
    moved.timeMs = 500;
    moved.text = QStringLiteral("b moved");
    ASSERT_TRUE(model.update(moved));
    EXPECT_EQ(model.index(0, AnnotationModel::TextColumn).data().toString(), QStringLiteral("b moved"));

    EXPECT_TRUE(model.remove(a));
    EXPECT_FALSE(model.remove(a));
    EXPECT_EQ(model.rowCount(), 2);
}

TEST(AnnotationModel, RegionsAreNormalisedAndFoundByOverlap)
{
    AnnotationModel model;
    Annotation region = point(5000, QStringLiteral("exporter slowed down"));
    region.endMs = 2000; // dragged right to left
    const quint64 id = model.add(region);
    EXPECT_EQ(model.find(id)->timeMs, 2000);
    EXPECT_EQ(model.find(id)->endMs, 5000);
    model.add(point(9000, QStringLiteral("later")));
    EXPECT_EQ(model.inRange({4000, 6000}).size(), 1u);
    EXPECT_EQ(model.inRange({8000, 10000}).size(), 1u);
    EXPECT_EQ(model.inRange({6000, 8000}).size(), 0u);
}

TEST(AnnotationModel, ChangesAreAnnounced)
{
    AnnotationModel model;
    QSignalSpy changed(&model, &AnnotationModel::annotationsChanged);
    const quint64 id = model.add(point(1, QStringLiteral("x")));
    Annotation a = *model.find(id);
    a.tags = QStringList{QStringLiteral("chaos")};
    model.update(a);
    model.remove(id);
    EXPECT_EQ(changed.size(), 3);
}

TEST(AnnotationModel, StaysConsistentThroughAddUpdateMoveRemoveAndRestore)
{
    AnnotationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const quint64 a = model.add(point(1000, QStringLiteral("a")));
    const quint64 b = model.add(point(2000, QStringLiteral("b")));
    Annotation region = point(3000, QStringLiteral("region"));
    region.endMs = 4000;
    const quint64 c = model.add(region);

    Annotation edited = *model.find(b);
    edited.text = QStringLiteral("b edited");
    ASSERT_TRUE(model.update(edited));
    Annotation moved = *model.find(a);
    moved.timeMs = 5000; // now the last row
    ASSERT_TRUE(model.update(moved));
    EXPECT_EQ(model.index(2, AnnotationModel::TextColumn).data().toString(), QStringLiteral("a"));

    const Annotation removed = *model.find(c);
    ASSERT_TRUE(model.remove(c));
    ASSERT_TRUE(model.restore(removed));
    EXPECT_EQ(model.find(c), removed); // same id, author, creation time
    EXPECT_FALSE(model.restore(removed)) << "that id is in use";
    EXPECT_GT(model.add(point(0, QStringLiteral("new"))), c) << "ids are not reused";
    EXPECT_EQ(model.rowCount(), 4);
}

TEST(AnnotationModel, EditsAnnouncedOneByOneWithTheWholeAnnotation)
{
    AnnotationModel model;
    QSignalSpy added(&model, &AnnotationModel::annotationAdded);
    QSignalSpy updated(&model, &AnnotationModel::annotationUpdated);
    QSignalSpy removed(&model, &AnnotationModel::annotationRemoved);
    const quint64 id = model.add(point(1, QStringLiteral("x")));
    Annotation a = *model.find(id);
    a.text = QStringLiteral("y");
    model.update(a);
    model.remove(id);
    ASSERT_EQ(added.size(), 1);
    ASSERT_EQ(updated.size(), 1);
    ASSERT_EQ(removed.size(), 1);
    EXPECT_EQ(updated.at(0).at(0).value<Annotation>().text, QStringLiteral("x"));
    EXPECT_EQ(updated.at(0).at(1).value<Annotation>().text, QStringLiteral("y"));
    EXPECT_EQ(removed.at(0).at(0).value<Annotation>().id, id);
}

TEST(AnnotationModel, TextTagsTimeAndEndAreEditableSourceIsNot)
{
    AnnotationModel model;
    model.add(point(1000, QStringLiteral("x")));
    for (int column : {AnnotationModel::TimeColumn, AnnotationModel::EndColumn, AnnotationModel::TextColumn,
                       AnnotationModel::TagsColumn})
        EXPECT_TRUE(model.flags(model.index(0, column)) & Qt::ItemIsEditable) << column;
    EXPECT_FALSE(model.flags(model.index(0, AnnotationModel::SourceColumn)) & Qt::ItemIsEditable);
}

TEST(AnnotationModel, SetDataEditsTextAndCommaSeparatedTags)
{
    AnnotationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const quint64 id = model.add(point(local(2024, 5, 1, 9, 0, 0), QStringLiteral("x")));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TextColumn), QStringLiteral("  raised rate to 500 ")));
    EXPECT_EQ(model.find(id)->text, QStringLiteral("raised rate to 500"));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TagsColumn), QStringLiteral("rate, #chaos,, rate ")));
    EXPECT_EQ(model.find(id)->tags, (QStringList{QStringLiteral("rate"), QStringLiteral("chaos")}));
    EXPECT_EQ(cell(model, id, AnnotationModel::TagsColumn).data().toString(), QStringLiteral("rate, chaos"));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TagsColumn), QString()));
    EXPECT_TRUE(model.find(id)->tags.isEmpty());

    QSignalSpy rejected(&model, &AnnotationModel::editRejected);
    EXPECT_FALSE(model.setData(cell(model, id, AnnotationModel::TextColumn), QStringLiteral("   ")));
    EXPECT_EQ(model.find(id)->text, QStringLiteral("raised rate to 500"));
    ASSERT_EQ(rejected.size(), 1);
    EXPECT_TRUE(rejected.at(0).at(0).toString().startsWith(QStringLiteral("Text:")));
}

TEST(AnnotationModel, SetDataReadsAClockTimeOnTheAnnotationsOwnDay)
{
    AnnotationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const quint64 id = model.add(point(local(2024, 5, 1, 9, 0, 0), QStringLiteral("x")));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("09:43:10")));
    EXPECT_EQ(model.find(id)->timeMs, local(2024, 5, 1, 9, 43, 10));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("7:05")));
    EXPECT_EQ(model.find(id)->timeMs, local(2024, 5, 1, 7, 5, 0));
    // A day that is not today is edited with its date, and reads back the same.
    const QString shown = cell(model, id, AnnotationModel::TimeColumn).data(Qt::EditRole).toString();
    EXPECT_EQ(shown, QStringLiteral("2024-05-01 07:05:00"));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("2024-05-02 10:00:00")));
    EXPECT_EQ(model.find(id)->timeMs, local(2024, 5, 2, 10, 0, 0));
}

TEST(AnnotationModel, SetDataReadsIso8601WithAndWithoutAZone)
{
    AnnotationModel model;
    const quint64 id = model.add(point(local(2024, 5, 1, 9, 0, 0), QStringLiteral("x")));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("2024-05-01T07:43:00Z")));
    EXPECT_EQ(model.find(id)->timeMs, QDateTime(QDate(2024, 5, 1), QTime(7, 43), Qt::UTC).toMSecsSinceEpoch());
    ASSERT_TRUE(
        model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("2024-05-01T09:43:00+02:00")));
    EXPECT_EQ(model.find(id)->timeMs, QDateTime(QDate(2024, 5, 1), QTime(7, 43), Qt::UTC).toMSecsSinceEpoch());
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("2024-05-01T08:00:00.250")));
    EXPECT_EQ(model.find(id)->timeMs, local(2024, 5, 1, 8, 0, 0) + 250);
}

TEST(AnnotationModel, ABadTimeIsRefusedWithAClearMessageAndChangesNothing)
{
    AnnotationModel model;
    const qint64 t = local(2024, 5, 1, 9, 0, 0) + 123;
    const quint64 id = model.add(point(t, QStringLiteral("x")));
    QSignalSpy rejected(&model, &AnnotationModel::editRejected);
    QSignalSpy changed(&model, &AnnotationModel::annotationsChanged);
    for (const QString &bad :
         {QStringLiteral("25:99"), QStringLiteral("soon"), QStringLiteral("2024-13-01T00:00:00")}) {
        EXPECT_FALSE(model.setData(cell(model, id, AnnotationModel::TimeColumn), bad)) << bad.toStdString();
        EXPECT_EQ(model.find(id)->timeMs, t);
    }
    ASSERT_EQ(rejected.size(), 3);
    const QString message = rejected.at(0).at(0).toString();
    EXPECT_TRUE(message.startsWith(QStringLiteral("Time:"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("25:99"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("hh:mm:ss"))) << message.toStdString();
    EXPECT_EQ(changed.size(), 0);

    // Committing the shown text unchanged keeps the milliseconds the display leaves out.
    const QString shown = cell(model, id, AnnotationModel::TimeColumn).data(Qt::EditRole).toString();
    EXPECT_TRUE(model.setData(cell(model, id, AnnotationModel::TimeColumn), shown));
    EXPECT_EQ(model.find(id)->timeMs, t);
    EXPECT_EQ(changed.size(), 0);
}

TEST(AnnotationModel, EndMakesARegionAndEmptyEndMakesAPointAgain)
{
    AnnotationModel model;
    const quint64 id = model.add(point(local(2024, 5, 1, 9, 0, 0), QStringLiteral("exporter slowed down")));
    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::EndColumn), QStringLiteral("09:12:30")));
    EXPECT_EQ(model.find(id)->endMs, local(2024, 5, 1, 9, 12, 30));

    QSignalSpy rejected(&model, &AnnotationModel::editRejected);
    EXPECT_FALSE(model.setData(cell(model, id, AnnotationModel::EndColumn), QStringLiteral("08:00:00")));
    EXPECT_FALSE(model.setData(cell(model, id, AnnotationModel::TimeColumn), QStringLiteral("09:30:00")));
    EXPECT_EQ(model.find(id)->timeMs, local(2024, 5, 1, 9, 0, 0));
    EXPECT_EQ(model.find(id)->endMs, local(2024, 5, 1, 9, 12, 30));
    ASSERT_EQ(rejected.size(), 2);
    EXPECT_TRUE(rejected.at(0).at(0).toString().startsWith(QStringLiteral("End:")));

    ASSERT_TRUE(model.setData(cell(model, id, AnnotationModel::EndColumn), QStringLiteral(" ")));
    EXPECT_FALSE(model.find(id)->isRegion());
}

TEST(AnnotationModel, TimesShowTheDateOnlyWhenNotToday)
{
    const qint64 t = local(2024, 5, 1, 9, 43, 7);
    EXPECT_EQ(AnnotationModel::displayTime(t, QDate(2024, 5, 1)), QStringLiteral("09:43:07"));
    EXPECT_EQ(AnnotationModel::displayTime(t, QDate(2024, 5, 2)), QStringLiteral("May 1 09:43:07"));
    EXPECT_EQ(AnnotationModel::displayTime(t, QDate(2025, 1, 1)), QStringLiteral("2024-05-01 09:43:07"));
}

TEST(Annotation, ViewRangeFramesARegionAndCentresAPoint)
{
    Annotation p = point(1'000'000, QStringLiteral("p"));
    EXPECT_EQ(p.viewRange(), (TimeRange{1'000'000 - 150'000, 1'000'000 + 150'000}));
    Annotation region = p;
    region.endMs = 1'000'000 + 3'600'000;
    EXPECT_EQ(region.viewRange(), (TimeRange{1'000'000 - 360'000, 1'000'000 + 3'600'000 + 360'000}));
    Annotation shortRegion = p;
    shortRegion.endMs = 1'000'000 + 10'000; // shown like a point, centred on the region
    EXPECT_EQ(shortRegion.viewRange(), (TimeRange{1'005'000 - 150'000, 1'005'000 + 150'000}));
}

TEST(AnnotationFilter, MatchesWordsInTextOrTagsHashTagsExactlyAndOneSource)
{
    AnnotationModel model;
    AnnotationFilter filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Annotation rate = point(1, QStringLiteral("Rate 300 → 500 /s"));
    rate.source = Annotation::Source::Action;
    rate.tags = QStringList{QStringLiteral("steering")};
    model.add(rate);
    Annotation exporter = point(2, QStringLiteral("exporter backlog growing"));
    exporter.source = Annotation::Source::Detector;
    exporter.tags = QStringList{QStringLiteral("exporter"), QStringLiteral("backlog")};
    model.add(exporter);
    Annotation manual = point(3, QStringLiteral("scaled the worker to 0"));
    manual.tags = QStringList{QStringLiteral("exporters-team")};
    model.add(manual);

    const auto texts = [&] {
        QStringList out;
        for (int row = 0; row < filter.rowCount(); ++row)
            out << filter.index(row, AnnotationModel::TextColumn).data().toString();
        return out;
    };
    EXPECT_EQ(filter.rowCount(), 3);
    filter.setSearch(QStringLiteral("rate"));
    EXPECT_EQ(texts(), QStringList{QStringLiteral("Rate 300 → 500 /s")});
    filter.setSearch(QStringLiteral("export"));
    EXPECT_EQ(filter.rowCount(), 2) << "a word also matches inside tags";
    filter.setSearch(QStringLiteral("#exporter"));
    EXPECT_EQ(texts(), QStringList{QStringLiteral("exporter backlog growing")});
    filter.setSearch(QStringLiteral("export growing"));
    EXPECT_EQ(filter.rowCount(), 1) << "every word must match";
    filter.setSearch(QString());
    filter.setSource(Annotation::Source::Manual);
    EXPECT_EQ(texts(), QStringList{QStringLiteral("scaled the worker to 0")});
    model.add(point(4, QStringLiteral("another note")));
    EXPECT_EQ(filter.rowCount(), 2) << "new annotations are filtered as they arrive";
    filter.setSource(std::nullopt);
    EXPECT_EQ(filter.rowCount(), 4);
}

TEST(AnnotationModel, ANewTimeMovesTheRowAndKeepsItsPersistentIndex)
{
    AnnotationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    std::vector<quint64> ids;
    for (qint64 t : {1000, 2000, 2000, 3000, 4000})
        ids.push_back(model.add(point(t, QString::number(t))));
    QSignalSpy moved(&model, &QAbstractItemModel::rowsMoved);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    const auto moveTo = [&](quint64 id, qint64 t) {
        const QPersistentModelIndex persistent = cell(model, id, AnnotationModel::TextColumn);
        Annotation a = *model.find(id);
        a.timeMs = t;
        ASSERT_TRUE(model.update(a));
        EXPECT_EQ(persistent.data(AnnotationModel::AnnotationIdRole).value<quint64>(), id);
        for (int row = 1; row < model.rowCount(); ++row)
            EXPECT_LE(model.annotations()[std::size_t(row - 1)].timeMs, model.annotations()[std::size_t(row)].timeMs);
    };
    moveTo(ids[0], 3500); // later, between two
    moveTo(ids[4], 0);    // from the end to the start
    moveTo(ids[3], 9000); // to the end
    moveTo(ids[1], 2000); // same time: stays
    moveTo(ids[2], 2500); // still in order: stays
    EXPECT_EQ(moved.size(), 3);
    EXPECT_EQ(removed.size(), 0);
}
