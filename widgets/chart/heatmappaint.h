// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "timeline/heatmapgrid.h"

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

class QPainter;

// How a heatmap panel is painted, on screen (TimelineChart) and in an export (FigurePainter)
// alike: the cells over the plot, the bucket bounds on the left axis, the colour scale in the
// right gutter. The caller gives the look (its theme's colours and font).
class HeatmapPaint
{
public:
    struct Look
    {
        QFont font;
        QColor text;       // labels
        QColor background; // of the plot: what an empty cell shows
        bool dark = false; // a dark theme: a full bucket is bright, not dark
    };

    // The grid over a plot: `edges` are its rows' (Heatmap::rowEdges), `range` what the plot
    // shows of time.
    HeatmapPaint(const HeatmapGrid &grid, std::vector<double> edges, const TimeRange &range, const QRectF &plot,
                 Look look);

    // The colour of a cell on a scale up to `max`: by the square root of its share, so that a
    // bucket with a tenth of the busiest one still shows; none (transparent) for an empty one.
    static QColor colorFor(double value, double max, bool dark);

    // The row's band in the plot, and the cell's rectangle (clipped to the plot).
    double rowTop(int row) const;
    double rowBottom(int row) const;
    QRectF cellRect(int column, int row) const;
    // The row under a y in the plot; -1 outside it.
    int rowAt(double y) const;

    // A label as painted: its box and its text.
    struct Label
    {
        QRectF box;
        QString text;
    };

    // The cells; the open (+inf) row is hatched over, as it has no upper bound.
    void paintCells(QPainter *painter) const;
    // The bucket bounds at their row edges, right-aligned against `labelRight`, in the
    // panel's unit, and the open bucket ("> 10 s") in the middle of its row; bounds that
    // would touch the label below or the open one are left out. The drawn ones, bottom to
    // top.
    std::vector<Label> paintBucketLabels(QPainter *painter, double labelRight, const QString &unit) const;
    // The colour scale as a bar in `area` (the gutter right of the plot), 0 at the bottom and
    // the busiest cell at the top. The drawn labels, bottom to top.
    std::vector<Label> paintScale(QPainter *painter, const QRectF &area) const;
    static QStringList textsOf(const std::vector<Label> &labels);

private:
    const HeatmapGrid &m_grid;
    std::vector<double> m_edges;
    TimeRange m_range;
    QRectF m_plot;
    Look m_look;
};
