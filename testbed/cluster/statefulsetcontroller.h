// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

class EventRecorder;
class Kubelet;
class ObjectStore;

// The statefulset controller, OrderedReady: pods <name>-0, <name>-1, ... are created one at
// a time, each when the ones before it are ready; scaling in removes the highest ordinal
// first; a new template is rolled out from the highest ordinal down, a pod deleted and made
// again at the new revision, one at a time.
class StatefulSetController
{
public:
    StatefulSetController(ObjectStore &store, Kubelet &kubelet, EventRecorder &events, QString node);

    void reconcile(const QJsonObject &statefulSet);

private:
    void createPod(const QJsonObject &statefulSet, int ordinal, const QString &revision);
    void deletePod(const QJsonObject &statefulSet, const QJsonObject &pod);
    void writeStatus(const QJsonObject &statefulSet, const QString &revision);

    ObjectStore &m_store;
    Kubelet &m_kubelet;
    EventRecorder &m_events;
    QString m_node;
};
