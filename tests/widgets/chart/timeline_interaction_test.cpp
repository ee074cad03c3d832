// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline as a user works it, with real mouse and key events on offscreen charts:
// Ctrl+click and Ctrl+drag annotate, dragging a marker or band edge moves it (and undo puts it
// back), close markers become a "+N" badge that lists them on click, hovering shows a
// marker's text and one crosshair across every panel, Shift+drag and the wheel pan, Ctrl+wheel
// zooms, and the zoom history walks back.
#include "annotating/annotationeditor.h"
#include "annotating/annotationprompt.h"
#include "annotations/annotationmodel.h"
#include "chart/timelinechart.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "testpaths.h"
#include "theme/palette.h"
#include "timeline/timecursor.h"
#include "timeline/timewindow.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <memory>

namespace {

constexpr qint64 kNow = 1'800'000'000'000; // a fixed "now" keeps the test repeatable
constexpr qint64 kWindowMs = 10 * 60'000;

SeriesDefinition seriesDefinition(const QString &query, AxisSide axis, SeriesStyle style)
{
    SeriesDefinition series;
    series.query = query;
    series.legend = query;
    series.axis = axis;
    series.style = style;
    return series;
}

PanelDefinition throughputPanel()
{
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    panel.series.push_back(seriesDefinition(QStringLiteral("sent"), AxisSide::Left, SeriesStyle::Line));
    return panel;
}

bool near(const QColor &a, const QColor &b, int tolerance = 90)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < tolerance;
}

// Pixels of a colour in the columns around x, over the plot's height.
int colouredPixelsAt(const QImage &image, double x, const QRectF &plot, const QColor &color)
{
    int n = 0;
    for (int column = int(x) - 1; column <= int(x) + 1; ++column) {
        for (int y = int(plot.top()) + 60; y < int(plot.bottom()) - 2; ++y)
            n += near(image.pixelColor(column, y), color) ? 1 : 0;
    }
    return n;
}

void wheel(QWidget *target, const QPoint &pos, int angle, Qt::KeyboardModifiers modifiers = {})
{
    QWheelEvent event(QPointF(pos), QPointF(target->mapToGlobal(pos)), QPoint(), QPoint(0, angle), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    // As from the window system: only then does Qt pass an ignored wheel on to the parents
    // (sendEvent() would make it synthesized again, as QTest's mouse functions know).
    QSpontaneKeyEvent::setSpontaneous(&event);
    qApp->notify(target, &event);
}

// A dashboard's models at a fixed now, never polled: its charts draw what a test puts in the
// store. One column of `panels`.
struct Unpolled
{
    explicit Unpolled(std::vector<PanelDefinition> panels)
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(kWindowMs);
        DashboardDefinition dashboard;
        dashboard.columns = 1;
        dashboard.panels = std::move(panels);
        poller.setDashboard(dashboard);
    }

    SampleStore store;
    TimeWindow window;
    PrometheusClient client{[] {
        PrometheusConnection connection;
        connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/")); // never polled here
        return connection;
    }()};
    DashboardPoller poller{&client, &store, &window};
};

struct ChartInteraction : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    AnnotationModel model;
    AnnotationEditor editor{&model};
    TimeCursor cursor;
    std::unique_ptr<TimelineChart> chart;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(kWindowMs);
        chart = std::make_unique<TimelineChart>(throughputPanel(), &store, &window);
        chart->resize(864, 320); // plot width 864 - 128 = 736 px for 10 minutes
        chart->setAnnotationEditor(&editor);
        chart->setTimeCursor(&cursor);
        QObject::connect(chart.get(), &TimelineChart::rangeSelected, &window, &TimeWindow::showRange);
        QObject::connect(chart.get(), &TimelineChart::scrollRequested, &window, &TimeWindow::scrollTo);
        QObject::connect(chart.get(), &TimelineChart::scrollFinished, &window, &TimeWindow::finishScroll);
        chart->show();
        chart->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(chart.get()));
    }

    QWidget *viewport() const { return chart->viewport(); }
    QRectF plot() const { return chart->plotRect(); }
    double msPerPixel() const { return double(window.range().length()) / plot().width(); }
    QPoint pointAt(qint64 timeMs, double yFraction = 0.6) const
    {
        const TimeRange range = window.range();
        const double x = plot().left() + plot().width() * double(timeMs - range.startMs) / double(range.length());
        return QPoint(int(std::lround(x)), int(plot().top() + plot().height() * yFraction));
    }
    // Paints the chart as a user would see it; the chart's drawn* accessors then describe it.
    QImage paint() const { return chart->grab().toImage(); }
    std::optional<TimelineChart::DrawnAnnotation> drawn(quint64 id) const
    {
        for (const auto &d : chart->drawnAnnotations()) {
            if (d.id == id)
                return d;
        }
        return std::nullopt;
    }
    AnnotationPrompt *openPrompt() const
    {
        AnnotationPrompt *prompt = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                prompt = chart->findChild<AnnotationPrompt *>();
                return prompt && prompt->isVisible();
            },
            2000);
        return shown ? prompt : nullptr;
    }
    quint64 addPoint(qint64 timeMs, const QString &text)
    {
        Annotation a;
        a.timeMs = timeMs;
        a.text = text;
        return editor.add(a);
    }
};

} // namespace

TEST_F(ChartInteraction, CtrlClickOpensAPromptAndEnterAddsAPointWhereClicked)
{
    const qint64 t = kNow - 4 * 60'000;
    const QPoint p = pointAt(t);
    QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ControlModifier, p);
    AnnotationPrompt *prompt = openPrompt();
    ASSERT_NE(prompt, nullptr) << "Ctrl+click must open a prompt for the annotation's text";
    const QRect promptBox(prompt->mapTo(chart.get(), QPoint(0, 0)), prompt->size());
    const QPoint mouse = chart->viewport()->mapTo(chart.get(), p);
    EXPECT_TRUE(promptBox.left() <= mouse.x() && mouse.x() <= promptBox.right()) << "the prompt opens at the mouse";
    EXPECT_LT(std::abs(promptBox.top() - mouse.y()), 40) << "the prompt opens at the mouse";
    EXPECT_TRUE(model.annotations().empty()) << "nothing is added before Enter";
    QTest::keyClicks(prompt, QStringLiteral("scaled the worker to 0"));
    QTest::keyClick(prompt, Qt::Key_Return);

    ASSERT_EQ(model.annotations().size(), 1u);
    const Annotation added = model.annotations().front();
    EXPECT_EQ(added.text, QStringLiteral("scaled the worker to 0"));
    EXPECT_FALSE(added.isRegion());
    EXPECT_EQ(added.source, Annotation::Source::Manual);
    EXPECT_NEAR(double(added.timeMs - t), 0.0, msPerPixel()) << "at the clicked instant, to the pixel";

    const QImage image = paint();
    const auto marker = drawn(added.id);
    ASSERT_TRUE(marker);
    EXPECT_NEAR(marker->x, p.x(), 1.0);
    EXPECT_FALSE(marker->label.isEmpty()) << "the marker carries its label";
    EXPECT_GT(colouredPixelsAt(image, marker->x, plot(), Palette::annotationColor(Annotation::Source::Manual, false)),
              20)
        << "the marker line is drawn at its instant";
    EXPECT_EQ(editor.undoStack()->count(), 1);
}

// With docks open a plot is short: the labels of a busy stretch took three rows, most of it.
TEST_F(ChartInteraction, LabelsNeverCoverMoreThanAFifthOfThePlot)
{
    for (int i = 0; i < 6; ++i)
        addPoint(kNow - (9 - i) * 60'000,
                 QStringLiteral("rate %1 → %2 /s (Chaoscope starter)").arg(i * 50).arg(i * 50 + 50));
    for (int height : {420, 260, 200, 150}) {
        SCOPED_TRACE(height);
        chart->resize(864, height);
        paint();
        double lowest = plot().top();
        int labelled = 0;
        for (const auto &d : chart->drawnAnnotations()) {
            if (!d.label.isEmpty()) {
                lowest = std::max(lowest, d.label.bottom());
                ++labelled;
            }
        }
        EXPECT_LE(lowest - plot().top(), plot().height() / 5 + 0.5) << "plot " << plot().height() << " px";
        EXPECT_EQ(chart->drawnAnnotations().size(), 6) << "every line stays";
        if (height == 420) {
            EXPECT_GE(labelled, 3) << "a tall plot names the marks";
        }
    }
}

TEST_F(ChartInteraction, CtrlDragAddsARegionAndEscapeAddsNothing)
{
    const qint64 from = kNow - 6 * 60'000;
    const qint64 to = kNow - 3 * 60'000;
    QTest::mousePress(viewport(), Qt::LeftButton, Qt::ControlModifier, pointAt(from));
    QTest::mouseMove(viewport(), pointAt((from + to) / 2));
    QTest::mouseMove(viewport(), pointAt(to));
    QTest::mouseRelease(viewport(), Qt::LeftButton, Qt::ControlModifier, pointAt(to));
    AnnotationPrompt *prompt = openPrompt();
    ASSERT_NE(prompt, nullptr);
    QTest::keyClicks(prompt, QStringLiteral("exporter backlog"));
    QTest::keyClick(prompt, Qt::Key_Enter);
    ASSERT_EQ(model.annotations().size(), 1u);
    const Annotation region = model.annotations().front();
    ASSERT_TRUE(region.isRegion());
    EXPECT_NEAR(double(region.timeMs - from), 0.0, 1.5 * msPerPixel());
    EXPECT_NEAR(double(*region.endMs - to), 0.0, 1.5 * msPerPixel());
    EXPECT_EQ(window.range(), (TimeRange{kNow - kWindowMs, kNow})) << "a Ctrl+drag annotates, it does not zoom";

    const QImage image = paint();
    const auto band = drawn(region.id);
    ASSERT_TRUE(band && band->endX);
    // The band is shaded: inside it every pixel is tinted, beside it most are white (the
    // time grid crosses both). The row is between two value grid lines.
    const int y = int(plot().top() + plot().height() * 0.62);
    auto tinted = [&](double left, double right) {
        int n = 0;
        for (int x = int(left); x < int(right); ++x)
            n += image.pixelColor(x, y) != QColor(Qt::white) ? 1 : 0;
        return double(n) / (int(right) - int(left));
    };
    EXPECT_GT(tinted(band->x + 5, *band->endX - 5), 0.95) << "the region is a shaded band";
    EXPECT_LT(tinted(*band->endX + 5, *band->endX + 120), 0.2);

    // Esc cancels: nothing is added, the preview goes away.
    QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ControlModifier, pointAt(kNow - 60'000));
    prompt = openPrompt();
    ASSERT_NE(prompt, nullptr);
    QTest::keyClicks(prompt, QStringLiteral("never mind"));
    QTest::keyClick(prompt, Qt::Key_Escape);
    EXPECT_EQ(model.annotations().size(), 1u);
}

TEST_F(ChartInteraction, DraggingAMarkerMovesItAndUndoPutsItBack)
{
    const qint64 t = kNow - 5 * 60'000;
    const quint64 id = addPoint(t, QStringLiteral("rate 300 → 500 /s"));
    paint();
    const auto before = drawn(id);
    ASSERT_TRUE(before);

    const QPoint grab(int(std::lround(before->x)), int(plot().center().y()));
    const QPoint drop = grab + QPoint(120, 0);
    QTest::mousePress(viewport(), Qt::LeftButton, {}, grab);
    QTest::mouseMove(viewport(), grab + QPoint(60, 0));
    QTest::mouseMove(viewport(), drop);
    // While dragging, the marker is drawn where it would land; the model is unchanged.
    paint();
    EXPECT_NEAR(drawn(id)->x, drop.x(), 1.5);
    EXPECT_EQ(model.find(id)->timeMs, t);
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, drop);

    const qint64 moved = model.find(id)->timeMs;
    EXPECT_NEAR(double(moved - t), 120 * msPerPixel(), msPerPixel());
    EXPECT_EQ(window.range(), (TimeRange{kNow - kWindowMs, kNow})) << "dragging a marker does not zoom";
    QImage image = paint();
    EXPECT_NEAR(drawn(id)->x, drop.x(), 1.5);
    const QColor manual = Palette::annotationColor(Annotation::Source::Manual, false);
    EXPECT_GT(colouredPixelsAt(image, drawn(id)->x, plot(), manual), 20);
    EXPECT_EQ(colouredPixelsAt(image, before->x, plot(), manual), 0) << "nothing is left at the old place";

    editor.undoStack()->undo();
    EXPECT_EQ(model.find(id)->timeMs, t);
    image = paint();
    EXPECT_NEAR(drawn(id)->x, before->x, 0.5);
    EXPECT_GT(colouredPixelsAt(image, before->x, plot(), manual), 20);

    editor.undoStack()->undo(); // and the Ctrl+click… here the add
    EXPECT_TRUE(model.annotations().empty());
    paint();
    EXPECT_TRUE(chart->drawnAnnotations().isEmpty());
}

TEST_F(ChartInteraction, CtrlClickThenEditByDragThenUndoBoth)
{
    // The whole story through input events only.
    const QPoint p = pointAt(kNow - 7 * 60'000);
    QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ControlModifier, p);
    AnnotationPrompt *prompt = openPrompt();
    ASSERT_NE(prompt, nullptr);
    QTest::keyClicks(prompt, QStringLiteral("pool exhausted"));
    QTest::keyClick(prompt, Qt::Key_Return);
    ASSERT_EQ(model.annotations().size(), 1u);
    const Annotation added = model.annotations().front();

    paint();
    const QPoint grab(int(std::lround(drawn(added.id)->x)), int(plot().center().y()));
    QTest::mousePress(viewport(), Qt::LeftButton, {}, grab);
    QTest::mouseMove(viewport(), grab - QPoint(80, 0));
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, grab - QPoint(80, 0));
    EXPECT_NEAR(double(model.find(added.id)->timeMs - added.timeMs), -80 * msPerPixel(), msPerPixel());
    EXPECT_EQ(editor.undoStack()->count(), 2);

    editor.undoStack()->undo();
    EXPECT_EQ(model.find(added.id)->timeMs, added.timeMs);
    paint();
    EXPECT_NEAR(drawn(added.id)->x, p.x(), 1.0);
    editor.undoStack()->undo();
    EXPECT_TRUE(model.annotations().empty());
}

TEST_F(ChartInteraction, DraggingABandEdgeChangesOnlyThatEnd)
{
    Annotation region;
    region.timeMs = kNow - 8 * 60'000;
    region.endMs = kNow - 6 * 60'000;
    region.text = QStringLiteral("scaled down");
    const quint64 id = editor.add(region);
    paint();
    const auto band = drawn(id);
    ASSERT_TRUE(band && band->endX);

    const QPoint end(int(std::lround(*band->endX)), int(plot().center().y()));
    QTest::mousePress(viewport(), Qt::LeftButton, {}, end);
    QTest::mouseMove(viewport(), end + QPoint(100, 0));
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, end + QPoint(100, 0));
    Annotation after = *model.find(id);
    EXPECT_EQ(after.timeMs, region.timeMs) << "the start stays";
    EXPECT_NEAR(double(*after.endMs - *region.endMs), 100 * msPerPixel(), msPerPixel());

    paint();
    const QPoint start(int(std::lround(drawn(id)->x)), int(plot().center().y()));
    QTest::mousePress(viewport(), Qt::LeftButton, {}, start);
    QTest::mouseMove(viewport(), start - QPoint(50, 0));
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, start - QPoint(50, 0));
    const Annotation moved = *model.find(id);
    EXPECT_EQ(*moved.endMs, *after.endMs) << "the end stays";
    EXPECT_NEAR(double(moved.timeMs - region.timeMs), -50 * msPerPixel(), msPerPixel());

    editor.undoStack()->undo();
    editor.undoStack()->undo();
    EXPECT_EQ(model.find(id)->timeMs, region.timeMs);
    EXPECT_EQ(*model.find(id)->endMs, *region.endMs);
    paint();
    EXPECT_NEAR(*drawn(id)->endX, *band->endX, 0.5);
}

TEST_F(ChartInteraction, CloseMarkersClusterIntoABadgeThatListsThemOnClick)
{
    // 3 markers within 3 px (0.8 s per px), one well apart.
    const qint64 t = kNow - 5 * 60'000;
    const quint64 a = addPoint(t, QStringLiteral("rate 300 → 400"));
    const quint64 b = addPoint(t + 1000, QStringLiteral("rate 400 → 500"));
    const quint64 c = addPoint(t + 2200, QStringLiteral("limit 1000 → 5000"));
    const quint64 d = addPoint(t + 120'000, QStringLiteral("alone"));
    paint();
    ASSERT_EQ(chart->drawnClusters().size(), 1);
    const auto cluster = chart->drawnClusters().first();
    EXPECT_EQ(cluster.ids, (std::vector<quint64>{a, b, c}));
    EXPECT_FALSE(cluster.badge.isEmpty()) << "a +3 badge is drawn";
    EXPECT_FALSE(cluster.expanded);
    EXPECT_TRUE(drawn(a)->clustered);
    EXPECT_TRUE(drawn(a)->label.isEmpty()) << "clustered markers draw no labels of their own";
    EXPECT_FALSE(drawn(d)->clustered);
    EXPECT_FALSE(drawn(d)->label.isEmpty());
    // The badge is white text on the marker colour.
    const QImage image = paint();
    const QColor manual = Palette::annotationColor(Annotation::Source::Manual, false);
    int badgePixels = 0;
    for (int x = int(cluster.badge.left()) + 2; x < int(cluster.badge.right()) - 2; ++x)
        badgePixels += near(image.pixelColor(x, int(cluster.badge.center().y()) + 3), manual, 60) ? 1 : 0;
    EXPECT_GT(badgePixels, 3);

    QTest::mouseClick(viewport(), Qt::LeftButton, {}, cluster.badge.center().toPoint());
    paint();
    ASSERT_EQ(chart->drawnClusters().size(), 1);
    EXPECT_TRUE(chart->drawnClusters().first().expanded) << "a click on the badge lists the markers";
    EXPECT_EQ(window.range(), (TimeRange{kNow - kWindowMs, kNow})) << "and does not zoom";

    QTest::mouseClick(viewport(), Qt::LeftButton, {}, pointAt(kNow - 60'000, 0.9));
    paint();
    EXPECT_FALSE(chart->drawnClusters().first().expanded) << "a click elsewhere closes the list";

    // Zoomed in, the markers are far enough apart to stand alone.
    window.showRange({t - 10'000, t + 20'000});
    paint();
    EXPECT_TRUE(chart->drawnClusters().isEmpty());
    EXPECT_FALSE(drawn(a)->label.isEmpty());
    EXPECT_FALSE(drawn(d)) << "an annotation outside the view is not drawn";
}

TEST_F(ChartInteraction, HoveringAMarkerShowsItsFullTextTagsAndSource)
{
    Annotation a;
    a.timeMs = kNow - 5 * 60'000;
    a.text = QStringLiteral("raised the rate to 500 because the gateway accepted only 85 of 435 PI/s");
    a.tags = {QStringLiteral("starter"), QStringLiteral("rate")};
    a.author = QStringLiteral("ops");
    const quint64 id = editor.add(a);
    paint();
    const QPoint over(int(std::lround(drawn(id)->x)) + 1, int(plot().center().y()));
    QTest::mouseMove(viewport(), over);
    ASSERT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000));
    const QString tip = QToolTip::text();
    EXPECT_TRUE(tip.contains(QStringLiteral("only 85 of 435 PI/s"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("starter, rate"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("manual"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("ops"))) << tip.toStdString();
    EXPECT_EQ(viewport()->cursor().shape(), Qt::SizeHorCursor) << "the marker can be grabbed";

    QTest::mouseMove(viewport(), over + QPoint(100, 0));
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000));
}

TEST_F(ChartInteraction, AMarkersTooltipAndTheReadOutNeverShowAtOnceAndANoteBeingTypedGetsNoTooltip)
{
    Annotation a;
    a.timeMs = kNow - 5 * 60'000;
    a.text = QStringLiteral("rate 150 → 400 /s");
    const quint64 id = editor.add(a);
    std::vector<qint64> t;
    std::vector<double> rate;
    for (int i = 0; i < 600; ++i) {
        t.push_back(kNow - kWindowMs + qint64(i) * 1000);
        rate.push_back(400);
    }
    store.merge(QStringLiteral("rate"), {}, t, rate);
    chart->addSeries(QStringLiteral("rate"), QStringLiteral("sent/s"), 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart->drawnPointCount() > 0; }, 5000));
    paint();
    const QPoint over(int(std::lround(drawn(id)->x)) + 1, int(plot().center().y()));
    const QPoint beside = over + QPoint(100, 0);
    QTest::mouseMove(viewport(), beside + QPoint(0, 30)); // a move even where the last test left the mouse
    QTest::mouseMove(viewport(), beside);
    paint();
    ASSERT_FALSE(chart->drawnReadout().isEmpty()) << "beside the marker, the values under the mouse";

    QTest::mouseMove(viewport(), over);
    ASSERT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 2000));
    paint();
    EXPECT_TRUE(chart->drawnReadout().isEmpty()) << "the tooltip opens where the read-out would";

    QTest::mouseMove(viewport(), beside);
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000));
    paint();
    EXPECT_FALSE(chart->drawnReadout().isEmpty()) << "and the read-out comes back";

    // Ctrl+click opens the note field at the mouse: hovering the marker then shows no tooltip.
    QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ControlModifier, beside);
    ASSERT_TRUE(AnnotationPrompt::isAnyOpen());
    QTest::mouseMove(viewport(), over);
    QTest::mouseMove(viewport(), over + QPoint(1, 0));
    EXPECT_FALSE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 700));
}

TEST_F(ChartInteraction, ShiftDragAndTheWheelPanCtrlWheelZoomsAndBackUndoesEach)
{
    const TimeRange live = window.range();
    const QPoint from = pointAt(kNow - 5 * 60'000);
    QTest::mousePress(viewport(), Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(viewport(), from + QPoint(50, 0));
    QTest::mouseMove(viewport(), from + QPoint(100, 0));
    QTest::mouseRelease(viewport(), Qt::LeftButton, Qt::ShiftModifier, from + QPoint(100, 0));
    EXPECT_FALSE(window.isLive());
    EXPECT_EQ(window.range().length(), live.length()) << "a pan keeps the length";
    EXPECT_NEAR(double(window.range().startMs - live.startMs), -100 * msPerPixel(), msPerPixel())
        << "dragging right shows earlier time";
    const TimeRange panned = window.range();

    wheel(viewport(), from, 120); // the plain wheel is the page's
    EXPECT_EQ(window.range(), panned);
    wheel(viewport(), from, 120, Qt::ShiftModifier); // one notch forward: a tenth of the window back in time
    EXPECT_EQ(window.range().startMs, panned.startMs - kWindowMs / 10);
    const TimeRange wheeled = window.range();

    const qint64 anchor = chart->timeAt(from.x());
    wheel(viewport(), from, 120, Qt::ControlModifier); // zoom in around the mouse
    EXPECT_LT(window.range().length(), wheeled.length());
    EXPECT_NEAR(double(chart->timeAt(from.x()) - anchor), 0.0, msPerPixel()) << "the instant under the mouse stays put";
    const TimeRange zoomed = window.range();

    // The wheel has no release: after a pause the next wheel step is a new history step.
    QSignalSpy finished(chart.get(), &TimelineChart::scrollFinished);
    ASSERT_TRUE(finished.wait(2000));
    window.back();
    EXPECT_EQ(window.range(), panned) << "back undoes the wheel pan and zoom (one gesture)";
    window.back();
    EXPECT_EQ(window.range(), live) << "and then the Shift+drag, back to live";
    EXPECT_TRUE(window.isLive());
    window.forward();
    window.forward();
    EXPECT_EQ(window.range(), zoomed);
}

// The wheel toward the future stops at now (what a server computes for later instants once
// drew as a fall of throughput); the same gesture from live changes nothing and stays live.
TEST_F(ChartInteraction, NoWheelOrZoomShowsAnInstantAfterNow)
{
    const QPoint middle = pointAt(kNow - 5 * 60'000);
    wheel(viewport(), middle, -360, Qt::ShiftModifier); // three notches later than now
    EXPECT_TRUE(window.isLive());
    EXPECT_EQ(window.range().endMs, kNow);

    wheel(viewport(), middle, 240, Qt::ShiftModifier); // back two notches, then forward five
    EXPECT_FALSE(window.isLive());
    wheel(viewport(), middle, -600, Qt::ShiftModifier);
    EXPECT_EQ(window.range(), (TimeRange{kNow - kWindowMs, kNow}));
    wheel(viewport(), pointAt(kNow - 30'000), -600, Qt::ControlModifier); // zoom out near now
    EXPECT_EQ(window.range().endMs, kNow);
    EXPECT_GT(window.range().length(), kWindowMs);
}

// The plain wheel over a chart scrolls the page of panels, as on any page; it once panned time
// instead, so a user scrolling down moved every panel into the past.
TEST(DashboardPage, ThePlainWheelOverAChartScrollsThePageNotTime)
{
    Unpolled models({throughputPanel(), throughputPanel(), throughputPanel(), throughputPanel()});
    SampleStore &store = models.store;
    TimeWindow &window = models.window;
    DashboardPoller &poller = models.poller;
    QScrollArea page; // as the main window holds the dashboard
    page.setWidgetResizable(true);
    auto *view = new DashboardView(&poller, &store, &window);
    view->rebuild();
    view->setMinimumHeight(1600);
    page.setWidget(view);
    page.resize(900, 600);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    ASSERT_GT(page.verticalScrollBar()->maximum(), 0);

    TimelineChart *chart = view->panels()[0]->chart();
    const QPoint inside = chart->plotRect().center().toPoint();
    const TimeRange before = window.range();
    wheel(chart->viewport(), inside, -120);
    EXPECT_GT(page.verticalScrollBar()->value(), 0) << "the page scrolled down";
    EXPECT_EQ(window.range(), before);
    EXPECT_TRUE(window.isLive());

    // Shift+wheel pans, and every panel's header says at once that it is not live any more,
    // and what it shows (once only "Pause" turning into "Resume" said so).
    const auto headersSaying = [&](const QString &words) {
        int n = 0;
        for (PanelWidget *panel : view->panels()) {
            for (QLabel *label : panel->findChildren<QLabel *>())
                n += label->text().contains(words) ? 1 : 0;
        }
        return n;
    };
    EXPECT_EQ(headersSaying(QStringLiteral("not live")), 0);
    wheel(chart->viewport(), inside, 120, Qt::ShiftModifier);
    EXPECT_FALSE(window.isLive());
    const QString shown = QDateTime::fromMSecsSinceEpoch(window.range().startMs).toString(QStringLiteral("HH:mm:ss")) +
                          QStringLiteral("–") +
                          QDateTime::fromMSecsSinceEpoch(window.range().endMs).toString(QStringLiteral("HH:mm:ss"));
    EXPECT_EQ(headersSaying(QStringLiteral("not live: ") + shown), 4);
    window.setLive(true);
    EXPECT_EQ(headersSaying(QStringLiteral("not live")), 0);
}

// A panel added from Explore at the end of a long dashboard is scrolled into view.
TEST(DashboardPage, APanelBroughtIntoViewIsScrolledTo)
{
    Unpolled models({throughputPanel(), throughputPanel(), throughputPanel(), throughputPanel(), throughputPanel()});
    QScrollArea page;
    page.setWidgetResizable(true);
    auto *view = new DashboardView(&models.poller, &models.store, &models.window);
    view->rebuild();
    view->setMinimumHeight(2000);
    page.setWidget(view);
    page.resize(900, 500);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    ASSERT_EQ(page.verticalScrollBar()->value(), 0);
    PanelWidget *last = view->panels().back();
    const auto inView = [&] {
        const QRect shown(last->mapTo(page.viewport(), QPoint(0, 0)), last->size());
        return page.viewport()->rect().intersects(shown) && shown.top() >= 0;
    };
    EXPECT_FALSE(inView());
    view->bringIntoView(int(view->panels().size()) - 1);
    ASSERT_TRUE(QTest::qWaitFor(inView, 2000)) << "scrolled to " << page.verticalScrollBar()->value();
}

TEST_F(ChartInteraction, APlainDragOnEmptyPlotStillZoomsAndDoubleClickGoesLive)
{
    addPoint(kNow - 9 * 60'000, QStringLiteral("far left"));
    const QPoint from = pointAt(kNow - 6 * 60'000);
    const QPoint to = pointAt(kNow - 2 * 60'000);
    QTest::mousePress(viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(viewport(), to);
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, to);
    EXPECT_FALSE(window.isLive());
    EXPECT_NEAR(double(window.range().length()), 4 * 60'000.0, 2 * msPerPixel() * 2);
    EXPECT_EQ(model.annotations().size(), 1u) << "a plain drag does not annotate";
    QSignalSpy reset(chart.get(), &TimelineChart::resetRequested);
    QTest::mouseDClick(viewport(), Qt::LeftButton, {}, from);
    EXPECT_GE(reset.size(), 1);
}

// The crosshair across a whole dashboard: hovering one panel draws the line in every panel at
// the same instant, the read-out (value, unit, the sample's time) in the hovered one.
TEST(DashboardCrosshair, OneLineThroughEveryPanelAndAReadoutWhereTheMouseIs)
{
    PanelDefinition latencyPanel = throughputPanel();
    latencyPanel.title = QStringLiteral("Latency");
    latencyPanel.unit = QStringLiteral("s");
    Unpolled models({throughputPanel(), latencyPanel});
    SampleStore &store = models.store;
    TimeWindow &window = models.window;
    DashboardPoller &poller = models.poller;
    DashboardView view(&poller, &store, &window);
    view.rebuild();
    view.resize(900, 700);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));

    std::vector<qint64> t;
    std::vector<double> rate;
    std::vector<double> latency;
    for (int i = 0; i < 600; ++i) {
        t.push_back(kNow - kWindowMs + qint64(i) * 1000);
        rate.push_back(400 + i % 7);
        latency.push_back(0.0125);
    }
    store.merge(QStringLiteral("rate"), {}, t, rate);
    store.merge(QStringLiteral("latency"), {}, t, latency);
    TimelineChart *top = view.panels()[0]->chart();
    TimelineChart *bottom = view.panels()[1]->chart();
    top->addSeries(QStringLiteral("rate"), QStringLiteral("sent/s"), 0);
    bottom->addSeries(QStringLiteral("latency"), QStringLiteral("p99"), 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return top->drawnPointCount() > 0 && bottom->drawnPointCount() > 0; }, 5000));

    const QRectF plot = top->plotRect();
    const QPoint mouse(int(plot.left() + plot.width() * 0.5), int(plot.center().y()));
    const qint64 hovered = top->timeAt(mouse.x());
    QTest::mouseMove(top->viewport(), mouse);
    ASSERT_EQ(view.timeCursor()->timeMs(), hovered);

    top->grab();
    bottom->grab();
    ASSERT_TRUE(top->drawnCrosshairX());
    ASSERT_TRUE(bottom->drawnCrosshairX()) << "the crosshair runs through the panel the mouse is not over";
    EXPECT_NEAR(*top->drawnCrosshairX(), mouse.x(), 1.0);
    EXPECT_DOUBLE_EQ(*top->drawnCrosshairX(), *bottom->drawnCrosshairX()) << "at the same x in every panel";
    const QPointF topGlobal = top->viewport()->mapToGlobal(QPointF(*top->drawnCrosshairX(), 0));
    const QPointF bottomGlobal = bottom->viewport()->mapToGlobal(QPointF(*bottom->drawnCrosshairX(), 0));
    EXPECT_NEAR(topGlobal.x(), bottomGlobal.x(), 0.5);

    ASSERT_EQ(top->drawnReadout().size(), 1);
    const QString expectedTime =
        QDateTime::fromMSecsSinceEpoch((hovered + 500) / 1000 * 1000).toString(QStringLiteral("HH:mm:ss"));
    EXPECT_TRUE(top->drawnReadout().first().startsWith(QStringLiteral("sent/s = 40")))
        << top->drawnReadout().first().toStdString();
    EXPECT_TRUE(top->drawnReadout().first().contains(QStringLiteral("ops/s")))
        << top->drawnReadout().first().toStdString();
    EXPECT_TRUE(top->drawnReadout().first().endsWith(expectedTime)) << top->drawnReadout().first().toStdString();
    EXPECT_EQ(top->drawnReadoutTitle(), expectedTime) << "the header says the time the rows say";
    EXPECT_TRUE(bottom->drawnReadout().isEmpty()) << "the read-out shows only where the mouse is";

    // Hovering moves only the crosshair: no new decimation.
    QSignalSpy rendered(top, &TimelineChart::rendered);
    QTest::mouseMove(bottom->viewport(), mouse + QPoint(40, 0));
    bottom->grab();
    top->grab();
    EXPECT_EQ(bottom->drawnReadout().size(), 1);
    EXPECT_TRUE(bottom->drawnReadout().first().contains(QStringLiteral("12.5 ms")))
        << bottom->drawnReadout().first().toStdString();
    EXPECT_TRUE(top->drawnReadout().isEmpty());
    EXPECT_NEAR(*top->drawnCrosshairX(), mouse.x() + 40, 1.0);
    EXPECT_FALSE(rendered.wait(200)) << "longer than the render coalescing delay, and nothing was re-rendered";

    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(bottom, &leave);
    EXPECT_FALSE(view.timeCursor()->timeMs());
    top->grab();
    EXPECT_FALSE(top->drawnCrosshairX());
}

// The picture in docs/screenshots/annotations-crosshair.png: a starter whose pool collapses
// after the rate goes from 300 to 500 PI/s, with actions, a refused action, a burst of marks
// that clusters, a region, and the crosshair with its read-out. Written to the build folder
// (screenshots/annotations-crosshair.png); what it shows is checked here too.
TEST(AnnotationScreenshot, ADashboardWithMarkersAClusterARegionAndTheCrosshair)
{
    const qint64 now = QDateTime(QDate(2024, 5, 14), QTime(9, 50), Qt::UTC).toMSecsSinceEpoch();
    const qint64 window15 = 15 * 60'000;
    const qint64 t0 = now - window15;
    SampleStore store;
    TimeWindow window;
    window.setClock([now] { return now; });
    window.setWindowMs(window15);
    PrometheusConnection connection;
    connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/")); // never polled here
    PrometheusClient client(connection);
    DashboardPoller poller(&client, &store, &window);

    auto panelOf = [](const QString &title, const QString &unit, std::vector<std::pair<QString, SeriesStyle>> series) {
        PanelDefinition p;
        p.title = title;
        p.unit = unit;
        for (const auto &[query, style] : series)
            p.series.push_back(seriesDefinition(query, AxisSide::Left, style));
        return p;
    };
    DashboardDefinition dashboard;
    dashboard.columns = 2;
    dashboard.panels = {
        panelOf(QStringLiteral("Process instances per second"), QStringLiteral("ops/s"),
                {{QStringLiteral("rate"), SeriesStyle::Step},
                 {QStringLiteral("sent"), SeriesStyle::Line},
                 {QStringLiteral("accepted"), SeriesStyle::Line},
                 {QStringLiteral("completed"), SeriesStyle::Line}}),
        panelOf(QStringLiteral("Starter HTTP pool"), QString(),
                {{QStringLiteral("max"), SeriesStyle::Step},
                 {QStringLiteral("leased"), SeriesStyle::Line},
                 {QStringLiteral("pending"), SeriesStyle::Line}}),
        panelOf(QStringLiteral("Request duration"), QStringLiteral("s"),
                {{QStringLiteral("p50"), SeriesStyle::Line}, {QStringLiteral("p99"), SeriesStyle::Line}}),
        panelOf(QStringLiteral("Exporter backlog"), QString(), {{QStringLiteral("backlog"), SeriesStyle::Area}}),
    };
    poller.setDashboard(dashboard);
    DashboardView view(&poller, &store, &window);
    AnnotationModel model;
    AnnotationEditor editor(&model);
    view.setAnnotationEditor(&editor);
    view.rebuild();
    view.setStyleSheet(QStringLiteral("DashboardView { background: #F2F4F7; }"));
    view.setAttribute(Qt::WA_StyledBackground);
    view.resize(1400, 820);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));

    // One sample a second; the rate goes to 500 at +5 min, the pool saturates, the gateway
    // accepts ~85/s, the rate goes back to 300 at +11 min (the first try is refused).
    const qint64 raise = t0 + 5 * 60'000;
    const qint64 refused = t0 + 9 * 60'000;
    const qint64 lower = t0 + 11 * 60'000 + 20'000;
    std::map<QString, std::vector<double>> values;
    std::vector<qint64> times;
    double pending = 0;
    double backlog = 800;
    for (qint64 t = t0 - 30'000; t <= now; t += 1000) {
        const double s = double(t - t0) / 1000.0;
        const double wobble = std::sin(s * 0.7) * 4 + std::sin(s * 0.13) * 6;
        const bool high = t >= raise && t < lower;
        const double collapse = high ? std::clamp((double(t - raise) / 1000.0 - 40) / 60.0, 0.0, 1.0) : 0.0;
        const double recover = t >= lower ? std::clamp(1.0 - (double(t - lower) / 1000.0) / 45.0, 0.0, 1.0) : 0.0;
        const double sick = std::max(collapse, recover);
        const double rate = high ? 500 : 300;
        const double sent = high ? 435 + wobble : 300 + wobble * 0.5;
        const double accepted = (1 - sick) * (sent - 2) + sick * (85 + wobble);
        pending = std::max(0.0, pending + (sent - accepted) * (sick > 0.05 ? 1.0 : -3.0));
        pending = std::min(pending, 85'000.0);
        backlog =
            std::max(600.0, backlog + (t >= t0 + 8 * 60'000 && t < t0 + 10 * 60'000 + 30'000 ? 45 : -30) + wobble);
        times.push_back(t);
        values[QStringLiteral("rate")].push_back(rate);
        values[QStringLiteral("sent")].push_back(sent);
        values[QStringLiteral("accepted")].push_back(accepted);
        values[QStringLiteral("completed")].push_back(accepted - 1.5 + wobble * 0.2);
        values[QStringLiteral("max")].push_back(100);
        values[QStringLiteral("leased")].push_back(std::min(100.0, 28 + wobble + sick * 80));
        values[QStringLiteral("pending")].push_back(pending / 1000.0);
        values[QStringLiteral("p50")].push_back(0.045 + sick * 0.9 + wobble * 0.001);
        values[QStringLiteral("p99")].push_back(0.12 + sick * 2.6 + wobble * 0.004);
        values[QStringLiteral("backlog")].push_back(backlog);
    }
    const std::vector<std::vector<std::pair<QString, QString>>> legends{
        {{QStringLiteral("rate"), QStringLiteral("configured rate")},
         {QStringLiteral("sent"), QStringLiteral("sent")},
         {QStringLiteral("accepted"), QStringLiteral("accepted by gateway")},
         {QStringLiteral("completed"), QStringLiteral("completed")}},
        {{QStringLiteral("max"), QStringLiteral("pool max")},
         {QStringLiteral("leased"), QStringLiteral("leased")},
         {QStringLiteral("pending"), QStringLiteral("pending (×1000)")}},
        {{QStringLiteral("p50"), QStringLiteral("p50")}, {QStringLiteral("p99"), QStringLiteral("p99")}},
        {{QStringLiteral("backlog"), QStringLiteral("records not yet exported")}},
    };
    for (std::size_t p = 0; p < legends.size(); ++p) {
        for (std::size_t q = 0; q < legends[p].size(); ++q) {
            const QString &key = legends[p][q].first;
            store.merge(key, {}, times, values[key]);
            view.panels()[p]->chart()->addSeries(key, legends[p][q].second, int(q));
        }
    }

    PanelStatus fresh;
    fresh.state = PanelStatus::State::Ok;
    fresh.stepMs = 1000;
    fresh.newestSampleMs = now;
    for (PanelWidget *p : view.panels())
        p->setStatus(fresh);

    auto mark = [&](qint64 t, const QString &text, Annotation::Source source, bool failed = false,
                    std::optional<qint64> end = std::nullopt, QStringList tags = {}) {
        Annotation a;
        a.timeMs = t;
        a.endMs = end;
        a.text = text;
        a.source = source;
        a.failed = failed;
        a.tags = tags;
        a.author = QStringLiteral("chaos-day");
        model.add(a);
    };
    mark(raise, QStringLiteral("rate 300 → 500 /s"), Annotation::Source::Action);
    // Three marks within a few seconds: one "+3" badge.
    mark(t0 + 6 * 60'000 + 40'000, QStringLiteral("throughput drop: accepted 85 of 435 /s"),
         Annotation::Source::Detector);
    mark(t0 + 6 * 60'000 + 42'000, QStringLiteral("pool exhausted, requests queue in memory"),
         Annotation::Source::Manual);
    mark(t0 + 6 * 60'000 + 44'000, QStringLiteral("starter CPU throttled"), Annotation::Source::Manual);
    mark(t0 + 8 * 60'000, QStringLiteral("exporter backlog"), Annotation::Source::Manual, false,
         t0 + 10 * 60'000 + 30'000, {QStringLiteral("exporter")});
    mark(refused, QStringLiteral("rate 500 → 300 /s refused (503)"), Annotation::Source::Action, true);
    mark(lower, QStringLiteral("rate 500 → 300 /s"), Annotation::Source::Action);
    mark(t0 + 13 * 60'000 + 30'000, QStringLiteral("scenario: limit 1000 → 5000"), Annotation::Source::Scenario);

    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (PanelWidget *p : view.panels()) {
                if (p->chart()->drawnPointCount() == 0 || p->chart()->legend().isEmpty())
                    return false;
            }
            return true;
        },
        10'000));

    // The mouse rests on the top-left panel, in the collapse.
    TimelineChart *hovered = view.panels()[0]->chart();
    const QRectF plot = hovered->plotRect();
    const double fraction = double(t0 + 7 * 60'000 + 50'000 - t0) / double(window15);
    const QPoint mouse(int(plot.left() + plot.width() * fraction), int(plot.top() + plot.height() * 0.52));
    QTest::mouseMove(hovered->viewport(), mouse);

    const QImage image = view.grab().toImage();
    const QString path = binaryPath(QStringLiteral("screenshots/annotations-crosshair.png"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    ASSERT_TRUE(image.save(path));
    std::cout << "screenshot: " << path.toStdString() << std::endl;

    for (PanelWidget *p : view.panels()) {
        EXPECT_TRUE(p->chart()->drawnCrosshairX()) << "the crosshair runs through every panel";
        ASSERT_EQ(p->chart()->drawnClusters().size(), 1) << "the three close marks cluster in every panel";
        EXPECT_EQ(p->chart()->drawnClusters().first().ids.size(), 3u);
        EXPECT_EQ(p->chart()->drawnAnnotations().size(), 8);
    }
    EXPECT_EQ(hovered->drawnReadout().size(), 4);
    EXPECT_TRUE(view.panels()[1]->chart()->drawnReadout().isEmpty());
}
