// SPDX-License-Identifier: GPL-3.0-or-later
// A detector's suggestion as the user meets it: drawn faded on the timeline and listed in
// italics in the annotation dock until accepted or dismissed, from the dock's buttons, its
// context menu or a click on the marker; both undo with the annotation editor.
#include "annotating/annotationdock.h"
#include "annotating/annotationeditor.h"
#include "annotations/annotationmodel.h"
#include "chart/timelinechart.h"
#include "store/samplestore.h"
#include "testpaths.h"
#include "theme/palette.h"
#include "timeline/timewindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QItemSelectionModel>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <memory>
#include <vector>

namespace {

constexpr qint64 kNow = 1'800'000'000'000;
constexpr qint64 kWindowMs = 10 * 60'000;

Annotation suggestion(qint64 timeMs, const QString &text)
{
    Annotation a;
    a.timeMs = timeMs;
    a.text = text;
    a.tags = {QStringLiteral("throughput-drop")};
    a.source = Annotation::Source::Detector;
    a.suggested = true;
    return a;
}

struct SuggestionsInTheDock : ::testing::Test
{
    TimeWindow window;
    AnnotationModel model;
    AnnotationEditor editor{&model};
    std::unique_ptr<AnnotationDock> dock;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        dock = std::make_unique<AnnotationDock>(&editor, &window);
        dock->resize(700, 400);
        dock->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(dock.get()));
    }

    QPushButton *button(const char *name) const { return dock->findChild<QPushButton *>(QLatin1String(name)); }
    void select(quint64 id) const
    {
        QTableView *table = dock->table();
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, AnnotationModel::TextColumn);
            if (index.data(AnnotationModel::AnnotationIdRole).value<quint64>() == id) {
                table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                                    QItemSelectionModel::Rows);
                return;
            }
        }
        ADD_FAILURE() << "annotation " << id << " is not listed";
    }
    QAction *contextAction(const QString &text) const
    {
        for (QAction *action : dock->table()->actions()) {
            if (action->text() == text)
                return action;
        }
        return nullptr;
    }
};

} // namespace

TEST_F(SuggestionsInTheDock, AcceptAndDismissAreOfferedOnlyForASuggestion)
{
    Annotation manual;
    manual.timeMs = kNow - 60'000;
    manual.text = QStringLiteral("rate 300 → 500 /s");
    const quint64 plain = model.add(manual);
    const quint64 suggested = model.add(suggestion(kNow - 120'000, QStringLiteral("completed/s fell 35 %")));
    QPushButton *accept = button("annotationAcceptButton");
    QPushButton *dismiss = button("annotationDismissButton");
    ASSERT_TRUE(accept && dismiss);

    select(plain);
    EXPECT_TRUE(accept->isHidden());
    EXPECT_TRUE(dismiss->isHidden());
    EXPECT_FALSE(contextAction(QStringLiteral("Accept suggestion"))->isVisible());

    select(suggested);
    EXPECT_FALSE(accept->isHidden());
    EXPECT_TRUE(accept->isEnabled());
    EXPECT_FALSE(dismiss->isHidden());
    EXPECT_TRUE(contextAction(QStringLiteral("Accept suggestion"))->isVisible());
    EXPECT_TRUE(contextAction(QStringLiteral("Dismiss suggestion"))->isVisible());
}

TEST_F(SuggestionsInTheDock, AcceptMakesItAnOrdinaryAnnotationAndUndoMakesItASuggestionAgain)
{
    const quint64 id = model.add(suggestion(kNow - 120'000, QStringLiteral("completed/s fell 35 %")));
    select(id);
    QTest::mouseClick(button("annotationAcceptButton"), Qt::LeftButton);

    ASSERT_TRUE(model.find(id));
    EXPECT_FALSE(model.find(id)->suggested);
    EXPECT_EQ(model.find(id)->source, Annotation::Source::Detector);
    EXPECT_EQ(model.find(id)->text, QStringLiteral("completed/s fell 35 %"));
    EXPECT_TRUE(button("annotationAcceptButton")->isHidden()) << "nothing left to decide on the selected row";

    editor.undoStack()->undo();
    ASSERT_TRUE(model.find(id));
    EXPECT_TRUE(model.find(id)->suggested);
    editor.undoStack()->redo();
    EXPECT_FALSE(model.find(id)->suggested);
}

TEST_F(SuggestionsInTheDock, DismissRemovesItAndUndoBringsItBack)
{
    const quint64 first = model.add(suggestion(kNow - 120'000, QStringLiteral("completed/s fell 35 %")));
    const quint64 second = model.add(suggestion(kNow - 60'000, QStringLiteral("completed/s fell 40 %")));
    select(first);
    contextAction(QStringLiteral("Dismiss suggestion"))->trigger();
    EXPECT_FALSE(model.find(first));
    EXPECT_TRUE(model.find(second));

    editor.undoStack()->undo();
    ASSERT_TRUE(model.find(first));
    EXPECT_TRUE(model.find(first)->suggested);

    // Several at once are one undo step.
    dock->table()->selectAll();
    QTest::mouseClick(button("annotationDismissButton"), Qt::LeftButton);
    EXPECT_EQ(model.rowCount(), 0);
    editor.undoStack()->undo();
    EXPECT_EQ(model.rowCount(), 2);
}

TEST(SuggestionsInTheDockOnly, AcceptAndDismissLeaveAnOrdinaryAnnotationAlone)
{
    AnnotationModel model;
    AnnotationEditor editor(&model);
    Annotation manual;
    manual.timeMs = kNow;
    manual.text = QStringLiteral("by hand");
    const quint64 id = model.add(manual);
    EXPECT_FALSE(editor.accept(id));
    EXPECT_FALSE(editor.dismiss(id));
    EXPECT_FALSE(editor.accept(9999));
    EXPECT_TRUE(model.find(id));
    EXPECT_EQ(editor.undoStack()->count(), 0);
}

namespace {

bool near(const QColor &a, const QColor &b, int tolerance = 60)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < tolerance;
}

int pixelsNear(const QImage &image, double x, const QRectF &plot, const QColor &color)
{
    int n = 0;
    for (int column = int(x) - 1; column <= int(x) + 1; ++column) {
        for (int y = int(plot.top()) + 60; y < int(plot.bottom()) - 2; ++y)
            n += near(image.pixelColor(column, y), color) ? 1 : 0;
    }
    return n;
}

QColor blendedOnWhite(const QColor &color, double alpha)
{
    const auto mix = [&](int c) { return int(std::lround(c * alpha + 255 * (1 - alpha))); };
    return QColor(mix(color.red()), mix(color.green()), mix(color.blue()));
}

struct SuggestionOnTheTimeline : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    AnnotationModel model;
    AnnotationEditor editor{&model};
    std::unique_ptr<TimelineChart> chart;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(kWindowMs);
        PanelDefinition panel;
        panel.title = QStringLiteral("Throughput");
        SeriesDefinition series;
        series.query = QStringLiteral("sent");
        panel.series.push_back(series);
        chart = std::make_unique<TimelineChart>(panel, &store, &window);
        chart->resize(864, 320);
        chart->setAnnotationEditor(&editor);
        chart->show();
        chart->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(chart.get()));
    }

    std::optional<TimelineChart::DrawnAnnotation> drawn(quint64 id) const
    {
        for (const auto &d : chart->drawnAnnotations()) {
            if (d.id == id)
                return d;
        }
        return std::nullopt;
    }
    QMenu *clickMarker(quint64 id)
    {
        chart->grab();
        const auto marker = drawn(id);
        if (!marker)
            return nullptr;
        const QPoint at(int(std::lround(marker->x)), int(chart->plotRect().center().y()));
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, at);
        QMenu *menu = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                // A menu closed before may still wait for its deletion: the open one counts.
                for (QMenu *candidate : chart->findChildren<QMenu *>(QStringLiteral("suggestionMenu"))) {
                    if (candidate->isVisible())
                        menu = candidate;
                }
                return menu != nullptr;
            },
            2000);
        return shown ? menu : nullptr;
    }
    static QAction *action(QMenu *menu, const QString &text)
    {
        for (QAction *a : menu->actions()) {
            if (a->text() == text)
                return a;
        }
        return nullptr;
    }
};

} // namespace

TEST_F(SuggestionOnTheTimeline, ASuggestionIsDrawnFadedAndInFullColourOnceAccepted)
{
    const quint64 id = model.add(suggestion(kNow - 5 * 60'000, QStringLiteral("completed/s fell 35 %")));
    const QColor detector = Palette::annotationColor(Annotation::Source::Detector, false);
    QImage image = chart->grab().toImage();
    ASSERT_TRUE(drawn(id));
    const double x = drawn(id)->x;
    EXPECT_EQ(pixelsNear(image, x, chart->plotRect(), detector), 0) << "not in the colour of an accepted mark";
    EXPECT_GT(pixelsNear(image, x, chart->plotRect(), blendedOnWhite(detector, 0.45)), 10) << "but faded";

    ASSERT_TRUE(editor.accept(id));
    image = chart->grab().toImage();
    EXPECT_GT(pixelsNear(image, x, chart->plotRect(), detector), 20);
}

TEST_F(SuggestionOnTheTimeline, ClickingTheMarkerOffersAcceptAndDismiss)
{
    const quint64 accepted = model.add(suggestion(kNow - 5 * 60'000, QStringLiteral("completed/s fell 35 %")));
    const quint64 dismissed = model.add(suggestion(kNow - 2 * 60'000, QStringLiteral("completed/s fell 40 %")));

    QMenu *menu = clickMarker(accepted);
    ASSERT_TRUE(menu);
    action(menu, QStringLiteral("Accept suggestion"))->trigger();
    menu->close();
    ASSERT_TRUE(model.find(accepted));
    EXPECT_FALSE(model.find(accepted)->suggested);
    EXPECT_EQ(model.find(accepted)->timeMs, kNow - 5 * 60'000) << "a click does not move it";

    menu = clickMarker(dismissed);
    ASSERT_TRUE(menu);
    action(menu, QStringLiteral("Dismiss suggestion"))->trigger();
    menu->close();
    EXPECT_FALSE(model.find(dismissed));
    editor.undoStack()->undo();
    EXPECT_TRUE(model.find(dismissed));

    // An accepted mark is moved or annotated as before: a click offers nothing.
    chart->grab();
    const QPoint at(int(std::lround(drawn(accepted)->x)), int(chart->plotRect().center().y()));
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, at);
    QCoreApplication::processEvents();
    const QList<QMenu *> menus = chart->findChildren<QMenu *>(QStringLiteral("suggestionMenu"));
    EXPECT_TRUE(std::none_of(menus.begin(), menus.end(), [](QMenu *m) { return m->isVisible(); }));
}

TEST_F(SuggestionOnTheTimeline, AScreenshotOfSuggestionsNextToAcceptedMarks)
{
    // A throughput falling after a rate step, the action marked, the detector's findings
    // suggested: the picture a user sees before deciding.
    std::vector<qint64> t;
    std::vector<double> v;
    for (int s = 0; s <= 600; ++s) {
        t.push_back(kNow - kWindowMs + s * 1000LL);
        v.push_back(s < 300 ? 298 + 4 * std::sin(s * 1.7)
                            : std::max(113.0, 298.0 - (s - 300) * 10.0) + 4 * std::sin(s * 1.7));
    }
    store.merge(QStringLiteral("p0/q0/{}"), {}, t, v);
    chart->addSeries(QStringLiteral("p0/q0/{}"), QStringLiteral("completed/s"), 0);
    Annotation action;
    action.timeMs = kNow - kWindowMs + 295'000;
    action.text = QStringLiteral("rate 150 → 400 /s");
    action.source = Annotation::Source::Action;
    model.add(action);
    model.add(suggestion(kNow - kWindowMs + 309'000, QStringLiteral("completed/s fell 31 % within 60 s")));
    Annotation region =
        suggestion(kNow - kWindowMs + 420'000, QStringLiteral("backlog grew while throughput stayed flat"));
    region.endMs = kNow - kWindowMs + 560'000;
    model.add(region);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart->drawnPointCount() > 0; }, 5000));

    const QImage image = chart->grab().toImage();
    const QString path = binaryPath(QStringLiteral("screenshots/suggestions.png"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    ASSERT_TRUE(image.save(path));
    std::cout << "screenshot: " << path.toStdString() << std::endl;
    EXPECT_EQ(chart->drawnAnnotations().size(), 3);
}
