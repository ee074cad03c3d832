// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>

class DashboardPoller;

// Gives the heap that loading history used back to the system. A day's backfill parses tens
// of megabytes of JSON into short-lived objects, spread over the worker threads' malloc
// arenas; glibc keeps those pages mapped, so the app's RSS would stay that much higher for
// the rest of an eight-hour run. Once a load has finished and things are quiet, one
// malloc_trim() returns them. (A no-op without glibc.)
class HeapTrimmer : public QObject
{
    Q_OBJECT
public:
    explicit HeapTrimmer(DashboardPoller *poller, QObject *parent = nullptr);

    // How many times the heap was trimmed (for tests and the log).
    int trims() const { return m_trims; }

private:
    void trim();

    QTimer m_quiet;
    int m_trims = 0;
};
