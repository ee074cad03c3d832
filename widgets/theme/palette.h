// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"

#include <QColor>
#include <QString>

// Series colours: the Okabe–Ito palette, safe for the common forms of colour blindness. On a
// light background its yellow is darkened and its black is near black; on a dark one they
// are the original yellow and a light grey, so that every colour keeps its contrast.
namespace Palette {
enum class Background
{
    Light,
    Dark
};

QColor seriesColor(int index, Background background = Background::Light);
// A colour from a dashboard file ("#0072B2", "orange"), or the palette's when empty/invalid.
// On a dark background a file's colour too dark to read (black) is lightened; on a light one,
// a colour too bright to read (Grafana's yellow) is darkened.
QColor resolve(const QString &color, int index, Background background = Background::Light);
// An annotation's marker colour: by who made it (manual, action, scenario, detector), red for
// an action that did not take effect.
QColor annotationColor(Annotation::Source source, bool failed, Background background = Background::Light);
} // namespace Palette
