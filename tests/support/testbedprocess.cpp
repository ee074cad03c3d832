// SPDX-License-Identifier: GPL-3.0-or-later
#include "testbedprocess.h"

#include "waitfor.h"

#include <QFileInfo>
#include <QRegularExpression>

TestbedProcess::TestbedProcess() = default;

TestbedProcess::~TestbedProcess()
{
    stop();
}

bool TestbedProcess::start(const QString &program, const QStringList &arguments, int timeoutMs)
{
    if (!QFileInfo(program).isExecutable()) {
        m_error = QStringLiteral("%1 does not exist or is not executable (not built yet?)").arg(program);
        return false;
    }
    m_process = std::make_unique<QProcess>();
    m_stdout.clear(); // a second start() reads the new process' port, not the old one's
    // Read as it comes, so that a chatty child never blocks on a full pipe.
    QObject::connect(m_process.get(), &QProcess::readyReadStandardError, m_process.get(), [this] { drain(); });
    QObject::connect(m_process.get(), &QProcess::readyReadStandardOutput, m_process.get(), [this] { drain(); });
    m_process->start(program, QStringList{QStringLiteral("--port"), QStringLiteral("0")} + arguments);
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("%1 did not start: %2").arg(program, m_process->errorString());
        return false;
    }
    static const QRegularExpression line(QStringLiteral("^listening on http://127\\.0\\.0\\.1:(\\d+)\n"));
    QRegularExpressionMatch match;
    const bool listening = waitFor(
        [&] {
            drain();
            match = line.match(QString::fromUtf8(m_stdout));
            return match.hasMatch() || m_process->state() != QProcess::Running;
        },
        timeoutMs);
    if (!listening || !match.hasMatch()) {
        m_error = QStringLiteral("%1 did not print its 'listening on' line; stdout: '%2'; stderr: %3")
                      .arg(program, QString::fromUtf8(m_stdout), log());
        return false;
    }
    m_port = match.captured(1).toUShort();
    return true;
}

int TestbedProcess::stop(int timeoutMs)
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return m_process && m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
    m_process->terminate();
    if (!m_process->waitForFinished(timeoutMs)) {
        m_process->kill();
        m_process->waitForFinished(5000);
        return -1;
    }
    drain();
    return m_process->exitStatus() == QProcess::NormalExit ? m_process->exitCode() : -1;
}

bool TestbedProcess::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

qint64 TestbedProcess::pid() const
{
    return m_process ? m_process->processId() : 0;
}

QString TestbedProcess::baseUrl() const
{
    return QStringLiteral("http://") + hostPort();
}

QString TestbedProcess::hostPort() const
{
    return QStringLiteral("127.0.0.1:%1").arg(m_port);
}

QString TestbedProcess::log()
{
    drain();
    return QString::fromUtf8(m_stderr);
}

void TestbedProcess::drain()
{
    if (!m_process)
        return;
    m_stdout += m_process->readAllStandardOutput();
    m_stderr += m_process->readAllStandardError();
}
