// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/exportfigure.h"
#include "export/exporttheme.h"

#include <QRectF>
#include <optional>

class QPainter;
class SampleStore;

// Draws an ExportFigure with QPainter only: title, subtitle, the panels in a grid (or side by
// side for a comparison), each with value and time axes, its series, the annotations with
// their labels and a legend with statistics, and a caption. It reads the samples straight
// from the store and draws them synchronously, decimated to the picture's pixel columns,
// so a picture never catches a chart half-way through a render, and the same figure gives
// the same picture on a raster image (PNG) and as vectors (SVG: text stays text, each
// series one <path>). Nothing interactive is drawn: no crosshair, no buttons, no hover.
class FigurePainter
{
public:
    FigurePainter(const SampleStore &store, ExportTheme theme);

    // Paints the whole figure into `rect` (logical pixels of the picture).
    void paint(QPainter &painter, const QRectF &rect, const ExportFigure &figure) const;

    // The caption's text (time range in UTC and local time, queries, source, version).
    QString captionText(const ExportFigure &figure) const;

    // A value axis: from low to high with a line every `step`.
    struct Scale
    {
        double low = 0;
        double high = 1;
        double step = 0.25;
    };
    // Round steps (1, 2, 2.5, 5 × 10^k), about five of them; a range starting at 0 when every
    // value is positive, as throughput and queue lengths read best from zero.
    static Scale niceScale(double min, double max, int targetTicks = 5);

private:
    struct Cell
    {
        const ExportFigure::Panel *panel = nullptr;
        TimeRange range;
        std::optional<qint64> zeroMs; // comparison: time counted from here
        std::optional<Scale> left;    // shared scales (comparison); else set from the data
        std::optional<Scale> right;
    };

    // Room for the value labels left and right of a plot.
    struct Gutters
    {
        double left = 0;
        double right = 0;
    };
    Gutters guttersOf(const Cell &cell) const; // its scales must be set
    void paintCell(QPainter &painter, const QRectF &rect, const Cell &cell, const Gutters &gutters,
                   const std::vector<Annotation> &annotations, const QTimeZone &zone) const;
    // Min and max of the finite samples of a panel's series on one axis, over a range.
    std::optional<std::pair<double, double>> dataExtent(const ExportFigure::Panel &panel, AxisSide side,
                                                        const TimeRange &range) const;
    double legendHeight(const Cell &cell, double width) const;
    void paintLegend(QPainter &painter, const QRectF &rect, const Cell &cell) const;
    void paintSeries(QPainter &painter, const QRectF &plot, const Cell &cell, const Scale &left,
                     const Scale &right) const;
    void paintTimeAxis(QPainter &painter, const QRectF &plot, const Cell &cell, const QTimeZone &zone) const;
    void paintAnnotations(QPainter &painter, const QRectF &plot, const Cell &cell,
                          const std::vector<Annotation> &annotations) const;

    const SampleStore &m_store;
    ExportTheme m_theme;
};
