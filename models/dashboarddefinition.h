// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMap>
#include <QString>

#include <vector>

// What a dashboard file describes. Plain values; DashboardModel owns the one live copy.
enum class AxisSide { Left, Right };
enum class SeriesStyle { Line, Step, Area };

struct SeriesDefinition
{
    QString query;          // PromQL; may use $variables
    QString legend;         // template: "{{pod}} sent/s"; empty = the label set
    AxisSide axis = AxisSide::Left;
    SeriesStyle style = SeriesStyle::Line;
    QString color;          // "#RRGGBB"; empty = from the palette (models stay free of QtGui)
};

struct PanelDefinition
{
    QString title;
    QString unit;           // left axis unit: "ops/s", "s", "bytes", "%", "" (plain number)
    QString rightUnit;      // right axis unit, used when a series is on the right axis
    std::vector<SeriesDefinition> series;
};

struct DashboardDefinition
{
    QString title;
    int refreshSeconds = 5;
    qint64 windowMs = 15LL * 60 * 1000;
    int columns = 2;        // panels per grid row
    QMap<QString, QString> variables; // name (without $) -> value
    std::vector<PanelDefinition> panels;
};

// One problem found while reading a dashboard file: where (a JSON path such as
// "panels[2].series[0].query") and why ("missing", "must be a string", ...).
struct DashboardIssue
{
    QString path;
    QString message;
    QString toString() const { return path.isEmpty() ? message : path + QStringLiteral(": ") + message; }
};
