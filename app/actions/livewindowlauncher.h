// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QUrl>

// Starts another Chaoscope window showing a dashboard live, against the Prometheus this one
// uses and reaching it the same way (`connectionArguments`: AppOptions::connectionArguments,
// file names and headers, never a secret). Its own process, so the run shown here keeps
// polling and recording undisturbed.
struct LiveWindowLauncher
{
    QUrl prometheusUrl;
    QStringList connectionArguments;

    QStringList arguments(const QString &dashboardNameOrPath) const;
    // False when the process could not be started.
    bool start(const QString &dashboardNameOrPath) const;
};
