// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

// What the Cluster dock shows of a Deployment or StatefulSet and what a change to it is told
// by: its replicas wanted and ready, its containers' image, resources and env, and whether
// the last change has rolled out. A plain value read from the API object.
struct Workload
{
    enum class Kind
    {
        Deployment,
        StatefulSet,
    };
    struct Container
    {
        QString name;
        QString image;
        QMap<QString, QString> env; // plain values only; valueFrom entries are left out
        QString cpuRequest;
        QString cpuLimit;
        QString memoryRequest;
        QString memoryLimit;
        bool operator==(const Container &) const = default;
    };

    Kind kind = Kind::Deployment;
    QString name;
    QString resourceVersion;
    qint64 generation = 0;
    qint64 observedGeneration = 0;
    int desired = 0;
    int ready = 0;
    int updated = 0;
    int current = 0; // every pod, old template or new (status.replicas)
    std::vector<Container> containers;
    QString restartedAt; // the pod template's restart stamp (`kubectl rollout restart`)
    // spec.selector.matchLabels: which pods are this workload's (a pod's owner is a
    // ReplicaSet for a Deployment, so labels are what ties it to its workload).
    QMap<QString, QString> selector;

    QString kindName() const; // "Deployment"
    QString resource() const; // "deployments"
    QString key() const { return resource() + QLatin1Char('/') + name; }
    // The controller has seen the last change, every replica is updated and ready, and no pod
    // of the old template is left (as `kubectl rollout status` decides: a surge pod ready next
    // to the old one is not done).
    bool isRolledOut() const;
    // Whether a pod with these labels is one of this workload's; never for an empty selector.
    bool selects(const QJsonObject &podLabels) const;

    // An API object of this kind; an error naming what is missing.
    static Result<Workload> fromJson(const QJsonObject &object, Kind kind);
    // What the spec (not the status) changed from `before` to `after`, in words, one entry
    // per change: "replicas 3 → 5", "cpu limit 500m → 1", "image engine:1 → engine:2",
    // "env RATE 10 → 20", "rollout restart"; a container other than the only one is named: "worker cpu limit …".
    static QStringList specChanges(const Workload &before, const Workload &after);
};
