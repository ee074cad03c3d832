// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/livewindowlauncher.h"

#include <QCoreApplication>
#include <QProcess>

QStringList LiveWindowLauncher::arguments(const QString &dashboardNameOrPath) const
{
    return QStringList{QStringLiteral("--dashboard"), dashboardNameOrPath, QStringLiteral("--prometheus"),
                       prometheusUrl.toString()} +
           connectionArguments;
}

bool LiveWindowLauncher::start(const QString &dashboardNameOrPath) const
{
    return QProcess::startDetached(QCoreApplication::applicationFilePath(), arguments(dashboardNameOrPath));
}
