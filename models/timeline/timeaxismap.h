// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QRectF>
#include <algorithm>

// A visible time range laid across a plot: where an instant is drawn and which instant is
// under an x coordinate (both in the plot's coordinates, e.g. a widget's).
struct TimeAxisMap
{
    TimeRange range;
    QRectF plot;

    double xFor(qint64 timeMs) const
    {
        return plot.left() +
               plot.width() * double(timeMs - range.startMs) / double(std::max<qint64>(1, range.length()));
    }
    // The instant under x, clamped to the range.
    qint64 timeAt(double x) const
    {
        const double fraction = std::clamp((x - plot.left()) / std::max(1.0, plot.width()), 0.0, 1.0);
        return range.startMs + qint64(fraction * double(range.length()));
    }
    double msPerPixel() const { return double(std::max<qint64>(1, range.length())) / std::max(1.0, plot.width()); }
};
