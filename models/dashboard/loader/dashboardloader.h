// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

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
//   "variables": {"job": "starter",
//                 "namespace": {"title": "Namespace", "labelValues": {"label": "namespace",
//                               "match": "up"}, "default": "default"},
//                 "partition": {"values": ["1", "2"], "default": "1", "includeAll": true}},
//   (or an array of objects with a "name", which keeps the order; docs/dashboards.md)
//   "panels": [ { "title": "Throughput", "unit": "ops/s", "rightUnit": "",
//                 "series": [ { "query": "sum(rate(x[1m]))", "legend": "{{pod}}",
//                               "axis": "left|right", "style": "line|step|area",
//                               "color": "#0072B2" } ] } ],
//   "detectors": [ { "kind": "throughputDrop", "series": "<id>", "dropPercent": 30 } ],
//   "checks": [ { "name": "no timeouts", "series": "<id>" | "query": "…", "holds": "<= 0",
//                 "for": "10s", "during": ["<annotation text>"] } ]   (CheckReader)
// }
// Durations are Prometheus-style strings ("30s", "5m", "1h", "1h30m", "500ms") or numbers
// of seconds.
//
// Every issue names the JSON path and why, e.g. `panels[2].series[0].query: missing`,
// `refresh: "5x" is not a duration`, `panels[0].series[1].axis: must be "left" or "right"`.
// What happens to the element:
// - a value of the wrong type or out of range: reported, the default is kept (refresh below
//   1s is raised to 1s);
// - an unknown key: reported (with a "did you mean" when it is close to a known one, so a
//   typo does not vanish silently) and ignored; the element it is in is kept;
// - a series that is not an object or has no usable query: dropped;
// - a panel that is not an object: dropped;
// - a panel with no usable series: kept, shown empty, with an issue on its "series" path,
//   so the grid keeps the layout the author wrote and the problem is shown where it is;
// - "axis" and "style" values are accepted in any letter case; "color" must be "#RRGGBB".
// usable is false only when nothing could be read: not JSON (the issue gives "line L,
// column C"), not an object, a file that cannot be read, an unknown built-in.
namespace DashboardLoader {

struct LoadResult
{
    DashboardDefinition dashboard;
    QList<DashboardIssue> issues;
    bool usable = false; // false when nothing could be read (not JSON, not an object, ...)
};

LoadResult fromJson(const QByteArray &json);
LoadResult fromFile(const QString &path);    // issues name the file when it cannot be read
LoadResult fromBuiltin(const QString &name); // name as in builtinNames(), case-insensitive
QStringList builtinNames();                  // e.g. "prometheus-self", "testbed"; sorted
// A built-in name wins over a file or folder of that name in the working folder: the demo runs
// `--dashboard testbed` from the source tree, which has a folder "testbed".
bool isBuiltinName(const QString &nameOrPath);

// Loads a built-in dashboard when `nameOrPath` names one, else the file at that path.
LoadResult load(const QString &nameOrPath);

} // namespace DashboardLoader
