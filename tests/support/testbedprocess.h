// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>

// A testbed binary (chaoscope-engine, chaoscope-starter) as a child process on a port the OS
// picked: started with --port 0, its port read from the one line it prints when it listens
// ("listening on http://127.0.0.1:<port>"). Its stderr is collected for failure messages.
// Terminated with SIGTERM on stop() or destruction.
class TestbedProcess
{
public:
    TestbedProcess();
    ~TestbedProcess();
    TestbedProcess(const TestbedProcess &) = delete;
    TestbedProcess &operator=(const TestbedProcess &) = delete;

    // `arguments` without --port (added here). False with errorString() when the process
    // did not start or did not print its line within `timeoutMs`.
    bool start(const QString &program, const QStringList &arguments, int timeoutMs = 15000);
    // SIGTERM, then waits; SIGKILL after `timeoutMs`. The exit code, or -1 when it crashed or
    // had to be killed.
    int stop(int timeoutMs = 10000);

    bool isRunning() const;
    qint64 pid() const;
    quint16 port() const { return m_port; }
    QString baseUrl() const;  // http://127.0.0.1:<port>
    QString hostPort() const; // 127.0.0.1:<port>, for a Prometheus target
    QString errorString() const { return m_error; }
    QString log(); // everything it wrote to stderr so far

private:
    void drain();

    std::unique_ptr<QProcess> m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
    quint16 m_port = 0;
    QString m_error;
};
