// SPDX-License-Identifier: GPL-3.0-or-later
// The capacity curve as a reader of the write-up sees it: a point per stair, filled where the
// stair held and hollow where it failed, the measured ceiling as a vertical line at its rate,
// the computed one as a horizontal line at its value, the answer above the plot.
#include "capacity/capacitycurvepainter.h"
#include "capacity/capacitycurveview.h"

#include <QPainter>
#include <QSet>
#include <gtest/gtest.h>

namespace {

StairResult stair(double rate, double completed, bool held, double latency = 0.03)
{
    StairResult result;
    result.rate = rate;
    result.sent = rate;
    result.completed = completed;
    result.latencySeconds = latency;
    result.held = held;
    result.reason = held ? QString() : QStringLiteral("completed %1 % of sent").arg(qRound(100 * completed / rate));
    return result;
}

CapacityCurve engineAt200()
{
    CapacityCurve curve;
    curve.rateUnit = QStringLiteral("/s");
    for (const double rate : {50.0, 100.0, 150.0, 200.0})
        curve.result.stairs.push_back(stair(rate, rate, true));
    curve.result.stairs.push_back(stair(300, 200, false, 2.0));
    curve.result.ceiling = 200;
    curve.result.confirmed = true;
    curve.result.bestCompleted = 200;
    curve.result.computed = 240;
    return curve;
}

bool near(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 60;
}

} // namespace

TEST(CapacityCurve, HeldStairsAreFilledFailedOnesHollowAndTheCeilingsAreWhereTheySay)
{
    const CapacityCurve curve = engineAt200();
    const QSize size(1200, 720);
    const QImage image = curve.render(size, 1.0);
    const ExportTheme theme = ExportTheme::blog();
    const CapacityCurve::Geometry geometry = curve.geometry(QRectF(QPointF(0, 0), QSizeF(size)), theme);
    ASSERT_TRUE(geometry.usable());
    const QColor completed = ExportTheme::seriesColor(0);

    // 150 /s held: its marker is filled with the series colour.
    const QPoint held = geometry.at(150, 150).toPoint();
    EXPECT_TRUE(near(image.pixelColor(held), completed)) << image.pixelColor(held).name().toStdString();
    // 300 /s failed: hollow, the background shows in its middle.
    const QPoint failed = geometry.at(300, 200).toPoint();
    EXPECT_TRUE(near(image.pixelColor(failed), theme.background)) << image.pixelColor(failed).name().toStdString();
    bool ring = false;
    for (int dx = 3; dx <= 6; ++dx)
        ring = ring || near(image.pixelColor(failed + QPoint(dx, 0)), completed);
    EXPECT_TRUE(ring) << "its ring is drawn";

    // The measured ceiling: a dashed vertical line at 200 /s, seen along a stretch low in the
    // plot where nothing else is drawn.
    const int ceilingX = qRound(geometry.at(200, 0).x());
    const int lowY = qRound(geometry.at(0, 40).y());
    int ceilingPixels = 0;
    for (int dy = 0; dy < 40; ++dy) {
        for (int dx = -2; dx <= 2; ++dx)
            ceilingPixels += near(image.pixelColor(ceilingX + dx, lowY + dy), ExportTheme::seriesColor(2)) ? 1 : 0;
    }
    EXPECT_GT(ceilingPixels, 10);
    // The computed ceiling: a dashed horizontal line at 240 /s, right of the points.
    const int computedY = qRound(geometry.at(0, 240).y());
    const int rightX = qRound(geometry.plot.right() - 60);
    int computedPixels = 0;
    for (int dx = 0; dx < 40; ++dx) {
        for (int dy = -2; dy <= 2; ++dy)
            computedPixels += near(image.pixelColor(rightX + dx, computedY + dy), ExportTheme::seriesColor(4)) ? 1 : 0;
    }
    EXPECT_GT(computedPixels, 10);
    // Both scales reach what was offered and completed.
    EXPECT_GE(geometry.rate.high, 300);
    EXPECT_GE(geometry.perSecond.high, 240);
}

TEST(CapacityCurve, TheViewShowsTheAnswerAndSavesTheBlogPicture)
{
    CapacityCurveView view;
    view.resize(600, 400);
    view.setCurve(engineAt200());
    EXPECT_EQ(view.toolTip(), QStringLiteral("ceiling 200 /s, confirmed; the system completed at most 200 /s "
                                             "(computed: 240 /s)"));
    const QImage picture = view.picture();
    EXPECT_EQ(picture.size(), QSize(2400, 1440)) << "twice as fine as its logical size";
    // Drawn on screen too, in the window's colours: not blank.
    QImage screen(view.size(), QImage::Format_ARGB32);
    screen.fill(Qt::black);
    view.render(&screen);
    QSet<QRgb> colours;
    for (int y = 0; y < screen.height(); y += 3) {
        for (int x = 0; x < screen.width(); x += 3)
            colours.insert(screen.pixel(x, y));
    }
    EXPECT_GT(colours.size(), 20);
}
