// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/exporttheme.h"
#include "scenario/ceilingsearch.h"
#include "timeline/valuescale.h"

#include <QImage>
#include <QRectF>
#include <QString>

class QPainter;

// The capacity curve of a ceiling search: offered rate across, completed/s (left axis) and p99
// (right axis) up, a point per stair — filled where it held, hollow where it failed — the
// "completed = offered" diagonal the points leave where the system stops keeping up, the
// measured ceiling as a vertical line and, when the dashboard computes one, the computed
// ceiling as a horizontal one. The app's first chart whose x axis is not time.
struct CapacityCurve
{
    CeilingResult result;
    QString rateUnit;                                 // the load tester's: "/s", "users", "VUs"
    QString title = QStringLiteral("Capacity curve"); // empty in the dock, whose title says it

    // Where things go in a picture of this area: the plot and its three scales (offered rate
    // across, per second up on the left, latency up on the right, all from 0).
    struct Geometry
    {
        QRectF plot;
        ValueScale rate;
        ValueScale perSecond;
        ValueScale latency;

        QPointF at(double offered, double perSecondValue) const;
        double latencyY(double seconds) const;
        bool usable() const { return plot.width() >= 40 && plot.height() >= 40; }
    };
    Geometry geometry(const QRectF &area, const ExportTheme &theme) const;
    // Above the plot: the title (when there is one), the answer, the legend in its rows.
    double headerHeight(const QRectF &area, const ExportTheme &theme) const;

    void paint(QPainter &painter, const QRectF &area, const ExportTheme &theme) const;
    // A picture for a file: the blog theme, drawn at `scale` device pixels per logical pixel.
    QImage render(const QSize &logicalSize, double scale = 1.0) const;
};
