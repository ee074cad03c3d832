// SPDX-License-Identifier: GPL-3.0-or-later
#include "podtemplate.h"

#include "kubejson.h"

#include <QJsonArray>
#include <cmath>

namespace PodTemplate {

QJsonObject makePod(const QJsonObject &workload, const QString &name, const QJsonObject &owner,
                    const QJsonObject &extraLabels, const QString &node)
{
    const QJsonObject podTemplate = KubeJson::at(workload, QStringLiteral("spec.template")).toObject();
    QJsonObject labels = KubeJson::at(podTemplate, QStringLiteral("metadata.labels")).toObject();
    for (auto it = extraLabels.begin(); it != extraLabels.end(); ++it)
        labels.insert(it.key(), it.value());
    QJsonObject metadata{
        {QStringLiteral("name"), name},
        {QStringLiteral("namespace"), KubeJson::at(workload, QStringLiteral("metadata.namespace"))},
        {QStringLiteral("labels"), labels},
        {QStringLiteral("ownerReferences"),
         QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
                                {QStringLiteral("kind"), owner.value(QStringLiteral("kind"))},
                                {QStringLiteral("name"), KubeJson::at(owner, QStringLiteral("metadata.name"))},
                                {QStringLiteral("uid"), KubeJson::at(owner, QStringLiteral("metadata.uid"))},
                                {QStringLiteral("controller"), true},
                                {QStringLiteral("blockOwnerDeletion"), true}}}},
    };
    const QJsonObject annotations = KubeJson::at(podTemplate, QStringLiteral("metadata.annotations")).toObject();
    if (!annotations.isEmpty())
        metadata.insert(QStringLiteral("annotations"), annotations);
    if (owner.value(QStringLiteral("kind")) == QLatin1String("ReplicaSet"))
        metadata.insert(QStringLiteral("generateName"),
                        KubeJson::at(owner, QStringLiteral("metadata.name")).toString() + QLatin1Char('-'));
    QJsonObject spec = podTemplate.value(QStringLiteral("spec")).toObject();
    spec.insert(QStringLiteral("nodeName"), node);
    if (owner.value(QStringLiteral("kind")) == QLatin1String("StatefulSet")) {
        spec.insert(QStringLiteral("hostname"), name);
        spec.insert(QStringLiteral("subdomain"), KubeJson::at(workload, QStringLiteral("spec.serviceName")));
    }
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Pod")},
        {QStringLiteral("metadata"), metadata},
        {QStringLiteral("spec"), spec},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Pending")},
                                               {QStringLiteral("qosClass"), QStringLiteral("Burstable")}}},
    };
}

bool isReady(const QJsonObject &pod)
{
    if (isTerminating(pod))
        return false;
    const QJsonArray statuses = KubeJson::at(pod, QStringLiteral("status.containerStatuses")).toArray();
    if (statuses.isEmpty())
        return false;
    for (const QJsonValue status : statuses)
        if (!status.toObject().value(QStringLiteral("ready")).toBool())
            return false;
    return true;
}

bool isTerminating(const QJsonObject &pod)
{
    return KubeJson::at(pod, QStringLiteral("metadata.deletionTimestamp")).isString();
}

QString ownerName(const QJsonObject &pod, const QString &ownerKind)
{
    for (const QJsonValue owner : KubeJson::at(pod, QStringLiteral("metadata.ownerReferences")).toArray()) {
        const QJsonObject reference = owner.toObject();
        if (reference.value(QStringLiteral("kind")) == ownerKind)
            return reference.value(QStringLiteral("name")).toString();
    }
    return QString();
}

QString name(const QJsonObject &object)
{
    return KubeJson::at(object, QStringLiteral("metadata.name")).toString();
}

QString label(const QJsonObject &object, const QString &key)
{
    return KubeJson::at(object, QStringLiteral("metadata.labels")).toObject().value(key).toString();
}

int resolveIntOrPercent(const QJsonValue &value, int replicas, bool roundUp, int fallback)
{
    if (value.isDouble())
        return value.toInt();
    if (value.isString() && value.toString().endsWith(QLatin1Char('%'))) {
        const double percent = value.toString().chopped(1).toDouble();
        const double exact = replicas * percent / 100.0;
        return static_cast<int>(roundUp ? std::ceil(exact) : std::floor(exact));
    }
    return fallback;
}

} // namespace PodTemplate
