// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "containerlaunch.h"

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QTimer>
#include <memory>

class QFile;

// One run of a container: a child process in a process group of its own (so that stopping
// it stops whatever it started too), killed by the kernel if the cluster itself dies
// (PR_SET_PDEATHSIG), its output appended to the pod's log. It reports the port from the
// "listening on http://127.0.0.1:<port>" line every testbed program prints.
class ContainerProcess : public QObject
{
    Q_OBJECT
public:
    struct Exit
    {
        int exitCode = 0;       // the kernel's: 128 + signal for a killed process
        int signal = 0;         // 0 when it exited by itself
        bool requested = false; // we asked it to stop
    };

    ContainerProcess(const ContainerLaunch &launch, const QString &logPath, QObject *parent = nullptr);
    ~ContainerProcess() override; // SIGKILL to the group if still running

    void start();
    // SIGTERM to the process group, SIGKILL after `graceSeconds`.
    void terminate(int graceSeconds);
    void kill();

    qint64 pid() const { return m_pid; }
    quint16 port() const { return m_port; }
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    // The output so far (the last 256 KiB).
    QByteArray log() const { return m_log; }

signals:
    void started();
    void listening(quint16 port);
    void failedToStart(const QString &error);
    void exited(const ContainerProcess::Exit &exit);

private:
    void readOutput();
    void append(const QByteArray &data);
    void signalGroup(int signal);

    ContainerLaunch m_launch;
    QProcess m_process;
    std::unique_ptr<QFile> m_logFile;
    QByteArray m_log;
    QByteArray m_stdoutLine;
    qint64 m_pid = 0;
    quint16 m_port = 0;
    bool m_requested = false;
    QTimer m_killTimer;
};
