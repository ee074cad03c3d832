// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <map>

class EventRecorder;
class Kubelet;
class ObjectStore;

// The deployment controller, for the cluster's own pods: a ReplicaSet per pod template
// (named <deployment>-<pod-template-hash>), rolling updates within maxSurge and
// maxUnavailable (the config's workloads: one new pod, then one old one stops), Recreate,
// scaling, and the status and conditions kubectl rollout status reads. ReplicaSets are kept
// as the record of revisions; the pods are started and stopped through the kubelet directly.
class DeploymentController
{
public:
    DeploymentController(ObjectStore &store, Kubelet &kubelet, EventRecorder &events, QString node);

    void reconcile(const QJsonObject &deployment);

private:
    struct Pods
    {
        QList<QJsonObject> current; // of the current template, not terminating
        QList<QJsonObject> old;     // of older templates, not terminating
        QList<QJsonObject> terminating;
    };
    Pods podsOf(const QJsonObject &deployment, const QString &hash) const;
    QJsonObject ensureReplicaSet(const QJsonObject &deployment, const QString &hash);
    void createPod(const QJsonObject &deployment, const QJsonObject &replicaSet, const QString &hash);
    void deletePod(const QJsonObject &pod);
    void syncReplicaSets(const QJsonObject &deployment, const QString &hash);
    void writeStatus(const QJsonObject &deployment, const QString &hash);

    ObjectStore &m_store;
    Kubelet &m_kubelet;
    EventRecorder &m_events;
    QString m_node;
    struct Progress
    {
        QString signature; // what the rollout looked like when it last moved
        QDateTime at;
    };
    std::map<QString, Progress> m_progress;
};
