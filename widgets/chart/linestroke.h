// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPen>
#include <QPolygonF>

class QPainter;

// Strokes one run of a series (SeriesGeometry::polylines) with the painter's raster engine at
// a cost that follows the plot's pixel columns, whatever the pen. Shared by the chart
// (SeriesLayer) and the exported pictures (FigurePainter), so both draw a wide pen alike.
//   - 1 device pixel or less: one polyline, the raster engine's cosmetic fast path;
//   - wider and solid: SeriesGeometry::columnStrokes, drawn as separate lines with flat caps
//     (at 1.6 px a day of 40 series draws 3 times faster than as polylines in pieces, the
//     same pixels within the antialiasing: docs/performance.md, linestroke_test);
//   - wider and dashed: the polyline in short pieces, each continuing the previous one's dashes.
// A run of one point is drawn as a point. The painter's pen is the given one afterwards.
namespace LineStroke {

void draw(QPainter *painter, const QPen &pen, const QPolygonF &run);

} // namespace LineStroke
