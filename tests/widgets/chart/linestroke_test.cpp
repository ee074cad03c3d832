// SPDX-License-Identifier: GPL-3.0-or-later
// A wide pen costs what the pixel columns cost, and looks as the stroked polyline does: the
// chart and the exported picture draw a run with more than a point per column as vertical
// lines per column (SeriesGeometry::columnStrokes, LineStroke::draw). What a reader would see
// differ is a line thinner or fatter than the pen, a spike cut off, a dash lost.
#include "chart/linestroke.h"
#include "chart/seriesgeometry.h"

#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QRandomGenerator>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace {

constexpr int kWidth = 600;
constexpr int kHeight = 300;
constexpr double kPen = 1.6;
const QColor kColor(200, 40, 60);

// A dense decimated series: per pixel column its first, minimum, maximum and last point (as
// Decimator::m4 emits them), a noisy level with a spike and a step.
QPolygonF denseRun()
{
    QRandomGenerator random(7);
    QPolygonF run;
    double level = 150;
    for (int column = 10; column < kWidth - 10; ++column) {
        level += (random.generateDouble() - 0.5) * 3;
        if (column == 300)
            level -= 60;                                                             // a step
        const double spread = column == 200 ? 90 : 4 + random.generateDouble() * 12; // a spike at 200
        const double low = level - spread / 2;
        const double high = level + spread / 2;
        const double first = low + random.generateDouble() * spread;
        const double last = low + random.generateDouble() * spread;
        run << QPointF(column + 0.1, first) << QPointF(column + 0.35, low) << QPointF(column + 0.6, high)
            << QPointF(column + 0.9, last);
    }
    return run;
}

// A sparse one: a point every 3 px, as a 15 min window at 1 s draws on a wide plot.
QPolygonF sparseRun()
{
    QPolygonF run;
    for (int k = 0; 10 + 3 * k < kWidth - 10; ++k) {
        const double x = 10 + 3 * k + 0.4;
        run << QPointF(x, 150 + 80 * std::sin(x / 23.0) + ((k / 20) % 2 ? 25 : 0));
    }
    return run;
}

QImage blank()
{
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    return image;
}

QPen pen(Qt::PenStyle style = Qt::SolidLine)
{
    QPen p(kColor, kPen, style, Qt::FlatCap, Qt::BevelJoin);
    p.setCosmetic(true);
    return p;
}

// The reference: the whole run stroked as one path by Qt's stroker (what a polyline draws).
QImage strokedAsPath(const QPolygonF &run)
{
    QImage image = blank();
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addPolygon(run);
    painter.strokePath(path, pen());
    return image;
}

QImage strokedByLineStroke(const QPolygonF &run, Qt::PenStyle style = Qt::SolidLine)
{
    QImage image = blank();
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    LineStroke::draw(&painter, pen(style), run);
    return image;
}

// How much of a pixel the line covers, from how far it is from white towards the colour.
double coverage(QRgb pixel)
{
    const double away = (255 - qRed(pixel)) + (255 - qGreen(pixel)) + (255 - qBlue(pixel));
    const double full = (255 - kColor.red()) + (255 - kColor.green()) + (255 - kColor.blue());
    return std::clamp(away / full, 0.0, 1.0);
}

struct Difference
{
    int covered = 0; // pixels at least half covered in the reference
    int lost = 0;    // of those, hardly covered (under a fifth) in the other picture
    int added = 0;   // hardly covered in the reference, at least half in the other
};

Difference compare(const QImage &reference, const QImage &other)
{
    Difference d;
    for (int y = 0; y < kHeight; ++y) {
        const auto *a = reinterpret_cast<const QRgb *>(reference.constScanLine(y));
        const auto *b = reinterpret_cast<const QRgb *>(other.constScanLine(y));
        for (int x = 0; x < kWidth; ++x) {
            const double ca = coverage(a[x]);
            const double cb = coverage(b[x]);
            d.covered += ca >= 0.5 ? 1 : 0;
            d.lost += ca >= 0.5 && cb < 0.2 ? 1 : 0;
            d.added += ca < 0.2 && cb >= 0.5 ? 1 : 0;
        }
    }
    return d;
}

// The rows of column x that the line covers at least half.
std::pair<int, int> coveredRows(const QImage &image, int x)
{
    int top = kHeight;
    int bottom = -1;
    for (int y = 0; y < kHeight; ++y) {
        if (coverage(image.pixel(x, y)) >= 0.5) {
            top = std::min(top, y);
            bottom = std::max(bottom, y);
        }
    }
    return {top, bottom};
}

} // namespace

TEST(ColumnStrokes, SparseRunKeepsItsPathJoiningOnlyStraightSegments)
{
    const QPolygonF run = sparseRun();
    const std::vector<QLineF> lines = SeriesGeometry::columnStrokes(run);
    ASSERT_FALSE(lines.empty());
    ASSERT_LE(lines.size(), std::size_t(run.size() - 1));
    EXPECT_EQ(lines.front().p1(), run.first());
    EXPECT_EQ(lines.back().p2(), run.last());
    for (std::size_t k = 1; k < lines.size(); ++k)
        ASSERT_EQ(lines[k - 1].p2(), lines[k].p1()) << "the path breaks at line " << k;
    // Every sample lies on the path, within the tolerance of a straight joint.
    for (const QPointF &p : run) {
        const bool onALine = std::any_of(lines.begin(), lines.end(), [&](const QLineF &line) {
            const QPointF d = line.p2() - line.p1();
            const QPointF v = p - line.p1();
            const double length2 = QPointF::dotProduct(d, d);
            const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(v, d) / length2, 0.0, 1.0) : 0;
            const QPointF nearest = line.p1() + t * d;
            return std::hypot(p.x() - nearest.x(), p.y() - nearest.y()) < 0.06;
        });
        EXPECT_TRUE(onALine) << p.x() << "," << p.y();
    }
}

TEST(ColumnStrokes, AFlatSeriesIsOneLine)
{
    QPolygonF run;
    for (int x = 10; x < 500; x += 3)
        run << QPointF(x + 0.5, 80.3);
    const std::vector<QLineF> lines = SeriesGeometry::columnStrokes(run);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], QLineF(run.first(), run.last()));
}

TEST(ColumnStrokes, DenseRunCostsTwoLinesPerColumnWhateverItsPoints)
{
    // A raw day of one series on a plot: 20 samples in each of 1,400 columns.
    QPolygonF run;
    QRandomGenerator random(3);
    for (int k = 0; k < 28'000; ++k)
        run << QPointF(k / 20.0, 100 + random.generateDouble() * 50);
    const std::vector<QLineF> lines = SeriesGeometry::columnStrokes(run);
    EXPECT_LE(lines.size(), std::size_t(2 * 1400));
    EXPECT_GE(lines.size(), std::size_t(1400));
}

TEST(ColumnStrokes, EveryPointOfAColumnLiesOnItsVerticalLine)
{
    const QPolygonF run = denseRun();
    const std::vector<QLineF> lines = SeriesGeometry::columnStrokes(run);
    for (const QPointF &p : run) {
        const bool onALine = std::any_of(lines.begin(), lines.end(), [&](const QLineF &line) {
            const double top = std::min(line.y1(), line.y2());
            const double bottom = std::max(line.y1(), line.y2());
            const double left = std::min(line.x1(), line.x2());
            const double right = std::max(line.x1(), line.x2());
            return p.y() >= top - 1e-9 && p.y() <= bottom + 1e-9 && p.x() >= left - 1 && p.x() <= right + 1;
        });
        EXPECT_TRUE(onALine) << p.x() << "," << p.y();
    }
}

TEST(ColumnStrokes, PointsWithinAPixelStayOneSegmentAndARunOfOnePointNone)
{
    const QPolygonF flat{QPointF(5.1, 40), QPointF(5.5, 40.3), QPointF(5.9, 40.1)};
    const std::vector<QLineF> lines = SeriesGeometry::columnStrokes(flat);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], QLineF(flat[0], flat[2]));
    EXPECT_TRUE(SeriesGeometry::columnStrokes(QPolygonF{QPointF(3, 3)}).empty());
}

TEST(LineStroke, DenseRunLooksAsTheStrokedPolyline)
{
    const QPolygonF run = denseRun();
    const QImage reference = strokedAsPath(run);
    const QImage drawn = strokedByLineStroke(run);
    const Difference d = compare(reference, drawn);
    ASSERT_GT(d.covered, 5000);
    EXPECT_LT(d.lost, d.covered / 100) << "pixels of the polyline missing";
    EXPECT_LT(d.added, d.covered / 100) << "pixels the polyline does not cover";
    // The spike keeps its whole height, and the band its thickness where the series is calm.
    const auto [spikeTop, spikeBottom] = coveredRows(reference, 200);
    const auto [drawnTop, drawnBottom] = coveredRows(drawn, 200);
    EXPECT_NEAR(drawnTop, spikeTop, 1);
    EXPECT_NEAR(drawnBottom, spikeBottom, 1);
}

TEST(LineStroke, SparseRunLooksAsTheStrokedPolyline)
{
    const QPolygonF run = sparseRun();
    const Difference d = compare(strokedAsPath(run), strokedByLineStroke(run));
    ASSERT_GT(d.covered, 600);
    EXPECT_LT(d.lost, d.covered / 50);
    EXPECT_LT(d.added, d.covered / 50);
}

TEST(LineStroke, AFlatLineHasNoSeamsAtItsSamples)
{
    // A set-point or a pool size: flat for minutes. Lines meeting end to end would leave a
    // lighter pixel at every sample, a dotted look.
    QPolygonF run;
    for (int x = 10; x < kWidth - 10; x += 3)
        run << QPointF(x + 0.3, 100.4);
    const QImage drawn = strokedByLineStroke(run);
    double lightest = 1;
    double darkest = 0;
    for (int x = 20; x < kWidth - 20; ++x) {
        const double c = coverage(drawn.pixel(x, 100));
        lightest = std::min(lightest, c);
        darkest = std::max(darkest, c);
    }
    EXPECT_GT(darkest, 0.5);
    EXPECT_LT(darkest - lightest, 0.05) << "coverage along the line varies from " << lightest << " to " << darkest;
}

TEST(LineStroke, DashedWidePenKeepsItsDashes)
{
    // A horizontal dashed line: its gaps stay gaps (no vertical lines per column replace it).
    QPolygonF run;
    for (int x = 10; x < kWidth - 10; x += 2)
        run << QPointF(x + 0.5, 100.5);
    const QImage drawn = strokedByLineStroke(run, Qt::DashLine);
    int covered = 0;
    int gaps = 0;
    for (int x = 20; x < kWidth - 20; ++x) {
        const bool on = coverage(drawn.pixel(x, 100)) >= 0.5;
        covered += on ? 1 : 0;
        gaps += on ? 0 : 1;
    }
    EXPECT_GT(covered, (kWidth - 40) / 3);
    EXPECT_GT(gaps, (kWidth - 40) / 5);
}

TEST(LineStroke, OnePixelPenAndALonePointAreDrawn)
{
    QImage image = blank();
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen thin(kColor, 1);
    thin.setCosmetic(true);
    LineStroke::draw(&painter, thin, QPolygonF{QPointF(10.5, 20.5), QPointF(100.5, 20.5)});
    LineStroke::draw(&painter, pen(), QPolygonF{QPointF(300.5, 200.5)});
    painter.end();
    EXPECT_GE(coverage(image.pixel(50, 20)), 0.9);
    EXPECT_GE(coverage(image.pixel(300, 200)), 0.3);
    EXPECT_LT(coverage(image.pixel(50, 24)), 0.1);
}
