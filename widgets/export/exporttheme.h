// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QString>
#include <QStringList>
#include <optional>

// How an exported picture looks. "blog": white, a font shipped with Chaoscope (so a picture
// comes out the same on every machine), larger text and thicker lines than on screen, the
// Okabe–Ito colours; "app": the screen's look, with the system font. Sizes are in logical
// pixels of the picture, so a 2× PNG is the 1× one drawn twice as fine.
struct ExportTheme
{
    QString name;
    QColor background;
    QColor text;
    QColor mutedText; // subtitle, caption, axis labels
    QColor grid;
    QColor axis;        // the plot's frame at the bottom
    QColor checkLevel;  // a check's level: dashed, with its name
    QColor checkFailed; // the same once the check failed in the picture's range
    QString fontFamily;
    double titlePx = 26;
    double subtitlePx = 17;
    double panelTitlePx = 17;
    double axisPx = 13;
    double legendPx = 13;
    double annotationPx = 12;
    double captionPx = 12;
    double lineWidth = 2.5;
    double margin = 24;

    QFont font(double pixelSize, bool bold = false) const;
    // The series palette: Okabe–Ito, the same order as on screen.
    static QColor seriesColor(int index);

    static ExportTheme blog();
    static ExportTheme app();
    // By name ("blog", "app", case-insensitive); nullopt for anything else.
    static std::optional<ExportTheme> named(const QString &name);
    static QStringList names();

    // The shipped font's family, registered from the resources on first use.
    static QString blogFontFamily();
};
