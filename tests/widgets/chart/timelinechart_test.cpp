// SPDX-License-Identifier: GPL-3.0-or-later
// The plot of one panel, offscreen: what lands in the store ends up drawn, decimated, with
// legend statistics; a failing panel says so in the plot; a drag zooms.
#include "chart/timelinechart.h"
#include "panels/panelwidget.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kNow = 1'800'000'000'000; // a fixed "now" keeps the test repeatable

SeriesDefinition seriesDefinition(const QString &query, AxisSide axis, SeriesStyle style)
{
    SeriesDefinition series;
    series.query = query;
    series.legend = query;
    series.axis = axis;
    series.style = style;
    return series;
}

PanelDefinition twoSeriesPanel()
{
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    panel.series.push_back(seriesDefinition(QStringLiteral("sent"), AxisSide::Left, SeriesStyle::Line));
    panel.series.push_back(seriesDefinition(QStringLiteral("limit"), AxisSide::Right, SeriesStyle::Step));
    return panel;
}

struct Fixture : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(10 * 60'000);
    }
    void fill(const QString &key, int count, double (*f)(int))
    {
        std::vector<qint64> t;
        std::vector<double> v;
        for (int i = 0; i < count; ++i) {
            t.push_back(kNow - qint64(count - i) * 1000);
            v.push_back(f(i));
        }
        store.merge(key, {}, t, v);
    }
};

// Pixels of about this colour; a thin antialiased line straddling two rows is lighter, hence
// a tolerance (sum of the channel differences).
int countColor(const QImage &image, const QRect &area, QColor color, int tolerance = 60)
{
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
                             std::abs(c.blue() - color.blue()) <
                         tolerance
                     ? 1
                     : 0;
        }
    }
    return n;
}

} // namespace

TEST_F(Fixture, DrawsStoreSamplesDecimatedWithLegendStatistics)
{
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.resize(800, 300);
    chart.show();
    QSignalSpy rendered(&chart, &TimelineChart::rendered);
    chart.addSeries(QStringLiteral("a"), QStringLiteral("sent/s"), 0);
    fill(QStringLiteral("a"), 600, [](int i) { return 100.0 + (i % 10); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));

    // 600 samples into ~670 columns: nothing to reduce, but never more than 4 per column.
    EXPECT_LE(chart.drawnPointCount(), 4 * chart.plotWidth() + 2);
    ASSERT_EQ(chart.legend().size(), 1);
    const auto &stats = chart.legend().first().stats;
    ASSERT_TRUE(stats.last.has_value());
    EXPECT_DOUBLE_EQ(*stats.last, 109.0);
    EXPECT_DOUBLE_EQ(stats.min, 100.0);
    EXPECT_DOUBLE_EQ(stats.max, 109.0);
    EXPECT_NEAR(stats.mean, 104.5, 1e-9);

    const QImage image = chart.grab().toImage();
    const QRect plot = chart.plotRect().toRect();
    EXPECT_GT(countColor(image, plot, chart.legend().first().color), 200) << "the curve is not drawn";
}

// A live poll binds series as its answers arrive; a rebuild (a panel added from Explore) binds
// them sorted. The legend and the colours are the same either way: adding a panel does not
// reorder the others.
TEST_F(Fixture, SeriesTakeTheirDrawingPlaceWhateverOrderTheyArriveIn)
{
    for (const char *key : {"a", "b", "limit"})
        fill(QString::fromLatin1(key), 60, [](int i) { return 10.0 + i; });
    TimelineChart live(twoSeriesPanel(), &store, &window);
    live.addSeries(QStringLiteral("limit"), QStringLiteral("in-flight limit"), 1);
    live.addSeries(QStringLiteral("b"), QStringLiteral("pod-b sent/s"), 0);
    live.addSeries(QStringLiteral("a"), QStringLiteral("pod-a sent/s"), 0);
    TimelineChart rebuilt(twoSeriesPanel(), &store, &window);
    rebuilt.addSeries(QStringLiteral("a"), QStringLiteral("pod-a sent/s"), 0);
    rebuilt.addSeries(QStringLiteral("b"), QStringLiteral("pod-b sent/s"), 0);
    rebuilt.addSeries(QStringLiteral("limit"), QStringLiteral("in-flight limit"), 1);
    for (TimelineChart *chart : {&live, &rebuilt}) {
        chart->resize(800, 300);
        chart->show();
    }
    ASSERT_TRUE(QTest::qWaitFor([&] { return live.legend().size() == 3 && rebuilt.legend().size() == 3; }, 5000));
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(live.legend()[i].name, rebuilt.legend()[i].name) << i;
        EXPECT_EQ(live.legend()[i].color, rebuilt.legend()[i].color) << i;
    }
    EXPECT_EQ(live.legend()[0].name, QStringLiteral("pod-a sent/s")) << "by query, then by name";
    EXPECT_EQ(live.legend()[2].name, QStringLiteral("in-flight limit"));
}

// At 1280 × 800 a minute that began just after the range's start put its time label under the
// lowest value label, in the plot's bottom-left corner.
TEST(TimelineAxes, NoTimeLabelRunsIntoAValueLabel)
{
    constexpr qint64 kMinute = 1'800'000'000'000; // a whole minute
    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kMinute - 5'000 + 10 * 60'000; }); // the range starts 5 s before it
    window.setWindowMs(10 * 60'000);
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < 600; ++i) {
        t.push_back(kMinute - 5'000 + i * 1000LL);
        v.push_back(-250 + i);
    }
    store.merge(QStringLiteral("a"), {}, t, v);
    store.merge(QStringLiteral("limit"), {}, t, v);
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.addSeries(QStringLiteral("a"), QStringLiteral("sent/s"), 0);
    chart.addSeries(QStringLiteral("limit"), QStringLiteral("limit"), 1);
    chart.resize(620, 260);
    chart.show();
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));
    chart.grab();
    const QList<QRectF> boxes = chart.drawnAxisLabelBoxes();
    ASSERT_GT(boxes.size(), 4);
    for (qsizetype a = 0; a < boxes.size(); ++a) {
        for (qsizetype b = a + 1; b < boxes.size(); ++b)
            EXPECT_FALSE(boxes[a].intersects(boxes[b])) << a << " and " << b;
    }
}

TEST_F(Fixture, ManySamplesAreReducedToAFewPerPixelColumnAndASpikeSurvives)
{
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.resize(700, 300);
    chart.show();
    chart.addSeries(QStringLiteral("dense"), QStringLiteral("dense"), 0);
    // 100 samples a second for 10 minutes, one spike in the middle.
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < 60'000; ++i) {
        t.push_back(kNow - 600'000 + qint64(i) * 10);
        v.push_back(i == 30'000 ? 1000.0 : 1.0);
    }
    store.merge(QStringLiteral("dense"), {}, t, v);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));
    EXPECT_LE(chart.drawnPointCount(), 4 * chart.plotWidth() + 2);
    EXPECT_DOUBLE_EQ(chart.legend().first().stats.max, 1000.0) << "the spike must survive";
}

TEST_F(Fixture, SourceDownIsWrittenInThePlotNotAFlatLine)
{
    PanelWidget panel(twoSeriesPanel(), &store, &window);
    panel.resize(800, 320);
    panel.show();
    const QImage before = panel.grab().toImage();
    PanelStatus status;
    status.state = PanelStatus::State::SourceDown;
    status.message = QStringLiteral("Prometheus at http://127.0.0.1:1/ refused the connection");
    panel.setStatus(status);
    QTest::qWait(0);
    const QImage after = panel.grab().toImage();
    EXPECT_NE(before, after) << "the state must change what is drawn";
    const QRect plot = panel.chart()->plotRect().toRect().translated(panel.chart()->pos());
    EXPECT_GT(countColor(after, plot, QColor(0xB0, 0x00, 0x20)), 30) << "no red source-down message in the plot";
}

TEST_F(Fixture, DragSelectsATimeRangeAndDoubleClickAsksForLive)
{
    TimelineChart chart(twoSeriesPanel(), &store, &window);
    chart.resize(864, 300); // plot width 864 - 128 = 736 px for 10 minutes
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QSignalSpy selected(&chart, &TimelineChart::rangeSelected);
    QSignalSpy reset(&chart, &TimelineChart::resetRequested);
    const QRectF plot = chart.plotRect();
    const QPoint from(int(plot.left() + plot.width() * 0.25), int(plot.center().y()));
    const QPoint to(int(plot.left() + plot.width() * 0.75), int(plot.center().y()));
    QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(chart.viewport(), to);
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, to);
    ASSERT_EQ(selected.size(), 1);
    const auto range = selected.first().first().value<TimeRange>();
    const TimeRange visible = window.range();
    EXPECT_NEAR(double(range.startMs - visible.startMs), visible.length() * 0.25, 2000.0);
    EXPECT_NEAR(double(range.endMs - visible.startMs), visible.length() * 0.75, 2000.0);

    QTest::mouseDClick(chart.viewport(), Qt::LeftButton, {}, from);
    EXPECT_GE(reset.size(), 1);
}

// --- The curves are drawn by the chart itself (SeriesLayer) ---------------------------------

namespace {

PanelDefinition onePanel(SeriesStyle style)
{
    PanelDefinition panel;
    panel.title = QStringLiteral("One");
    panel.unit = QStringLiteral("ops/s");
    panel.series.push_back(seriesDefinition(QStringLiteral("a"), AxisSide::Left, style));
    panel.series.push_back(seriesDefinition(QStringLiteral("b"), AxisSide::Left, SeriesStyle::Line));
    return panel;
}

// A pixel of a thin antialiased line on white: the colour blended with white by its coverage
// (at least a quarter), whatever the coverage.
bool isTint(QColor pixel, QColor color)
{
    const int full = (255 - color.red()) + (255 - color.green()) + (255 - color.blue());
    const int seen = (255 - pixel.red()) + (255 - pixel.green()) + (255 - pixel.blue());
    if (full <= 0 || seen < full / 4)
        return false;
    const double a = std::min(1.0, double(seen) / full);
    auto expected = [a](int channel) { return 255 - a * (255 - channel); };
    return std::abs(pixel.red() - expected(color.red())) + std::abs(pixel.green() - expected(color.green())) +
               std::abs(pixel.blue() - expected(color.blue())) <
           40;
}

int countTint(const QImage &image, const QRect &area, QColor color)
{
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x)
            n += isTint(image.pixelColor(x, y), color) ? 1 : 0;
    }
    return n;
}

// The rows of one pixel column where the series' colour is.
std::vector<int> rowsWithColor(const QImage &image, int x, const QRect &plot, QColor color)
{
    std::vector<int> rows;
    for (int y = plot.top(); y <= plot.bottom(); ++y) {
        if (isTint(image.pixelColor(x, y), color))
            rows.push_back(y);
    }
    return rows;
}

// Counts the viewport's paints and what they covered.
class PaintProbe : public QObject
{
public:
    explicit PaintProbe(QWidget *target) { target->installEventFilter(this); }
    QRegion painted;
    int paints = 0;
    bool markerPainted = false;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            const QRegion region = static_cast<QPaintEvent *>(event)->region();
            ++paints;
            painted += region;
            markerPainted = markerPainted || region.contains(QPoint(0, 0));
        }
        return false;
    }
};

// Waits until everything the chart asked to repaint so far has been painted: a marker update
// of one pixel outside the plot is queued behind it and awaited.
bool flushPaints(TimelineChart &chart, PaintProbe &probe)
{
    probe.markerPainted = false;
    chart.viewport()->update(QRect(0, 0, 1, 1));
    return QTest::qWaitFor([&] { return probe.markerPainted; }, 5000);
}

} // namespace

TEST_F(Fixture, ASpikeOfOneSampleInAMillionIsVisibleInThePixels)
{
    window.setWindowMs(1'000'000); // 1 M samples, one a millisecond
    TimelineChart chart(onePanel(SeriesStyle::Line), &store, &window);
    chart.resize(700, 300);
    chart.show();
    chart.addSeries(QStringLiteral("dense"), QStringLiteral("dense"), 0);
    constexpr int kCount = 1'000'000;
    constexpr int kSpike = 612'345;
    std::vector<qint64> t(kCount);
    std::vector<double> v(kCount, 10.0);
    for (int i = 0; i < kCount; ++i)
        t[std::size_t(i)] = kNow - kCount + i;
    v[kSpike] = 1000.0;
    store.merge(QStringLiteral("dense"), {}, t, v);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 10000));

    const QImage image = chart.grab().toImage();
    const QRect plot = chart.plotRect().toRect();
    const QColor color = chart.legend().first().color;
    const int spikeX = int(chart.plotRect().left() + chart.plotRect().width() * double(kSpike) / kCount);
    // The spike reaches the top of the scale (0–1000) in its column; elsewhere the line stays low.
    int topRows = 0;
    for (int x = spikeX - 2; x <= spikeX + 2; ++x) {
        for (int y : rowsWithColor(image, x, plot, color))
            topRows += y < plot.top() + plot.height() / 10 ? 1 : 0;
    }
    EXPECT_GT(topRows, 0) << "the single-sample spike is not in the picture";
    const int elsewhere = countTint(image, QRect(plot.left(), plot.top(), plot.width() / 3, plot.height() / 2), color);
    EXPECT_EQ(elsewhere, 0) << "only the spike goes up";
    EXPECT_GT(countTint(image, QRect(plot.left(), plot.bottom() - plot.height() / 10, plot.width(), plot.height() / 10),
                        color),
              plot.width() / 2)
        << "the flat line near the bottom is drawn";
}

TEST_F(Fixture, AGapStaysAGap)
{
    TimelineChart chart(onePanel(SeriesStyle::Line), &store, &window);
    chart.resize(800, 300);
    chart.show();
    chart.addSeries(QStringLiteral("a"), QStringLiteral("a"), 0);
    // 10 minutes at 1 s, with nothing from minute 4 to minute 6.
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < 600; ++i) {
        if (i >= 240 && i < 360)
            continue;
        t.push_back(kNow - 600'000 + qint64(i) * 1000);
        v.push_back(50.0 + 20.0 * std::sin(i / 10.0));
    }
    store.merge(QStringLiteral("a"), {}, t, v);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));

    EXPECT_EQ(chart.drawnPolylines(QStringLiteral("a")).size(), 2u) << "two runs, one either side of the gap";
    const QImage image = chart.grab().toImage();
    const QRectF plot = chart.plotRect();
    const QColor color = chart.legend().first().color;
    auto columnX = [&](int second) { return int(plot.left() + plot.width() * second / 600.0); };
    const QRect gap(QPoint(columnX(240) + 3, int(plot.top())), QPoint(columnX(359) - 3, int(plot.bottom())));
    EXPECT_EQ(countTint(image, gap, color), 0) << "the gap is bridged";
    EXPECT_GT(
        countColor(image, QRect(QPoint(columnX(10), int(plot.top())), QPoint(columnX(230), int(plot.bottom()))), color),
        100);
    EXPECT_GT(countColor(image, QRect(QPoint(columnX(370), int(plot.top())), QPoint(columnX(590), int(plot.bottom()))),
                         color),
              100);
}

TEST_F(Fixture, AStepSeriesDrawsSteps)
{
    TimelineChart chart(onePanel(SeriesStyle::Step), &store, &window);
    chart.resize(800, 300);
    chart.show();
    chart.addSeries(QStringLiteral("limit"), QStringLiteral("limit"), 0);
    // A limit that changes every minute between 10 and 17, sampled every 30 s.
    std::vector<qint64> t;
    std::vector<double> v;
    for (int i = 0; i < 20; ++i) {
        t.push_back(kNow - 600'000 + qint64(i) * 30'000);
        v.push_back((i / 2) % 2 ? 17.0 : 10.0);
    }
    PanelStatus status;
    status.state = PanelStatus::State::Ok;
    status.stepMs = 30'000; // a sample every 30 s is no gap
    chart.setStatus(status);
    store.merge(QStringLiteral("limit"), {}, t, v);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000));

    const auto runs = chart.drawnPolylines(QStringLiteral("limit"));
    ASSERT_EQ(runs.size(), 1u);
    for (qsizetype k = 1; k < runs[0].size(); ++k) {
        const QPointF d = runs[0][k] - runs[0][k - 1];
        EXPECT_TRUE(d.x() == 0 || d.y() == 0) << "a sloped segment at " << k;
    }
    // In the picture: flat between the changes, a vertical edge where the value changes.
    const QImage image = chart.grab().toImage();
    const QRect plot = chart.plotRect().toRect();
    const QColor color = chart.legend().first().color;
    auto xAt = [&](qint64 ms) {
        return int(std::lround(chart.plotRect().left() + chart.plotRect().width() * double(ms) / 600'000.0));
    };
    const auto flat = rowsWithColor(image, xAt(75'000), plot, color); // inside the 60–120 s step at 17
    ASSERT_FALSE(flat.empty());
    EXPECT_LE(flat.back() - flat.front(), 3) << "a step is flat between changes";
    const auto edge = rowsWithColor(image, xAt(60'000), plot, color); // the change from 10 to 17
    ASSERT_FALSE(edge.empty());
    EXPECT_GE(edge.back() - edge.front(), plot.height() / 4) << "the change is a vertical edge, not a slope";
}

TEST_F(Fixture, AHiddenSeriesDrawsNothing)
{
    TimelineChart chart(onePanel(SeriesStyle::Area), &store, &window);
    chart.resize(800, 300);
    chart.show();
    chart.addSeries(QStringLiteral("a"), QStringLiteral("a"), 0);
    chart.addSeries(QStringLiteral("b"), QStringLiteral("b"), 1);
    fill(QStringLiteral("a"), 600, [](int i) { return 100.0 + (i % 10); });
    fill(QStringLiteral("b"), 600, [](int i) { return 40.0 + (i % 7); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0 && chart.legend().size() == 2; }, 5000));
    const QRect plot = chart.plotRect().toRect();
    const QColor a = chart.legend()[0].color;
    const QColor b = chart.legend()[1].color;
    ASSERT_GT(countColor(chart.grab().toImage(), plot, a), 200);

    chart.setSeriesVisible(QStringLiteral("a"), false);
    EXPECT_FALSE(chart.isSeriesVisible(QStringLiteral("a")));
    EXPECT_TRUE(chart.drawnPolylines(QStringLiteral("a")).empty());
    QImage image = chart.grab().toImage();
    EXPECT_EQ(countTint(image, plot, a), 0) << "a hidden series (and its area) is still drawn";
    EXPECT_GT(countColor(image, plot, b), 200) << "the other series went too";

    chart.setSeriesVisible(QStringLiteral("a"), true);
    EXPECT_GT(countColor(chart.grab().toImage(), plot, a), 200);
}

TEST_F(Fixture, ALiveTickThatMovesLessThanHalfAPixelRepaintsNothingAndANewPeakOnlyItsColumn)
{
    qint64 now = kNow;
    window.setClock([&now] { return now; });
    window.setWindowMs(8 * 3'600'000); // 8 h over ~670 px: one second is 1/40 of a pixel
    TimelineChart chart(onePanel(SeriesStyle::Line), &store, &window);
    chart.resize(800, 300);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    chart.addSeries(QStringLiteral("a"), QStringLiteral("a"), 0);
    std::vector<qint64> t;
    std::vector<double> v;
    for (qint64 s = 8 * 3600; s >= 0; --s) {
        t.push_back(now - s * 1000);
        v.push_back(s == 4 * 3600 ? 140.0 : 50.0); // one old peak: the scale is 0–150
    }
    store.merge(QStringLiteral("a"), {}, t, v);
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 10000));
    QSignalSpy rendered(&chart, &TimelineChart::rendered);
    PaintProbe probe(chart.viewport());
    ASSERT_TRUE(flushPaints(chart, probe));
    const QRect plot = chart.plotRect().toRect();

    auto tick = [&](double value) {
        if (!flushPaints(chart, probe))
            return false;
        probe.painted = QRegion();
        rendered.clear();
        now += 1000;
        store.merge(QStringLiteral("a"), {}, std::vector<qint64>{now}, std::vector<double>{value});
        window.advanceToNow();
        return rendered.wait(5000) && flushPaints(chart, probe);
    };
    // The same value again: the line moves by 1/40 px and ends where it ended.
    ASSERT_TRUE(tick(50.0));
    EXPECT_TRUE(probe.painted.intersected(plot).isEmpty())
        << "a tick that changes no pixel repainted " << probe.painted.boundingRect().width() << " px";

    // A new peak in the newest column: that strip is repainted, not the panel.
    ASSERT_TRUE(tick(120.0));
    const QRect strip = probe.painted.intersected(plot).boundingRect();
    EXPECT_FALSE(strip.isEmpty()) << "the peak was not repainted";
    EXPECT_LT(strip.width(), plot.width() / 10);
    EXPECT_GE(strip.right(), plot.right() - 2) << "the repainted strip is at the newest end";
}
