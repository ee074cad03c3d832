// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "dashboard/dashboarddefinition.h"
#include "dashboard/loader/variablessection.h"

#include <QJsonValue>

// "kubernetes": {"context": "…", "namespace": "c8-chaos" | "$namespace", "workloads": [names],
// "knobs": [{"workload": "starter", "env": "RATE", "title": "rate"}]}. Where to find the
// cluster and what of it matters; a credential is refused: the kubeconfig holds those.
class KubernetesSection
{
public:
    KubernetesSection(JsonSection &json, const VariablesSection &variables) : m_json(json), m_variables(variables) {}
    void read(const QJsonValue &value, KubernetesDefinition &kubernetes);

private:
    void readKnobs(const QJsonValue &value, const QString &path, KubernetesDefinition &kubernetes);

    JsonSection &m_json;
    const VariablesSection &m_variables;
};
