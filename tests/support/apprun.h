// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

// The app as a user or a script runs it: the built chaoscope binary, offscreen, with these
// arguments, waited for. What it printed and how it ended, for the tests to assert.
struct AppRun
{
    int exitCode = -1; // -1: it crashed or did not finish in time (err says which)
    QString out;
    QString err;
};

AppRun runChaoscope(const QStringList &arguments, int timeoutMs = 120000);
// The same, with this process's event loop running meanwhile: for a run against a FaultServer
// (or anything else) that lives in the test's own thread.
AppRun runChaoscopeServing(const QStringList &arguments, int timeoutMs = 120000);
