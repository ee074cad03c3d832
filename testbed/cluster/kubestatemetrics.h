// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

class ObjectStore;

// kube-state-metrics' names and labels for what the cluster holds: desired and ready
// replicas of Deployments and StatefulSets, pod phases, container readiness, restarts and
// the reason of the last termination (OOMKilled, Error), resource limits and requests.
namespace KubeStateMetrics {

QByteArray render(const ObjectStore &store, const QString &node);

} // namespace KubeStateMetrics
