// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QLineF>
#include <QPolygonF>
#include <QRectF>
#include <cstddef>
#include <span>
#include <vector>

// Turns decimated samples into what a painter draws: the polylines of a series in pixels.
// Shared by the interactive chart (TimelineChart) and the exported figure (FigurePainter), so
// both draw gaps, steps and areas the same way.
namespace SeriesGeometry {

// Time and value to pixels: plain affine maps, so a whole series is mapped in one pass
// without asking Qt Charts for each point.
struct Mapping
{
    qint64 startMs = 0; // the instant at x0
    double x0 = 0;      // the plot's left edge
    double pxPerMs = 0;
    double low = 0; // the value at y0
    double y0 = 0;  // the centre of the plot's bottom pixel row
    double pxPerUnit = 0;

    static Mapping of(const TimeRange &range, double low, double high, const QRectF &plot);
    double x(qint64 timeMs) const { return x0 + double(timeMs - startMs) * pxPerMs; }
    double y(double value) const { return y0 - (value - low) * pxPerUnit; }
    bool operator==(const Mapping &) const = default;
};

// The runs of consecutive finite samples in [first, last), mapped to pixels; a non-finite
// value (a gap marker, see Decimator::m4) ends a run, so a gap stays a gap. A step series
// holds each value until the next sample's time. A run of one sample is one point.
std::vector<QPolygonF> polylines(std::span<const qint64> timestampsMs, std::span<const double> values,
                                 const Mapping &mapping, bool step, std::size_t first, std::size_t last);
inline std::vector<QPolygonF> polylines(std::span<const qint64> timestampsMs, std::span<const double> values,
                                        const Mapping &mapping, bool step)
{
    return polylines(timestampsMs, values, mapping, step, 0, values.size());
}

// A run as separate lines whose number follows the run's unit columns (pixels), not its
// points, for a pen wider than a column. A decimated dense series has up to four points in
// one pixel column, zig-zagging between its minimum and its maximum; stroked as a polyline
// with a wide antialiased pen, every zig and zag is outlined and filled over the others, and
// the cost grows with the zig-zag (Qt's stroker: 0.5 s for a day of 40 series at 1.6 px).
// Here the points of one column become one vertical line over their extent, at the middle of
// their x, and the segments between columns stay as they are; points of one column closer
// than a unit stay a segment from the first to the last. Drawn as lines with flat caps
// (QPainter::drawLines rasterizes each alone, without a stroker) they cover what the polyline
// with bevel joins would, within the pen's antialiasing: a vertical line ends at the extent
// as a bevel join does. Lines that go straight on from each other are one line, so that a flat
// series has no seams at the joints. A run of one point gives no line.
std::vector<QLineF> columnStrokes(const QPolygonF &run);

// A run closed down to (or up to) baseY: what an area series fills.
QPolygonF areaOf(const QPolygonF &run, double baseY);

} // namespace SeriesGeometry
