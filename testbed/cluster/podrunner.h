// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "containerprocess.h"
#include "readinessprobe.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <memory>

class EventRecorder;
class ObjectStore;
class QNetworkAccessManager;

// What the kubelet does for one pod: runs its container, probes its readiness, restarts it
// when it exits (immediately the first time, then after 10 s, 20 s, ... up to 5 minutes:
// CrashLoopBackOff), tells why it ended (Completed, Error with the exit code, OOMKilled),
// stops it when the pod is deleted, and writes all of it into the pod's status.
class PodRunner : public QObject
{
    Q_OBJECT
public:
    struct Environment
    {
        ObjectStore &store;
        EventRecorder &events;
        QNetworkAccessManager &network;
        const QMap<QString, ImageSpec> &images;
        QStringList binaryDirs;
        QString logDir; // empty: logs only in memory
        int initialBackoffSeconds = 10;
    };

    PodRunner(Environment environment, const QString &ns, const QString &name, QObject *parent = nullptr);
    ~PodRunner() override;

    void start();
    // The pod is being deleted: the container gets SIGTERM, SIGKILL after the grace period;
    // finished() follows when it is gone.
    void terminate(int graceSeconds);

    QString ns() const { return m_ns; }
    QString name() const { return m_name; }
    QString containerName() const { return m_container; }
    qint64 pid() const { return m_process ? m_process->pid() : 0; }
    quint16 port() const { return m_port; }
    bool isRunning() const { return m_process && m_process->isRunning(); }
    bool isTerminating() const { return m_terminating; }
    QByteArray log() const;
    QByteArray previousLog() const { return m_previousLog; }

signals:
    void finished(); // the container is gone and the pod may be removed

private:
    std::optional<QJsonObject> pod() const;
    void run();
    void onStarted();
    void onListening(quint16 port);
    void onReadiness(bool ready, const QString &failure);
    void onExited(const ContainerProcess::Exit &exit);
    void waitBeforeRestart(const QString &reason, const QString &message);
    void writeStatus();
    QJsonObject containerStatus() const;
    QString fieldPath() const;

    Environment m_env;
    QString m_ns;
    QString m_name;
    QString m_container;
    QString m_image;
    bool m_hasMemoryLimit = false;

    std::unique_ptr<ContainerProcess> m_process;
    std::unique_ptr<ReadinessProbe> m_probe;
    QTimer m_restartTimer;
    quint16 m_port = 0;
    bool m_ready = false;
    bool m_started = false; // the container has run at least once
    bool m_terminating = false;
    int m_restartCount = 0;
    int m_backoffSeconds = 0; // the next restart's delay
    QDateTime m_runStartedAt;
    QString m_waitingReason = QStringLiteral("ContainerCreating");
    QString m_waitingMessage;
    QJsonObject m_lastTerminated;
    QByteArray m_previousLog;
    QString m_podStartTime;
};
