// SPDX-License-Identifier: GPL-3.0-or-later
// The annotation dock in the real main window, driven by mouse and keys: add at now (point or
// region), edit text and time in place, delete with Del, undo and redo with Ctrl+Z and
// Ctrl+Shift+Z (the same id comes back), filter, and double-click to show it on the timeline.
// Also the editor's undo stack on its own.
#include "annotating/annotationdock.h"
#include "annotating/annotationeditor.h"
#include "annotations/annotationfilter.h"
#include "offlineapp.h"
#include "window/annotationfiles.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>
#include <memory>

namespace {

Annotation note(qint64 timeMs, const QString &text, QStringList tags = {},
                Annotation::Source source = Annotation::Source::Manual)
{
    Annotation a;
    a.timeMs = timeMs;
    a.text = text;
    a.tags = std::move(tags);
    a.source = source;
    return a;
}

class AnnotationDockInMainWindow : public ::testing::Test, protected OfflineApp
{
protected:
    void SetUp() override
    {
        window.setClock([this] { return clockMs; });
        makeWindow();
        mainWindow->resize(1300, 800);
        mainWindow->show();
        mainWindow->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(mainWindow.get()));
        dock = mainWindow->annotationDock();
        editor = mainWindow->annotationEditor();
        ASSERT_TRUE(dock->isVisible());
        table = dock->table();
    }

    QWidget *focused() const { return QApplication::focusWidget() ? QApplication::focusWidget() : mainWindow.get(); }

    // Where the cell of this annotation is on screen (the table shows the filtered rows).
    QPoint cellCenter(quint64 id, int column) const
    {
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, column);
            if (index.data(AnnotationModel::AnnotationIdRole).value<quint64>() == id)
                return table->visualRect(index).center();
        }
        ADD_FAILURE() << "annotation " << id << " is not listed";
        return {};
    }

    void clickCell(quint64 id, int column)
    {
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCenter(id, column));
    }

    // What the window system delivers for a double-click: press, release, press, double-click,
    // release (QTest's mouseDClick alone sends only the double-click event).
    void doubleClickCell(quint64 id, int column)
    {
        const QPoint at = cellCenter(id, column);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mousePress(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseRelease(table->viewport(), Qt::LeftButton, {}, at);
    }

    // F2 on the current cell, replace its text, Enter.
    void typeIntoCell(quint64 id, int column, const QString &text)
    {
        clickCell(id, column);
        QTest::keyClick(focused(), Qt::Key_F2);
        ASSERT_TRUE(
            QTest::qWaitFor([&] { return qobject_cast<QLineEdit *>(QApplication::focusWidget()) != nullptr; }, 2000));
        QTest::keyClick(focused(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(focused(), text);
        QTest::keyClick(focused(), Qt::Key_Return);
        // The delegate commits and closes the editor from the event loop.
        ASSERT_TRUE(QTest::qWaitFor([&] { return QApplication::focusWidget() == table; }, 2000));
    }

    qint64 clockMs = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000;
    AnnotationDock *dock = nullptr;
    AnnotationEditor *editor = nullptr;
    QTableView *table = nullptr;
};

} // namespace

TEST_F(AnnotationDockInMainWindow, AddAtNowFromTheDockAsAPointWithTags)
{
    auto *add = dock->findChild<QPushButton *>(QStringLiteral("annotationAddButton"));
    ASSERT_NE(add, nullptr);
    QTest::mouseClick(add, Qt::LeftButton);
    auto *text = dock->findChild<QLineEdit *>(QStringLiteral("annotationAddText"));
    auto *tags = dock->findChild<QLineEdit *>(QStringLiteral("annotationAddTags"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return text->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("raised the rate to 500"));
    QTest::mouseClick(tags, Qt::LeftButton);
    QTest::keyClicks(focused(), QStringLiteral("steering, rate"));
    QTest::keyClick(focused(), Qt::Key_Return);

    ASSERT_EQ(annotations.rowCount(), 1);
    const Annotation added = annotations.annotations().front();
    EXPECT_EQ(added.text, QStringLiteral("raised the rate to 500"));
    EXPECT_EQ(added.tags, (QStringList{QStringLiteral("steering"), QStringLiteral("rate")}));
    EXPECT_EQ(added.timeMs, clockMs);
    EXPECT_FALSE(added.isRegion());
    EXPECT_EQ(added.source, Annotation::Source::Manual);
    EXPECT_FALSE(text->isVisible()) << "the form closes after saving";
    EXPECT_EQ(table->model()->rowCount(), 1);
    EXPECT_TRUE(table->selectionModel()->isRowSelected(0, {})) << "the new row is selected";
}

TEST_F(AnnotationDockInMainWindow, AddARegionAndRefuseEmptyText)
{
    QTest::mouseClick(dock->findChild<QPushButton *>(QStringLiteral("annotationAddButton")), Qt::LeftButton);
    auto *region = dock->findChild<QCheckBox *>(QStringLiteral("annotationAddIsRegion"));
    auto *save = dock->findChild<QPushButton *>(QStringLiteral("annotationAddSave"));
    QTest::mouseClick(region, Qt::LeftButton);
    ASSERT_TRUE(region->isChecked());
    QTest::mouseClick(save, Qt::LeftButton);
    EXPECT_EQ(annotations.rowCount(), 0);
    EXPECT_TRUE(dock->errorText().startsWith(QStringLiteral("Text:"))) << dock->errorText().toStdString();

    QTest::mouseClick(dock->findChild<QLineEdit *>(QStringLiteral("annotationAddText")), Qt::LeftButton);
    QTest::keyClicks(focused(), QStringLiteral("exporter slowed down"));
    QTest::mouseClick(save, Qt::LeftButton);
    ASSERT_EQ(annotations.rowCount(), 1);
    const Annotation added = annotations.annotations().front();
    EXPECT_EQ(added.timeMs, clockMs);
    EXPECT_EQ(added.endMs, clockMs + 60'000) << "a region defaults to one minute";
    EXPECT_TRUE(dock->errorText().isEmpty());
}

TEST_F(AnnotationDockInMainWindow, EscapeClosesTheAddFormWithoutAdding)
{
    QTest::mouseClick(dock->findChild<QPushButton *>(QStringLiteral("annotationAddButton")), Qt::LeftButton);
    auto *text = dock->findChild<QLineEdit *>(QStringLiteral("annotationAddText"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return text->hasFocus(); }, 2000));
    QTest::keyClicks(focused(), QStringLiteral("not this one"));
    QTest::keyClick(focused(), Qt::Key_Escape);
    EXPECT_FALSE(text->isVisible());
    EXPECT_EQ(annotations.rowCount(), 0);
}

TEST_F(AnnotationDockInMainWindow, EditTextInPlaceThenUndoAndRedoIt)
{
    const quint64 id = editor->add(note(clockMs - 60'000, QStringLiteral("rate 300")));
    // (QTest types ASCII only; the round trip of other characters is the model's test.)
    typeIntoCell(id, AnnotationModel::TextColumn, QStringLiteral("rate 300 -> 500 /s"));
    EXPECT_EQ(annotations.find(id)->text, QStringLiteral("rate 300 -> 500 /s"));
    EXPECT_EQ(annotations.rowCount(), 1);

    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(annotations.find(id)->text, QStringLiteral("rate 300"));
    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(annotations.find(id)->text, QStringLiteral("rate 300 -> 500 /s"));
}

TEST_F(AnnotationDockInMainWindow, EditTagsTimeAndEndInPlace)
{
    const qint64 start = QDateTime(QDate::currentDate(), QTime(9, 0, 0)).toMSecsSinceEpoch();
    const quint64 id = editor->add(note(start, QStringLiteral("exporter slowed down")));
    typeIntoCell(id, AnnotationModel::TagsColumn, QStringLiteral("exporter, #backlog"));
    EXPECT_EQ(annotations.find(id)->tags, (QStringList{QStringLiteral("exporter"), QStringLiteral("backlog")}));
    typeIntoCell(id, AnnotationModel::EndColumn, QStringLiteral("09:12:30"));
    EXPECT_EQ(annotations.find(id)->endMs, start + 12 * 60'000 + 30'000);
    const quint64 earlier = editor->add(note(start - 60'000, QStringLiteral("earlier")));
    typeIntoCell(id, AnnotationModel::TimeColumn, QStringLiteral("08:55"));
    EXPECT_EQ(annotations.find(id)->timeMs, start - 5 * 60'000);
    // It moved above "earlier" and is still the selected row.
    EXPECT_EQ(table->model()->index(0, AnnotationModel::TextColumn).data().toString(),
              QStringLiteral("exporter slowed down"));
    EXPECT_TRUE(table->selectionModel()->isRowSelected(0, {}));
    EXPECT_FALSE(table->selectionModel()->isRowSelected(1, {}));
    EXPECT_TRUE(annotations.find(earlier).has_value());
    EXPECT_TRUE(dock->errorText().isEmpty()) << dock->errorText().toStdString();
}

TEST_F(AnnotationDockInMainWindow, ABadTimeSaysWhyAndChangesNothing)
{
    const quint64 id = editor->add(note(clockMs, QStringLiteral("x")));
    const Annotation before = *annotations.find(id);
    const int undoSteps = editor->undoStack()->count();
    typeIntoCell(id, AnnotationModel::TimeColumn, QStringLiteral("25:99"));
    EXPECT_EQ(*annotations.find(id), before);
    EXPECT_EQ(editor->undoStack()->count(), undoSteps);
    EXPECT_TRUE(dock->errorText().contains(QStringLiteral("25:99"))) << dock->errorText().toStdString();
    EXPECT_TRUE(dock->findChild<QWidget *>(QStringLiteral("annotationError"))->isVisible());

    typeIntoCell(id, AnnotationModel::TextColumn, QStringLiteral("fine again"));
    EXPECT_TRUE(dock->errorText().isEmpty()) << "the message goes with the next good edit";
}

TEST_F(AnnotationDockInMainWindow, DelDeletesCtrlZRestoresTheSameIdCtrlShiftZDeletesAgain)
{
    const quint64 keep = editor->add(note(clockMs - 120'000, QStringLiteral("keep me")));
    const quint64 id = editor->add(note(clockMs - 60'000, QStringLiteral("delete me"), {QStringLiteral("oops")}));
    const Annotation before = *annotations.find(id);

    clickCell(id, AnnotationModel::TextColumn);
    QTest::keyClick(focused(), Qt::Key_Delete);
    EXPECT_FALSE(annotations.find(id).has_value());
    EXPECT_TRUE(annotations.find(keep).has_value());
    EXPECT_EQ(table->model()->rowCount(), 1);

    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier);
    ASSERT_TRUE(annotations.find(id).has_value()) << "undo brings it back under its id";
    EXPECT_EQ(*annotations.find(id), before);
    EXPECT_EQ(table->model()->rowCount(), 2);

    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_FALSE(annotations.find(id).has_value());
    EXPECT_EQ(annotations.rowCount(), 1);
}

TEST_F(AnnotationDockInMainWindow, TheDeleteButtonDeletesEverySelectedRowAsOneUndoStep)
{
    const quint64 a = editor->add(note(clockMs - 3000, QStringLiteral("a")));
    const quint64 b = editor->add(note(clockMs - 2000, QStringLiteral("b")));
    editor->add(note(clockMs - 1000, QStringLiteral("c")));
    auto *remove = dock->findChild<QPushButton *>(QStringLiteral("annotationDeleteButton"));
    EXPECT_FALSE(remove->isEnabled()) << "nothing selected yet";
    clickCell(a, AnnotationModel::TextColumn);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      cellCenter(b, AnnotationModel::TextColumn));
    ASSERT_TRUE(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    EXPECT_EQ(annotations.rowCount(), 1);
    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(annotations.rowCount(), 3);
}

TEST_F(AnnotationDockInMainWindow, FilterByWordsTagsAndSource)
{
    editor->add(note(clockMs - 3000, QStringLiteral("rate 300 → 500 /s"), {QStringLiteral("steering")},
                     Annotation::Source::Action));
    editor->add(note(clockMs - 2000, QStringLiteral("backlog growing"), {QStringLiteral("exporter")},
                     Annotation::Source::Detector));
    editor->add(note(clockMs - 1000, QStringLiteral("scaled the worker to 0")));
    auto *search = dock->findChild<QLineEdit *>(QStringLiteral("annotationSearch"));
    QTest::mouseClick(search, Qt::LeftButton);
    QTest::keyClicks(focused(), QStringLiteral("#exporter"));
    ASSERT_EQ(table->model()->rowCount(), 1);
    EXPECT_EQ(table->model()->index(0, AnnotationModel::TextColumn).data().toString(),
              QStringLiteral("backlog growing"));
    QTest::keyClick(focused(), Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(focused(), Qt::Key_Backspace);
    EXPECT_EQ(table->model()->rowCount(), 3);

    auto *source = dock->findChild<QComboBox *>(QStringLiteral("annotationSourcePicker"));
    source->setFocus(Qt::TabFocusReason);
    QTest::keyClick(source, Qt::Key_Down); // "manual"
    ASSERT_EQ(table->model()->rowCount(), 1);
    EXPECT_EQ(table->model()->index(0, AnnotationModel::TextColumn).data().toString(),
              QStringLiteral("scaled the worker to 0"));
}

TEST_F(AnnotationDockInMainWindow, DoubleClickShowsTheAnnotationOnTheTimeline)
{
    const qint64 t = clockMs - 3'600'000;
    const quint64 point = editor->add(note(t, QStringLiteral("an hour ago")));
    Annotation band = note(t - 7'200'000, QStringLiteral("an hour long"));
    band.endMs = t - 3'600'000;
    const quint64 region = editor->add(band);
    ASSERT_TRUE(window.isLive());

    doubleClickCell(point, AnnotationModel::SourceColumn);
    EXPECT_FALSE(window.isLive());
    EXPECT_EQ(window.range(), (TimeRange{t - 150'000, t + 150'000}));

    doubleClickCell(region, AnnotationModel::TextColumn);
    EXPECT_EQ(window.range(), (TimeRange{t - 7'200'000 - 360'000, t - 3'600'000 + 360'000}));
    EXPECT_EQ(annotations.rowCount(), 2) << "a double-click changes nothing";
    EXPECT_EQ(QApplication::focusWidget(), table) << "and opens no editor";
}

TEST_F(AnnotationDockInMainWindow, ExportThenImportMergesAndReportsBadRows)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    editor->add(note(clockMs - 2000, QStringLiteral("rate 300 → 500, \"confirmed\""), {QStringLiteral("steering")}));
    editor->add(note(clockMs - 1000, QStringLiteral("two\nlines")));
    QSignalSpy done(mainWindow->annotationFiles(), &AnnotationFiles::done);
    const QString csv = dir.filePath(QStringLiteral("notes.csv"));
    mainWindow->annotationFiles()->exportTo(csv);
    ASSERT_TRUE(done.wait(5000));
    EXPECT_TRUE(done.at(0).at(0).toBool()) << done.at(0).at(1).toString().toStdString();

    // The same file again adds nothing; a file with one new and one bad row adds the new one.
    mainWindow->annotationFiles()->importFrom(csv);
    ASSERT_TRUE(done.wait(5000));
    EXPECT_EQ(annotations.rowCount(), 2);
    EXPECT_TRUE(done.at(1).at(1).toString().contains(QStringLiteral("2 already here")))
        << done.at(1).at(1).toString().toStdString();

    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::Append));
    file.write("\"2024-05-01T09:00:00Z\",\"\",\"imported\",\"\",\"manual\",\"\",\"\",\"\",\"\"\r\n"
               "\"not a time\",\"\",\"bad\",\"\",\"manual\",\"\",\"\",\"\",\"\"\r\n");
    file.close();
    mainWindow->annotationFiles()->importFrom(csv);
    ASSERT_TRUE(done.wait(5000));
    EXPECT_EQ(annotations.rowCount(), 3);
    ASSERT_TRUE(QTest::qWaitFor([&] { return mainWindow->findChild<QMessageBox *>() != nullptr; }, 2000));
    auto *box = mainWindow->findChild<QMessageBox *>();
    EXPECT_TRUE(box->informativeText().contains(QStringLiteral("row 4: time: not a time")))
        << box->informativeText().toStdString();
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    // A window manager activates the main window again; the offscreen platform has none.
    mainWindow->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(mainWindow.get()));

    clickCell(annotations.annotations().front().id, AnnotationModel::TextColumn);
    QTest::keyClick(focused(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(annotations.rowCount(), 2) << "an import is undone as one step";
}

TEST(AnnotationEditor, EveryEditIsOneUndoStepAndUndoneDeletesComeBackWithTheirId)
{
    AnnotationModel model;
    AnnotationEditor editor(&model);
    QUndoStack *stack = editor.undoStack();
    const quint64 id = editor.add(note(1000, QStringLiteral("a")));
    ASSERT_NE(id, 0u);
    Annotation edited = *model.find(id);
    edited.text = QStringLiteral("b");
    edited.source = Annotation::Source::Detector; // not the user's to change
    ASSERT_TRUE(editor.update(edited));
    EXPECT_EQ(model.find(id)->source, Annotation::Source::Manual);
    ASSERT_TRUE(editor.remove(id));
    EXPECT_EQ(stack->count(), 3);

    stack->undo();
    ASSERT_TRUE(model.find(id).has_value());
    EXPECT_EQ(model.find(id)->text, QStringLiteral("b"));
    stack->undo();
    EXPECT_EQ(model.find(id)->text, QStringLiteral("a"));
    stack->undo();
    EXPECT_EQ(model.rowCount(), 0);
    stack->redo();
    EXPECT_TRUE(model.find(id).has_value()) << "a redone add keeps its id";
}

TEST(AnnotationEditor, RefusesEmptyTextAndUnknownIdsAndPushesNothingForNoChange)
{
    AnnotationModel model;
    AnnotationEditor editor(&model);
    EXPECT_EQ(editor.add(note(1, QStringLiteral("  "))), 0u);
    EXPECT_FALSE(editor.remove(42));
    EXPECT_FALSE(editor.move(42, 1, std::nullopt));
    const quint64 id = editor.add(note(1, QStringLiteral("x")));
    Annotation empty = *model.find(id);
    empty.text.clear();
    EXPECT_FALSE(editor.update(empty));
    EXPECT_TRUE(editor.update(*model.find(id)));
    EXPECT_EQ(editor.undoStack()->count(), 1);
}

TEST(AnnotationEditor, ADragIsOneUndoStepAndASecondDragAnother)
{
    AnnotationModel model;
    AnnotationEditor editor(&model);
    Annotation band = note(10'000, QStringLiteral("band"));
    band.endMs = 20'000;
    const quint64 id = editor.add(band);
    for (qint64 t = 11'000; t <= 15'000; t += 1000)
        ASSERT_TRUE(editor.move(id, t, std::nullopt)); // the whole band, keeping its length
    EXPECT_EQ(model.find(id)->timeMs, 15'000);
    EXPECT_EQ(model.find(id)->endMs, 25'000);
    EXPECT_EQ(editor.undoStack()->count(), 2);
    editor.finishMove();
    ASSERT_TRUE(editor.move(id, 15'000, 30'000)); // the end edge alone
    EXPECT_EQ(editor.undoStack()->count(), 3);

    editor.undoStack()->undo();
    EXPECT_EQ(model.find(id)->endMs, 25'000);
    editor.undoStack()->undo();
    EXPECT_EQ(model.find(id)->timeMs, 10'000);
    EXPECT_EQ(model.find(id)->endMs, 20'000);
}

TEST(AnnotationEditor, AMultipleDeleteAndAnImportAreOneStepEach)
{
    AnnotationModel model;
    AnnotationEditor editor(&model);
    EXPECT_EQ(editor.addAll({note(1, QStringLiteral("a")), note(2, QStringLiteral("b")), note(3, QStringLiteral(""))},
                            QStringLiteral("Import")),
              2);
    EXPECT_EQ(editor.undoStack()->count(), 1);
    std::vector<quint64> ids;
    for (const Annotation &a : model.annotations())
        ids.push_back(a.id);
    EXPECT_EQ(editor.removeAll(ids), 2);
    EXPECT_EQ(model.rowCount(), 0);
    editor.undoStack()->undo();
    EXPECT_EQ(model.rowCount(), 2);
    editor.undoStack()->undo();
    EXPECT_EQ(model.rowCount(), 0);
}
