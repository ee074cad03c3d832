// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRectF>
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <vector>

// Where a painted figure put things, in the picture's logical pixels: every piece of text with
// the box its ink takes, each panel's plot, and each annotation label with the line it belongs
// to. FigurePainter fills it as it paints, so the figure-layout test checks the rules of a
// publishable picture (no text on text, every label at its line, plots at least half their
// panel, nothing outside the picture) on the very rectangles that were drawn.
struct FigureLayout
{
    enum class Role
    {
        Title,
        Subtitle,
        Caption,
        WindowTitle, // a comparison's column header
        PanelTitle,
        ValueLabel,
        TimeLabel,
        Legend,
        AnnotationLabel, // the whole label box, text and coloured edge
        AnnotationNumber,
        Key, // one entry of the key of numbered annotations
        NoData,
        StatValue, // a stat tile's big number, or the series' name under it
    };
    struct Text
    {
        Role role = Role::Title;
        QRectF rect;
        QString text;
        int cell = -1; // the panel it belongs to; -1: the figure's
    };
    struct Label
    {
        quint64 annotation = 0;
        QRectF box;
        double lineX = 0;
        bool leftOfLine = false;
        int number = 0; // a numbered box the key explains
        int cell = -1;  // the cell whose label band holds it (the top of its column)
    };
    // An annotation's line drawn in a plot: every panel that shows it draws its line, only
    // the top panel of a column its label.
    struct Line
    {
        quint64 annotation = 0;
        double x = 0;
        int cell = -1;
    };
    struct Cell
    {
        QRectF rect; // the whole panel: title, plot, time labels, legend
        QRectF plot;
        QRectF labelBand;              // above the plot, where the column's annotation labels stand; or empty
        QStringList leftLabels;        // the left axis' labels drawn, bottom to top
        int legendLevel = 0;           // 0: full statistics … 3: names only
        std::vector<bool> checkFailed; // per check of the panel: its level drawn red (failed) or amber
    };

    QRectF picture;
    std::vector<Text> texts;
    std::vector<Label> labels;
    std::vector<Line> lines;
    std::vector<Cell> cells;
};
