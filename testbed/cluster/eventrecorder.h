// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <map>

class ObjectStore;

// v1 Events about the cluster's objects, as the kubelet and the controllers write them:
// the same reason and message about the same object again only counts up (what the
// event correlator does for a BackOff every few seconds). At most `limit` events are kept.
class EventRecorder
{
public:
    EventRecorder(ObjectStore &store, QString node, int limit = 1000);

    // `object` is the involved object (a Pod, Deployment, ...); `fieldPath` names a
    // container ("spec.containers{starter}") or is empty.
    void normal(const QJsonObject &object, const QString &reason, const QString &message, const QString &component,
                const QString &fieldPath = {});
    void warning(const QJsonObject &object, const QString &reason, const QString &message, const QString &component,
                 const QString &fieldPath = {});

private:
    void record(const QJsonObject &object, const QString &type, const QString &reason, const QString &message,
                const QString &component, const QString &fieldPath);

    ObjectStore &m_store;
    QString m_node;
    int m_limit;
    quint64 m_sequence = 0;
    std::map<QString, QString> m_byKey;          // aggregation key -> event name
    std::map<quint64, QString> m_order;          // sequence -> event name (oldest first)
    std::map<QString, quint64> m_sequenceOfName; // event name -> sequence
};
