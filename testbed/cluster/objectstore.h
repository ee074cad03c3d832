// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <deque>
#include <map>
#include <optional>
#include <vector>

// Every object the cluster holds (namespaces, deployments, statefulsets, replicasets, pods,
// events), with one resourceVersion counter as etcd's revision, and the recent changes a
// watch can start from. A watch asking for a version older than that history gets 410 Gone.
//
// An update that changes nothing is not a change: no new resourceVersion, no event (the
// controllers write status on every reconcile, and that must not wake every watch).
class ObjectStore : public QObject
{
    Q_OBJECT
public:
    struct Change
    {
        qint64 resourceVersion = 0;
        QString type; // ADDED, MODIFIED, DELETED
        QString resource;
        QJsonObject object;
    };

    explicit ObjectStore(int historySize = 1000, QObject *parent = nullptr);

    qint64 resourceVersion() const { return m_version; }
    // Watches may start at any version from this one on (earlier ones are compacted).
    qint64 oldestWatchableVersion() const { return m_compacted; }

    std::optional<QJsonObject> get(const QString &resource, const QString &ns, const QString &name) const;
    // `ns` empty: every namespace. Ordered by namespace, then name.
    QList<QJsonObject> list(const QString &resource, const QString &ns = {}) const;

    // Stamps uid, creationTimestamp, resourceVersion and generation; the stored object.
    QJsonObject create(const QString &resource, QJsonObject object);
    // Replaces the object of the same namespace and name; bumps the generation when the
    // spec changed. Returns the stored object (unchanged, when nothing changed).
    QJsonObject update(const QString &resource, QJsonObject object);
    void remove(const QString &resource, const QString &ns, const QString &name);

    // The changes after `resourceVersion`, oldest first (only valid from the oldest
    // watchable version on).
    std::vector<Change> changesSince(qint64 resourceVersion) const;

signals:
    void changed(const ObjectStore::Change &change);

private:
    static QString keyOf(const QString &ns, const QString &name);
    void record(const QString &type, const QString &resource, const QJsonObject &object);

    int m_historySize;
    qint64 m_version = 0;
    qint64 m_compacted = 0;
    std::map<QString, std::map<QString, QJsonObject>> m_objects; // resource -> ns/name -> object
    std::deque<Change> m_history;
};
