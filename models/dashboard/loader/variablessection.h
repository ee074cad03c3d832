// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "dashboard/dashboarddefinition.h"

#include <QJsonValue>
#include <QStringList>
#include <optional>
#include <vector>

// "variables": {"job": "starter", "namespace": {"labelValues": {...}, "default": "x"}}, or
// the same as an array of objects with a "name", which keeps the toolbar in file order.
class VariablesSection
{
public:
    explicit VariablesSection(JsonSection &json) : m_json(json) {}
    void read(const QJsonValue &value, std::vector<VariableDefinition> &variables);
    // Every $name a query uses must be declared: an undeclared one would reach Prometheus as
    // written and fail there, far from the typo.
    void checkQuery(const QString &query, const QString &path) const;

private:
    std::optional<VariableDefinition> readVariable(const QString &name, const QJsonValue &value, const QString &path,
                                                   bool inArray);

    JsonSection &m_json;
    QStringList m_declaredVariables;
};
