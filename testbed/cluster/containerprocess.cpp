// SPDX-License-Identifier: GPL-3.0-or-later
#include "containerprocess.h"

#include <QFile>
#include <QRegularExpression>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace {

constexpr qsizetype maxLogBytes = 256LL * 1024;

} // namespace

ContainerProcess::ContainerProcess(const ContainerLaunch &launch, const QString &logPath, QObject *parent)
    : QObject(parent), m_launch(launch)
{
    if (!logPath.isEmpty()) {
        m_logFile = std::make_unique<QFile>(logPath);
        if (!m_logFile->open(QIODevice::WriteOnly | QIODevice::Append))
            m_logFile.reset();
    }
    m_killTimer.setSingleShot(true);
    connect(&m_killTimer, &QTimer::timeout, this, [this] { signalGroup(SIGKILL); });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &ContainerProcess::readOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] { append(m_process.readAllStandardError()); });
    connect(&m_process, &QProcess::started, this, [this] {
        m_pid = m_process.processId();
        emit started();
    });
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            emit failedToStart(m_process.errorString());
    });
    connect(&m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        m_killTimer.stop();
        readOutput();
        append(m_process.readAllStandardError());
        // The group may hold children that outlived their parent.
        if (m_pid > 0)
            ::kill(-static_cast<pid_t>(m_pid), SIGKILL);
        Exit exit;
        exit.requested = m_requested;
        if (status == QProcess::CrashExit) {
            exit.signal = code; // Qt reports the terminating signal here
            exit.exitCode = 128 + code;
        } else {
            exit.exitCode = code;
        }
        emit exited(exit);
    });
}

ContainerProcess::~ContainerProcess()
{
    if (isRunning()) {
        signalGroup(SIGKILL);
        m_process.waitForFinished(2000);
    }
}

void ContainerProcess::start()
{
    const pid_t cluster = ::getpid();
    m_process.setChildProcessModifier([cluster] {
        // Async-signal-safe calls only: this runs in the child between fork and exec.
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != cluster) // the cluster died before prctl took effect
            ::_exit(127);
    });
    m_process.setProcessEnvironment(m_launch.environment);
    m_process.start(m_launch.program, m_launch.arguments);
}

void ContainerProcess::terminate(int graceSeconds)
{
    if (!isRunning())
        return;
    m_requested = true;
    signalGroup(SIGTERM);
    m_killTimer.start(std::max(0, graceSeconds) * 1000);
}

void ContainerProcess::kill()
{
    m_requested = true;
    signalGroup(SIGKILL);
}

void ContainerProcess::signalGroup(int signal)
{
    if (m_pid > 0 && isRunning())
        ::kill(-static_cast<pid_t>(m_pid), signal);
}

void ContainerProcess::readOutput()
{
    const QByteArray data = m_process.readAllStandardOutput();
    append(data);
    if (m_port != 0)
        return;
    m_stdoutLine += data;
    static const QRegularExpression line(QStringLiteral("(?:^|\\n)listening on http://127\\.0\\.0\\.1:(\\d+)\\n"));
    const QRegularExpressionMatch match = line.match(QString::fromUtf8(m_stdoutLine));
    if (match.hasMatch()) {
        m_port = match.captured(1).toUShort();
        m_stdoutLine.clear();
        emit listening(m_port);
    } else if (m_stdoutLine.size() > 64LL * 1024) {
        m_stdoutLine = m_stdoutLine.right(1024);
    }
}

void ContainerProcess::append(const QByteArray &data)
{
    if (data.isEmpty())
        return;
    if (m_logFile) {
        m_logFile->write(data);
        m_logFile->flush();
    }
    m_log += data;
    if (m_log.size() > maxLogBytes)
        m_log = m_log.right(maxLogBytes);
}
