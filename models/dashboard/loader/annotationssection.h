// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "dashboard/dashboarddefinition.h"
#include "dashboard/loader/variablessection.h"

#include <QHash>
#include <QJsonValue>

// "annotations": [{"name": "restarts", "query": "…", "title": "{{pod}} restarted", "text": "…",
// "tags": ["pod"], "step": "15s", "mode": "points" | "regions" | "changes", "panels": ["Pods"],
// "hidden": true}]: queries whose samples become marks on the timelines.
class AnnotationsSection
{
public:
    AnnotationsSection(JsonSection &json, const VariablesSection &variables) : m_json(json), m_variables(variables) {}
    void read(const QJsonValue &value, std::vector<AnnotationQueryDefinition> &queries);
    // After the panels are read: every title in a query's "panels" names one.
    void checkPanels(const DashboardDefinition &dashboard);

private:
    JsonSection &m_json;
    const VariablesSection &m_variables;
    QHash<QString, QString> m_paths; // query name → "annotations[i]", for checkPanels' issues
};
