// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtesterplan.h"

#include <QFile>

LoadTesterPlan LoadTesterPlan::resolve(const CommandLine &commandLine,
                                       const LoadTesterDefinition &fromDashboard,
                                       const Environment &environment)
{
    LoadTesterPlan plan;
    if (!commandLine.kind.isEmpty())
        plan.kind = commandLine.kind;
    else if (!fromDashboard.kind.isEmpty())
        plan.kind = fromDashboard.kind;

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

    if (!commandLine.token.isEmpty()) {
        plan.token = commandLine.token;
        plan.tokenSource = QStringLiteral("--admin-token-file");
    } else if (!fromDashboard.tokenFile.isEmpty()) {
        QFile file(fromDashboard.tokenFile);
        plan.tokenSource = QStringLiteral("file %1").arg(fromDashboard.tokenFile);
        if (file.open(QIODevice::ReadOnly))
            plan.token = QString::fromUtf8(file.readAll()).trimmed();
        else
            plan.problems.append(QStringLiteral("loadTester.tokenFile: cannot read %1: %2; the admin calls go without a token")
                                     .arg(fromDashboard.tokenFile, file.errorString()));
        if (plan.token.isEmpty() && plan.problems.isEmpty())
            plan.problems.append(QStringLiteral("loadTester.tokenFile: %1 is empty; the admin calls go without a token")
                                     .arg(fromDashboard.tokenFile));
    } else if (!fromDashboard.tokenEnv.isEmpty()) {
        plan.tokenSource = QStringLiteral("$%1").arg(fromDashboard.tokenEnv);
        plan.token = environment ? environment(fromDashboard.tokenEnv).trimmed() : QString();
        if (plan.token.isEmpty())
            plan.problems.append(QStringLiteral("loadTester.tokenEnv: $%1 is not set; the admin calls go without a token")
                                     .arg(fromDashboard.tokenEnv));
    }
    return plan;
}
