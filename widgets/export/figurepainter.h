// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "timeline/valuescale.h"

#include <QRectF>
#include <QStringList>
#include <optional>
#include <vector>

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

    // What a paint drew of each panel's value axes, for tests that compare a picture with the
    // screen: the plot and the left axis' labels, bottom to top.
    struct DrawnPlot
    {
        QRectF plot;
        QStringList leftLabels;
    };

    // Paints the whole figure into `rect` (logical pixels of the picture); with `drawn`, says
    // what it drew there, one entry per cell.
    void paint(QPainter &painter, const QRectF &rect, const ExportFigure &figure,
               std::vector<DrawnPlot> *drawn = nullptr) const;

    // The caption's text (time range in UTC and local time, queries, source, version).
    QString captionText(const ExportFigure &figure) const;

private:
    struct Cell
    {
        const ExportFigure::Panel *panel = nullptr;
        TimeRange range;
        std::optional<qint64> zeroMs; // comparison: time counted from here
        // The value axes (ValueScale, as on screen); a comparison row shares them.
        std::optional<ValueScale> left;
        std::optional<ValueScale> right;
    };

    // Room for the value labels left and right of a plot.
    struct Gutters
    {
        double left = 0;
        double right = 0;
    };
    Gutters guttersOf(const Cell &cell) const; // its scales must be set
    // Where a cell's plot goes: below its title, above its time labels and legend. Its height
    // does not depend on the gutters, so the scales can be chosen for it first.
    QRectF plotRectOf(const QRectF &rect, const Cell &cell, const Gutters &gutters) const;
    DrawnPlot paintCell(QPainter &painter, const QRectF &rect, const Cell &cell, const Gutters &gutters,
                        const std::vector<Annotation> &annotations, const QTimeZone &zone) const;
    // Min and max of the finite samples of a panel's series on one axis, over a range.
    std::optional<std::pair<double, double>> dataExtent(const ExportFigure::Panel &panel, AxisSide side,
                                                        const TimeRange &range) const;
    double legendHeight(const Cell &cell, double width) const;
    void paintLegend(QPainter &painter, const QRectF &rect, const Cell &cell) const;
    void paintSeries(QPainter &painter, const QRectF &plot, const Cell &cell, const ValueScale &left,
                     const ValueScale &right) const;
    void paintTimeAxis(QPainter &painter, const QRectF &plot, const Cell &cell, const QTimeZone &zone) const;
    void paintAnnotations(QPainter &painter, const QRectF &plot, const Cell &cell,
                          const std::vector<Annotation> &annotations) const;

    const SampleStore &m_store;
    ExportTheme m_theme;
};
