// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "podrunner.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <map>
#include <memory>

// The node agent: one PodRunner per pod, started when a controller creates the pod, stopped
// when it is deleted (and the pod removed once its container is gone). On shutdown every
// container gets SIGTERM at once, and SIGKILL if it is still there after its grace period.
class Kubelet : public QObject
{
    Q_OBJECT
public:
    struct Target
    {
        QString ns;
        QString pod;
        QString container;
        QJsonObject labels;
        quint16 port = 0;
        bool ready = false;
    };

    Kubelet(PodRunner::Environment environment, QObject *parent = nullptr);
    ~Kubelet() override;

    // The pod is in the store already.
    void runPod(const QString &ns, const QString &name);
    void deletePod(const QString &ns, const QString &name, int graceSeconds);
    bool hasPod(const QString &ns, const QString &name) const;

    // The container's output; `previous`: of the run before the last restart.
    std::optional<QByteArray> logs(const QString &ns, const QString &name, bool previous) const;
    QList<qint64> pids() const;

    void shutdown(int maxGraceSeconds);
    bool isShutDown() const { return m_shuttingDown && m_runners.empty(); }

signals:
    void podsChanged();
    void allStopped();

private:
    static QString keyOf(const QString &ns, const QString &name);
    void remove(const QString &key);

    PodRunner::Environment m_env;
    std::map<QString, std::unique_ptr<PodRunner>> m_runners;
    bool m_shuttingDown = false;
};
