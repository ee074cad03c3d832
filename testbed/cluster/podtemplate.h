// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

// Pods as the controllers make them from a workload's pod template, and the facts about
// pods every controller needs.
namespace PodTemplate {

// A pod of `workload`'s template: labels plus `extraLabels`, owned by `owner` (a ReplicaSet
// or StatefulSet object), on `node`.
QJsonObject makePod(const QJsonObject &workload, const QString &name, const QJsonObject &owner,
                    const QJsonObject &extraLabels, const QString &node);

bool isReady(const QJsonObject &pod);
bool isTerminating(const QJsonObject &pod);
QString ownerName(const QJsonObject &pod, const QString &ownerKind);
QString name(const QJsonObject &object);
QString label(const QJsonObject &object, const QString &key);

// maxSurge / maxUnavailable: a number, or a percentage of `replicas` (rounded up for the
// surge, down for unavailability, as the deployment controller does).
int resolveIntOrPercent(const QJsonValue &value, int replicas, bool roundUp, int fallback);

} // namespace PodTemplate
