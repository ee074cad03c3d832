// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "theme/palette.h"

#include <QColor>
#include <QObject>
#include <QString>
#include <optional>

// The colours of the application's own chrome and charts, light or dark. People watch the
// dashboard for eight hours, often in a dimmed room, so dark is a first-class theme; pictures
// exported for a blog keep their own (light) ExportTheme whatever is shown on screen.
//
// Qt 6.4 cannot ask the desktop whether it prefers dark (QStyleHints::colorScheme came with
// 6.5), so "System" reads the palette the platform gave the application at start: a window
// colour darker than mid-grey means dark.
class UiTheme : public QObject
{
    Q_OBJECT
public:
    enum class Choice
    {
        System,
        Light,
        Dark
    };

    // Every colour a widget of ours paints with, besides the series' own.
    struct Colors
    {
        QColor window; // behind the panels
        QColor panel;  // a panel's card and its plot
        QColor panelBorder;
        QColor grid;
        QColor axisText;
        QColor text;  // titles, values
        QColor muted; // secondary words: units, "newest 2 s ago"
        QColor crosshair;
        QColor zoomBand;        // the rubber band while dragging a zoom (translucent)
        QColor labelBackground; // boxes over the plot: marker labels, readouts (translucent)
        QColor labelBorder;
        QColor error;            // "source down", failed steps
        QColor warning;          // "query error", warnings
        QColor ok;               // a step or an action that worked
        QColor bannerBackground; // the problems banner above the panels
        QColor bannerText;
        QColor bannerBorder;
    };

    static UiTheme *instance();

    // Applies a choice to the whole application (palette, and the colours below) and
    // announces it with changed(). Light and Dark switch to the Fusion style, which draws
    // every control from the palette; System restores what the platform gave.
    void apply(Choice choice);
    Choice choice() const { return m_choice; }
    bool isDark() const { return m_dark; }
    const Colors &colors() const { return m_colors; }
    Palette::Background background() const { return m_dark ? Palette::Background::Dark : Palette::Background::Light; }

    static QString choiceName(Choice choice); // "system", "light", "dark"
    static std::optional<Choice> choiceFromName(const QString &name);
    static Colors lightColors();
    static Colors darkColors();

    // "#RRGGBB" for style sheets and rich text.
    static QString css(const QColor &color) { return color.name(QColor::HexRgb); }

signals:
    void changed();

private:
    UiTheme();

    Choice m_choice = Choice::System;
    bool m_dark = false;
    Colors m_colors;
    QString m_systemStyle; // the style before a Light/Dark override, restored by System
};
