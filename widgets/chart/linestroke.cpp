// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/linestroke.h"

#include "chart/seriesgeometry.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

// A dashed wide pen strokes the outline of the whole polyline and fills it, and the cost of
// that fill grows much faster than the number of points (5 s for a day of 40 series at
// 1.6 px); in pieces of this many points it stays about linear.
constexpr qsizetype kDashedPiece = 16;

// The pen's width in device pixels: a cosmetic pen's is; another's scales with the painter.
double deviceWidth(const QPainter *painter, const QPen &pen)
{
    const double width = pen.widthF() > 0 ? pen.widthF() : 1.0;
    if (pen.isCosmetic())
        return width;
    const QTransform &t = painter->deviceTransform();
    return width * std::max(std::abs(t.m11()) + std::abs(t.m21()), std::abs(t.m12()) + std::abs(t.m22()));
}

void drawDashedInPieces(QPainter *painter, QPen pen, const QPolygonF &run)
{
    double travelled = 0; // in pen widths, as dash offsets are
    for (qsizetype begin = 0; begin + 1 < run.size(); begin += kDashedPiece) {
        const qsizetype count = std::min<qsizetype>(kDashedPiece + 1, run.size() - begin);
        pen.setDashOffset(travelled);
        painter->setPen(pen);
        for (qsizetype k = begin + 1; k < begin + count; ++k)
            travelled += QLineF(run[k - 1], run[k]).length() / pen.widthF();
        painter->drawPolyline(run.constData() + begin, int(count));
    }
}

} // namespace

namespace LineStroke {

void draw(QPainter *painter, const QPen &pen, const QPolygonF &run)
{
    painter->setPen(pen);
    if (run.size() == 1) {
        painter->drawPoint(run.constFirst()); // a lone sample between gaps
        return;
    }
    if (run.size() < 2)
        return;
    if (deviceWidth(painter, pen) <= 1 || run.size() <= 2) {
        painter->drawPolyline(run);
        return;
    }
    if (pen.style() != Qt::SolidLine) {
        drawDashedInPieces(painter, pen, run);
        painter->setPen(pen);
        return;
    }
    // Flat caps: a vertical line then ends at the column's minimum and maximum, as the
    // polyline's bevel joins do; square caps cost 15 % more and overshoot there.
    QPen flat(pen);
    flat.setCapStyle(Qt::FlatCap);
    painter->setPen(flat);
    const std::vector<QLineF> lines = SeriesGeometry::columnStrokes(run);
    painter->drawLines(lines.data(), int(lines.size()));
    painter->setPen(pen);
}

} // namespace LineStroke
