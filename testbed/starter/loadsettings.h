// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QtGlobal>

// The set-points an operator steers through the admin API. Read by the scheduler on every
// tick, so a change takes effect on the next tick.
struct LoadSettings
{
    double rate = 0;          // requests per second; 0 sends nothing
    qint32 inflightLimit = 0; // 0 = unlimited
    bool paused = false;
    qint64 version = 0; // incremented by every applied change
};

// An If-Match precondition: the versions a client accepts. Empty = no precondition (or "*").
struct VersionMatch
{
    QList<qint64> versions;

    bool accepts(qint64 version) const { return versions.isEmpty() || versions.contains(version); }
};
