// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/format.h"

#include <QColor>
#include <QFont>
#include <QRectF>

class QPainter;

// A stat tile's number with its unit written smaller beside it ("150" and then "ops/s"),
// centred in a box: one way for the window and for the exported picture, so both read alike.
namespace StatNumber {

// The unit's size beside the number's.
inline constexpr double kUnitScale = 0.45;

// The largest pixel size (at most maxPx) at which the number and its unit fit the box.
double fittingPixelSize(const QFont &font, const Format::ValueParts &parts, const QSizeF &box, double maxPx);
// Paints them at that size in `color` (the unit too: it is part of the reading); returns the
// box their ink takes.
QRectF paint(QPainter &painter, const QFont &font, double pixelSize, const Format::ValueParts &parts, const QRectF &box,
             const QColor &color);

} // namespace StatNumber
