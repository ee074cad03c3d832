// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "chart/seriesgeometry.h"
#include "dashboard/dashboarddefinition.h"
#include "store/decimator.h"

#include <QColor>
#include <QPolygonF>
#include <QRectF>
#include <QRegion>
#include <vector>

class QPainter;

// The curves of one chart, drawn with QPainter straight from the decimated points: one
// polyline per run of samples with a cosmetic pen, mapped to pixels by plain affine maps.
// Qt Charts keeps only the axes and the grid; it never sees a point, so it never builds a
// path or a hover shape per point.
//
// It also knows which pixels a new set of points changes: a live update that moves the
// picture by less than half a pixel and changes no point by half a pixel repaints nothing,
// one that changes only the newest column repaints only that strip.
class SeriesLayer
{
public:
    struct Series
    {
        Decimator::Points points; // in time order; a non-finite value is a gap
        QColor color;
        QColor fill; // an area's, under the line
        SeriesStyle style = SeriesStyle::Line;
        AxisSide axis = AxisSide::Left;
        bool dashed = false;
        bool visible = true;
    };
    // Where the series are drawn: the time range across the plot, each axis' value range.
    struct View
    {
        TimeRange range;
        double leftLow = 0;
        double leftHigh = 1;
        double rightLow = 0;
        double rightHigh = 1;
        QRectF plot;
    };
    // What a change needs repainted: nothing, some strips of the plot, or everything.
    struct Change
    {
        bool full = false;
        QRegion region; // when not full; empty: nothing changed a pixel
        bool isEmpty() const { return !full && region.isEmpty(); }
    };

    // Takes new points and a new view. When the view moved by less than half a pixel it keeps
    // the one on screen (the points are then drawn at most half a pixel from exact), and
    // returns only the strips whose points moved by half a pixel or more.
    Change update(std::vector<Series> series, const View &view);
    Change setVisible(std::size_t index, bool visible);

    // Paints the visible series, clipped to the plot; only the points near `exposed` are
    // mapped (a crosshair strip repaints a few points, not the whole day).
    void paint(QPainter *painter, const QRectF &exposed) const;

    // The polylines a paint draws for one series, in widget coordinates (for tests).
    std::vector<QPolygonF> polylines(std::size_t index) const;
    const std::vector<Series> &series() const { return m_series; }
    const View &view() const { return m_view; }
    int pointCount() const;

    void setLineWidth(double px) { m_lineWidth = px; }
    double lineWidth() const { return m_lineWidth; }
    void setAntialiased(bool on) { m_antialiased = on; }

private:
    SeriesGeometry::Mapping mappingFor(const View &view, AxisSide axis) const;
    QRectF clipRect() const;
    void addDirty(const Series &series, const SeriesGeometry::Mapping &mapping, std::size_t index,
                  std::vector<std::pair<double, double>> &intervals) const;
    std::vector<std::pair<double, double>> changedColumns(const Series &before, const Series &after,
                                                          const SeriesGeometry::Mapping &mapping) const;

    std::vector<Series> m_series;
    View m_view;
    bool m_valid = false;
    double m_lineWidth = 1.6;
    bool m_antialiased = true;
};
