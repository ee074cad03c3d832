// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "timeline/heatmapgrid.h"
#include "timeline/timeaxismap.h"
#include "timeline/timecursor.h"
#include "timeline/valuescale.h"

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QRect>
#include <QRectF>
#include <QRegion>
#include <QStringList>
#include <optional>
#include <vector>

class QPainter;
class SampleStore;
class SeriesReadout;

// A chart's share of the dashboard's crosshair (TimeCursor): the line at the shared instant,
// a dot on each curve at the sample the read-out shows, and, in the panel under the mouse,
// the instant on the time axis and the read-out box (value, unit, the sample's time) next to
// the mouse. A hover repaints only the strips it changes, and never re-renders a chart.
class ChartCrosshair
{
public:
    // A series of the chart as the read-out lists it.
    struct Series
    {
        QString key;
        QString name;
        QColor color;
        AxisSide axis = AxisSide::Left;
        QString unit;
    };
    // The chart as the crosshair needs it now.
    struct Context
    {
        TimeAxisMap axis; // the visible range over the plot
        const SampleStore *store = nullptr;
        std::vector<Series> series; // in the chart's order
        ValueScale left;
        ValueScale right;
        qint64 stepMs = 0; // the poll step; 0 when unknown
        QFont font;
        const QObject *origin = nullptr; // the chart: the cursor's origin when the mouse is on it
        int height = 0;                  // of the chart's viewport
        // A heatmap panel: no curves (series is empty); the read-out lists the buckets of the
        // column under the crosshair instead, busiest colour first, from the top bucket down.
        const HeatmapGrid *heatmap = nullptr;
        QString unit; // the heatmap's bounds' unit
        bool dark = false;
    };

    void setCursor(TimeCursor *cursor) { m_cursor = cursor; }
    TimeCursor *cursor() const { return m_cursor; }

    // The mouse is at pos (over the plot or not): the cursor follows it.
    void hover(const QPointF &pos, bool inPlot, qint64 timeMs, const QObject *origin);
    void leave(const QObject *origin);
    // The read-out gives way while something else speaks at the mouse (an annotation's
    // tooltip, the note field): two boxes at one spot would each hide the other.
    void setReadoutHidden(bool hidden) { m_readoutHidden = hidden; }
    bool isReadoutHidden() const { return m_readoutHidden; }

    // What a change of the cursor needs repainted: the strips around the old and the new line
    // and the read-out boxes.
    QRegion dirtyRegion(const Context &context) const;
    // The line, under the annotations (hovering a marker must not hide it).
    void paintLine(QPainter *painter, const Context &context);
    // The dots, the time label and the read-out, over everything.
    void paintMarks(QPainter *painter, const Context &context);

    // What the last paint drew, for tests: the line's x, and the read-out's rows as text
    // ("name = value @ hh:mm:ss"; empty when none was drawn).
    std::optional<double> drawnX() const { return m_drawnX; }
    const QStringList &drawnReadout() const { return m_drawnReadout; }
    const QString &drawnReadoutTitle() const { return m_drawnReadoutTitle; }

private:
    // The sample of every series nearest to an instant (none in a gap), in series order.
    std::vector<std::optional<NearestSample>> samplesAt(const Context &context, qint64 timeMs) const;
    SeriesReadout readoutFor(const Context &context, qint64 timeMs,
                             const std::vector<std::optional<NearestSample>> &samples) const;
    static SeriesReadout heatmapReadout(const Context &context, qint64 timeMs);
    static bool hasReadout(const Context &context) { return !context.series.empty() || context.heatmap; }
    std::optional<QRectF> readoutRect(const Context &context) const; // where the read-out goes now
    bool visible(const Context &context) const;                      // the cursor is set, in the visible range
    static QRect strip(double x, int height);

    TimeCursor *m_cursor = nullptr;
    std::optional<QPointF> m_hoverPos; // viewport coordinates, while the mouse is here
    std::optional<double> m_drawnX;
    QStringList m_drawnReadout;
    QString m_drawnReadoutTitle;
    QRectF m_drawnReadoutRect;
    bool m_readoutHidden = false;
};
