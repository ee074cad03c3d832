// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>
#include <functional>

class ClusterController;
class SampleStore;

// Every workload's desired and ready replicas as store series (SeriesKey::kubernetes), from
// the cluster's watches, so that a panel draws seed 004's worker outage as a step to 0 beside
// the jobs handled per second: a sample when they change, and one a second to carry the line
// to now. Recorded with the session like every series.
class ClusterSeriesRecorder : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms

    ClusterSeriesRecorder(ClusterController *cluster, SampleStore *store, QObject *parent = nullptr);
    void setClock(Clock clock) { m_clock = std::move(clock); }
    void record();

private:
    ClusterController *m_cluster;
    SampleStore *m_store;
    Clock m_clock;
    QTimer m_tick;
};
