// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clusterconfig.h"

#include <QJsonObject>

// The objects of the config file as the API shows them: a Namespace, and each workload as a
// Deployment (rolling update one pod at a time: maxSurge 1, maxUnavailable 0) or a
// StatefulSet, with a pod template whose one container is the testbed program.
namespace Manifests {

QJsonObject namespaceObject(const QString &name);
QJsonObject workload(const WorkloadSpec &spec, const ClusterConfig &config);
QJsonObject node(const ClusterConfig &config);

// autoscaling/v1 Scale of a Deployment or StatefulSet (its /scale subresource).
QJsonObject scale(const QJsonObject &workload);

// The pod template's labels as a selector string ("app=starter").
QString selectorText(const QJsonObject &workload);

} // namespace Manifests
