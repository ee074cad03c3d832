// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QHash>
#include <QJsonArray>
#include <QString>
#include <QStringList>
#include <vector>

// Grafana's `templating.list` as Chaoscope variables: `query` variables whose query is
// `label_values(...)` take their choices from Prometheus, `custom` ones from their list,
// `constant` and `textbox` are fixed values, `interval` ones a list of durations. What has no
// counterpart is named in `notConverted`.
struct GrafanaVariables
{
    std::vector<VariableDefinition> variables;
    QStringList notConverted;
    // Data source variables by every spelling a panel may use ("$ds", "${ds}", "[[ds]]"),
    // to the plugin type they select ("prometheus"): a panel reading from one is still a
    // Prometheus panel.
    QHash<QString, QString> dataSourceTypes;
    // What Grafana had selected, by variable name, for a panel repeated by it: several values,
    // one, or none when the selection is "All" of values only Prometheus knows.
    QHash<QString, QStringList> selectedValues;

    static GrafanaVariables fromTemplating(const QJsonArray &list);

    // `label_values(up{job="x"}, instance)` → {"instance", "up{job=\"x\"}"};
    // `label_values(instance)` → {"instance", ""}. False for any other query.
    static bool parseLabelValues(const QString &query, QString *labelName, QString *labelMatch);
};
