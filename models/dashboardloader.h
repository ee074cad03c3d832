// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboarddefinition.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// Reads dashboard JSON. Lenient where it can be: a broken panel or series is dropped with an
// issue naming it, the rest still loads, so the app starts and shows what is wrong.
//
// File format (all keys but panels[].series[].query optional):
// {
//   "title": "Testbed", "refresh": "5s", "window": "15m", "columns": 2,
//   "variables": {"namespace": "default"},
//   "panels": [ { "title": "Throughput", "unit": "ops/s", "rightUnit": "",
//                 "series": [ { "query": "sum(rate(x[1m]))", "legend": "{{pod}}",
//                               "axis": "left|right", "style": "line|step|area",
//                               "color": "#0072B2" } ] } ]
// }
// Durations are Prometheus-style strings ("30s", "5m", "1h", "1h30m") or numbers of seconds.
namespace DashboardLoader {

struct LoadResult
{
    DashboardDefinition dashboard;
    QList<DashboardIssue> issues;
    bool usable = false; // false when nothing could be read (not JSON, not an object, ...)
};

LoadResult fromJson(const QByteArray &json);
LoadResult fromFile(const QString &path);          // issues name the file when it cannot be read
LoadResult fromBuiltin(const QString &name);       // name as in builtinNames(), case-insensitive
QStringList builtinNames();                        // e.g. "prometheus-self", "testbed"

// Loads a built-in dashboard when `nameOrPath` names one, else the file at that path.
LoadResult load(const QString &nameOrPath);

// Parses "15s", "5m", "1h30m", "2d" or a plain number of seconds into ms; -1 when invalid.
qint64 parseDurationMs(const QString &text);

} // namespace DashboardLoader
