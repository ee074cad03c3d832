// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "dashboard/dashboarddefinition.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <optional>
#include <vector>

class VariablesSection;

// "panels": [{"title", "unit", "rightUnit", "series": [{"query" | "loadTester" | "derive",
// "id", "inputs", "legend", "axis", "style", "color"}]}]. A broken series is dropped, a panel
// with none stays empty (the grid keeps the author's layout); the queries' $variables must
// be declared.
class PanelsSection
{
public:
    PanelsSection(JsonSection &json, const VariablesSection &variables) : m_json(json), m_variables(variables) {}
    void read(const QJsonValue &value, std::vector<PanelDefinition> &panels);
    // Every input of a derived series must name a series id of this dashboard, and an id is
    // used once; a derived series with an unknown input is dropped (it could never be drawn).
    void checkDerivedInputs(DashboardDefinition &dashboard);

private:
    PanelDefinition readPanel(const QJsonObject &object, const QString &path);
    void readThresholds(const QJsonValue &value, const QString &path, PanelDefinition &panel);
    std::optional<SeriesDefinition> readSeries(const QJsonObject &object, const QString &path);
    std::optional<SeriesDefinition> readDerived(const QJsonObject &object, const QString &path,
                                                SeriesDefinition series);
    // The look of a series: legend, axis, style and colour, the same for every kind of series.
    void readLook(const QJsonObject &object, const QString &path, SeriesDefinition &series);

    JsonSection &m_json;
    const VariablesSection &m_variables;
    QStringList m_derivedPaths;      // of the derived series, in the order they end up in the dashboard
    QJsonObject m_seriesUnknownKeys; // of the series readSeries() read last
};
