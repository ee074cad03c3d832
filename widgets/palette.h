// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotation.h"

#include <QColor>
#include <QString>

// Series colours: the Okabe–Ito palette, safe for the common forms of colour blindness and
// readable on a light background (its yellow is darkened for that).
namespace Palette {
QColor seriesColor(int index);
// A colour from a dashboard file ("#0072B2", "orange"), or the palette's when empty/invalid.
QColor resolve(const QString &color, int index);
// An annotation's marker colour: by who made it (manual, action, scenario, detector), red for
// an action that did not take effect.
QColor annotationColor(Annotation::Source source, bool failed);
} // namespace Palette
