// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "export/figurelayout.h"
#include "timeline/valuescale.h"

#include <QRectF>
#include <QSizeF>
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

    // Paints the whole figure into `rect` (logical pixels of the picture); with `layout`, says
    // where it put every text, plot and label.
    //
    // A figure lays itself out: a legend gives up statistics (all four, then last and max, then
    // last, then names only) before a plot gets less than half of its panel's height; value
    // labels are thinned where they would touch; a time label that would run into a value label
    // or out of the panel is left out. Annotations never cover the data: every panel that shows
    // one draws its line, and its label stands once per column of panels, in a band above the
    // top panel's plot, whole at its line; one without room there becomes a numbered box
    // explained by a key under the panels.
    void paint(QPainter &painter, const QRectF &rect, const ExportFigure &figure, FigureLayout *layout = nullptr) const;

    // The size to paint a figure at when `requested` is asked for: the same, or taller when
    // even the most compact legends leave a plot less than half its panel or less than
    // kMinPlotHeight (six panels at 800×450 grow to the height they need; the width stays),
    // or wider when a comparison has more columns than kMinColumnWidth allows.
    QSizeF sizeFor(const ExportFigure &figure, QSizeF requested) const;

    // The caption's text (time range in UTC and local time, queries, source, version).
    QString captionText(const ExportFigure &figure) const;

    // The least a plot keeps, in logical pixels, however small its share of the picture:
    // below it a curve's shape no longer reads at blog size, so the picture grows instead.
    static constexpr double kMinPlotHeight = 150;
    // The least a comparison's column is wide: more runs side by side make the picture wider.
    static constexpr double kMinColumnWidth = 320;

private:
    struct Layer;
    struct CellPlan;
    struct Plan;

    // Everything's place for a figure in `rect`, measured and not yet painted.
    Plan plan(const QRectF &rect, const ExportFigure &figure) const;
    // The vertical part of a cell: its legend level and plot; how much taller the cell must be
    // when even names only leave the plot less than half the panel (it is planned so), else 0.
    double fitVertically(CellPlan &cell, double leftGutter, double rightGutter) const;
    // The annotations a cell shows, as lines.
    void planAnnotations(CellPlan &cell, const ExportFigure &figure) const;
    // The labels of every column: in the band above its top cell, for what any of its cells
    // shows. Returns the band height the labels need (the same for every column).
    double planLabelBands(Plan &plan, int columns) const;
    // Whether each check of the cell's panel failed in its range (red instead of amber).
    static void judgeChecks(CellPlan &cell);
    // Min and max of the finite samples of a cell's series on one axis (every layer's, each
    // over its own time), with its checks' levels.
    std::optional<std::pair<double, double>> dataExtent(const CellPlan &cell, AxisSide side) const;
    double legendHeight(const CellPlan &cell, double width, int level) const;

    // The comparison's cells: a column per window, or one cell per panel with every window's
    // series overlaid (its marks moved to the time since their window's zero).
    void planComparison(Plan &plan, const ExportFigure &figure) const;
    void paintCell(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const;
    void paintLegend(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const;
    void paintSeries(QPainter &painter, const CellPlan &cell) const;
    void paintChecks(QPainter &painter, const CellPlan &cell) const; // levels, dashed, with their names
    void paintStatValues(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const;
    void paintHeatmap(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const;
    void paintTimeAxis(QPainter &painter, const CellPlan &cell, int index, const QTimeZone &zone,
                       FigureLayout *layout) const;
    void paintAnnotations(QPainter &painter, const CellPlan &cell, int index, const Plan &plan,
                          FigureLayout *layout) const;
    void paintKey(QPainter &painter, const Plan &plan, FigureLayout *layout) const;

    const SampleStore &m_store;
    ExportTheme m_theme;
};
