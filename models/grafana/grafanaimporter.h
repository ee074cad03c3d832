// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "dashboard/dashboarddefinition.h"

#include <QByteArray>
#include <QStringList>

// Turns a Grafana dashboard (its JSON model, or the API's {"dashboard": ..., "meta": ...})
// into a Chaoscope dashboard: timeseries and graph panels with Prometheus queries, in
// Grafana's reading order (rows, then top to bottom, left to right), their units, right-axis
// series, and the templating variables Chaoscope can offer. Everything else is named in
// `notConverted`, one line per thing ("panel 'Disk usage' (piechart): panel type not
// supported"), so nothing vanishes silently. docs/dashboards.md lists the mapping.
namespace GrafanaImporter {

struct Conversion
{
    DashboardDefinition dashboard;
    QStringList notConverted;
};

// An error only when there is nothing to convert: not JSON (with line and column), or JSON
// that is not a Grafana dashboard. Anything inside a dashboard that cannot be converted is
// left out and listed instead.
Result<Conversion> fromJson(const QByteArray &json);

} // namespace GrafanaImporter
