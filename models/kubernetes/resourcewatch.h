// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"

#include <QFuture>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

class KubeClient;

// One list-and-watch loop for one resource of the namespace, as a Kubernetes informer runs it:
// list (the whole set and its resourceVersion), then watch from there; a stream that ends (the
// server's timeout, a cut connection) resumes from the last version seen, and a version the
// server no longer has (410 Gone, as an answer or an ERROR event) starts again with a list.
// Failures retry with a growing pause and are reported in words; nothing is polled.
class ResourceWatch : public QObject
{
    Q_OBJECT
public:
    ResourceWatch(KubeClient *client, QString groupVersion, QString resource, QObject *parent = nullptr);

    void start();
    void stop();
    QString resource() const { return m_resource; }
    // How many lists it made: 1 after start, one more per 410. For tests.
    int lists() const { return m_lists; }
    QString lastVersion() const { return m_version; }

    // For tests: how long a watch may run before the server ends it.
    void setWatchTimeoutSeconds(int seconds) { m_timeoutSeconds = seconds; }

signals:
    void listed(const QList<QJsonObject> &items);
    void changed(const QString &type, const QJsonObject &object); // ADDED, MODIFIED, DELETED
    // healthy false: listing or watching failed, with the reason; true again once it works.
    void stateChanged(bool healthy, const QString &message);

private:
    void list();
    void watchFrom(const QString &version);
    void failed(const QString &message);

    KubeClient *m_client;
    QString m_groupVersion;
    QString m_resource;
    QString m_version;
    QFuture<void> m_running; // the list or watch in flight, to cancel on stop
    Generation m_epoch;      // advanced by start and stop: answers of an older loop are dropped
    QTimer m_retry;
    int m_failures = 0;
    int m_lists = 0;
    int m_timeoutSeconds = 300;
    bool m_expired = false;
    bool m_healthy = true;
    bool m_stopped = true;
};
