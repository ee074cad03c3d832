// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "dashboard/loader/jsonsection.h"
#include "dashboard/loader/variablessection.h"

#include <QJsonValue>

// "annotations": [{"name": "restarts", "query": "…", "title": "{{pod}} restarted", "text": "…",
// "tags": ["pod"], "step": "15s", "mode": "points" | "regions" | "changes"}]: queries whose
// samples become marks on the timelines.
class AnnotationsSection
{
public:
    AnnotationsSection(JsonSection &json, const VariablesSection &variables) : m_json(json), m_variables(variables) {}
    void read(const QJsonValue &value, std::vector<AnnotationQueryDefinition> &queries);

private:
    JsonSection &m_json;
    const VariablesSection &m_variables;
};
