// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubernetes/workload.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <optional>

// One change Chaoscope makes to a Deployment or StatefulSet, as the dock, the keyboard and
// scenarios ask for it: scale, set a container's CPU / memory requests or limits, set env vars
// (the knobs of a load tester configured at start), or restart the pods as
// `kubectl rollout restart` does. A plain value: what to send, and what the workload should
// look like once the API server has taken it, to read the answer back against.
struct WorkloadChange
{
    enum class Kind
    {
        Scale,
        SetResources,
        SetEnv,
        Restart,
    };

    Kind kind = Kind::Scale;
    QString workload;  // its name, a Deployment or a StatefulSet
    QString container; // empty: the workload's only (or first) container
    int replicas = 0;  // Scale
    // SetResources: "cpu" / "memory" → a quantity ("500m", "256Mi"); keys left out stay.
    QMap<QString, QString> requests;
    QMap<QString, QString> limits;
    QMap<QString, QString> env; // SetEnv: name → value
    QString restartedAt;        // Restart: the time stamp the pod template gets (RFC 3339)

    static WorkloadChange scale(const QString &workload, int replicas);
    static WorkloadChange restart(const QString &workload, const QString &restartedAt);

    // "scale worker to 0", "set starter limits cpu=500m", "set starter env RATE=40",
    // "restart starter" (the scenario log and the dock).
    QString describe() const;
    // What is wrong with it for this workload (no such container, a quantity Kubernetes does
    // not read, negative replicas); nothing when it can be sent.
    std::optional<QString> problem(const Workload &target) const;
    // The workload as it should be once the change is taken (the spec, not the status).
    Workload appliedTo(const Workload &before) const;
    // The request: the subresource ("scale" or none), the body and its content type. A scale
    // is a merge patch of the scale subresource; the rest are strategic merge patches of the
    // pod template, which merge containers and env by name as kubectl's do.
    QString subresource() const;
    QByteArray patchBody(const Workload &target) const;
    QByteArray contentType() const;

    // Whether a quantity is written as Kubernetes reads it ("500m", "1.5", "256Mi", "1G").
    static bool isQuantity(const QString &text);
    // The annotation `kubectl rollout restart` sets on the pod template.
    static QString restartAnnotation() { return QStringLiteral("kubectl.kubernetes.io/restartedAt"); }
};
