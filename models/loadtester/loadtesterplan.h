// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <functional>

// Which load tester to steer, from the command line and the dashboard file together. The
// command line wins field by field (an --admin list replaces the file's replicas; an
// --admin-token-file replaces the file's token source), so one dashboard file serves a team
// while each person can point it elsewhere.
//
// Tokens: read from the file or environment variable the dashboard names; the token itself
// only ever lives in memory. Problems are worded without the token's value.
struct LoadTesterPlan
{
    struct CommandLine
    {
        QString kind;          // empty = not given
        QList<QUrl> adminUrls; // empty = not given
        QString token;         // from --admin-token-file; empty = not given
    };
    using Environment = std::function<QString(const QString &name)>; // "" when unset

    QString kind = QStringLiteral("starter");
    QList<QUrl> adminUrls; // known replicas
    QString discoverJob;   // or: find them from Prometheus' targets of this job
    QString discoverScheme = QStringLiteral("http");
    QString token;
    double spawnRate = 0; // Locust's users per second; 0 = automatic
    QString tokenSource;  // "--admin-token-file", "file /run/secrets/x", "$STARTER_TOKEN"
    QStringList problems; // for the user: token file unreadable, variable unset, …

    bool isSet() const { return !adminUrls.isEmpty() || !discoverJob.isEmpty(); }

    static LoadTesterPlan resolve(const CommandLine &commandLine, const LoadTesterDefinition &fromDashboard,
                                  const Environment &environment);
};
