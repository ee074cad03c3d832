// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "theme/palette.h"
#include "theme/uitheme.h"

#include <QColor>
#include <QDateTime>
#include <QString>

// The small things every painter of a chart (TimelineChart, its annotation overlay and its
// crosshair) shares: the theme shown now, a colour's translucent shade, an instant as a label.
// Numbers and durations are written by base/format.h, as everywhere else.
namespace ChartPaint {

// Grid, labels, boxes: the colours of the theme shown now (light or dark, see UiTheme).
inline const UiTheme::Colors &themeColors()
{
    return UiTheme::instance()->colors();
}

inline Palette::Background themeBackground()
{
    return UiTheme::instance()->background();
}

// Text in a marker's colour, on a label box of the theme's background: darker on light,
// lighter on dark, so that it keeps its contrast.
inline QColor labelTextColor(const QColor &color)
{
    return UiTheme::instance()->isDark() ? color.lighter(135) : color.darker(115);
}

inline QColor withAlpha(QColor color, double alpha)
{
    color.setAlphaF(float(alpha));
    return color;
}

// An instant as the chart labels it: local time, to the second.
inline QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace ChartPaint
