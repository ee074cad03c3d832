// SPDX-License-Identifier: GPL-3.0-or-later
#include "apprun.h"

#include "testpaths.h"
#include "waitfor.h"

#include <QProcess>
#include <QProcessEnvironment>

namespace {

enum class Waiting
{
    Blocked,
    Serving
};

AppRun run(const QStringList &arguments, int timeoutMs, Waiting waiting)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(env);
    process.start(chaoscopeBinary(), arguments);
    AppRun result;
    const bool finished = waiting == Waiting::Blocked
                              ? process.waitForFinished(timeoutMs)
                              : waitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs);
    if (!finished) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("timed out");
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

} // namespace

AppRun runChaoscope(const QStringList &arguments, int timeoutMs)
{
    return run(arguments, timeoutMs, Waiting::Blocked);
}

AppRun runChaoscopeServing(const QStringList &arguments, int timeoutMs)
{
    return run(arguments, timeoutMs, Waiting::Serving);
}
