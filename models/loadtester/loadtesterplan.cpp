// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtesterplan.h"

#include <QFile>
#include <QHostAddress>

namespace {

bool isLoopback(const QUrl &url)
{
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

LoadTesterPlan LoadTesterPlan::resolve(const CommandLine &commandLine, const LoadTesterDefinition &fromDashboard,
                                       const Environment &environment)
{
    LoadTesterPlan plan;
    if (!commandLine.kind.isEmpty())
        plan.kind = commandLine.kind;
    else if (!fromDashboard.kind.isEmpty())
        plan.kind = fromDashboard.kind;

    plan.spawnRate = fromDashboard.spawnRate;

    if (!commandLine.adminUrls.isEmpty()) {
        plan.adminUrls = commandLine.adminUrls;
    } else {
        for (const QString &url : fromDashboard.adminUrls)
            plan.adminUrls.append(QUrl(url));
        if (plan.adminUrls.isEmpty()) {
            plan.discoverJob = fromDashboard.discoverJob;
            plan.discoverScheme = fromDashboard.discoverScheme;
        }
    }

    // A dashboard file may come from anyone. The token it names (a file, a variable) is a
    // secret of this machine, so it is sent only where the file cannot choose a stranger:
    // to loopback, to --admin URLs the user typed, or to replicas the user's own Prometheus
    // lists. Otherwise a shared dashboard could carry a token off to its author's host.
    const bool namesToken = !fromDashboard.tokenFile.isEmpty() || !fromDashboard.tokenEnv.isEmpty();
    const bool urlsFromDashboard = commandLine.adminUrls.isEmpty() && !fromDashboard.adminUrls.isEmpty();
    QString foreignHost;
    if (namesToken && commandLine.token.isEmpty() && urlsFromDashboard) {
        for (const QUrl &url : std::as_const(plan.adminUrls)) {
            if (!isLoopback(url)) {
                foreignHost = url.host();
                break;
            }
        }
    }

    if (!commandLine.token.isEmpty()) {
        plan.token = commandLine.token;
        plan.tokenSource = QStringLiteral("--admin-token-file");
    } else if (!foreignHost.isEmpty()) {
        plan.problems.append(
            QStringLiteral("loadTester.%1: not used: the dashboard sends admin calls to %2, not this machine, and a "
                           "token named by a dashboard file only goes to loopback or to --admin URLs given on the "
                           "command line; give --admin-token-file (or --admin) to send it there")
                .arg(fromDashboard.tokenFile.isEmpty() ? QStringLiteral("tokenEnv") : QStringLiteral("tokenFile"),
                     foreignHost));
    } else if (!fromDashboard.tokenFile.isEmpty()) {
        QFile file(fromDashboard.tokenFile);
        plan.tokenSource = QStringLiteral("file %1").arg(fromDashboard.tokenFile);
        if (file.open(QIODevice::ReadOnly))
            plan.token = QString::fromUtf8(file.readAll()).trimmed();
        else
            plan.problems.append(
                QStringLiteral("loadTester.tokenFile: cannot read %1: %2; the admin calls go without a token")
                    .arg(fromDashboard.tokenFile, file.errorString()));
        if (plan.token.isEmpty() && plan.problems.isEmpty())
            plan.problems.append(QStringLiteral("loadTester.tokenFile: %1 is empty; the admin calls go without a token")
                                     .arg(fromDashboard.tokenFile));
    } else if (!fromDashboard.tokenEnv.isEmpty()) {
        plan.tokenSource = QStringLiteral("$%1").arg(fromDashboard.tokenEnv);
        plan.token = environment ? environment(fromDashboard.tokenEnv).trimmed() : QString();
        if (plan.token.isEmpty())
            plan.problems.append(
                QStringLiteral("loadTester.tokenEnv: $%1 is not set; the admin calls go without a token")
                    .arg(fromDashboard.tokenEnv));
    }
    return plan;
}
