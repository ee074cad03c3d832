// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QObject>
#include <QSet>
#include <QTimer>
#include <functional>
#include <optional>
#include <vector>

class ClusterController;
struct Workload;
class SampleStore;

// Every workload's desired and ready replicas as store series (SeriesKey::kubernetes), from
// the cluster's watches, so that a panel draws seed 004's worker outage as a step to 0 beside
// the jobs handled per second: a sample when they change, and one a second to carry the line
// to now. The knobs' env vars too, where their value is a number ("kubernetes/starter/env/
// RATE"): the capacity raised mid-run is a step beside the fill level. Another namespace
// breaks every line (a NaN sample): the workloads of two namespaces are not one line.
// Recorded with the session like every series.
class ClusterSeriesRecorder : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms

    ClusterSeriesRecorder(ClusterController *cluster, SampleStore *store, QObject *parent = nullptr);
    void setClock(Clock clock) { m_clock = std::move(clock); }
    void record();
    // The env vars to record (the dashboard's knobs and "env" series); one entry per pair.
    void setKnobs(const std::vector<KnobDefinition> &knobs) { m_knobs = knobs; }
    // An env var's value as a number: "100", "0.5"; nullopt for "1800ms", "fast" or a var
    // the workload's containers do not set.
    static std::optional<double> knobValue(const Workload &workload, const QString &env);

private:
    ClusterController *m_cluster;
    SampleStore *m_store;
    Clock m_clock;
    QTimer m_tick;
    std::vector<KnobDefinition> m_knobs;
    QSet<QString> m_written; // the keys recorded so far, to break at a namespace switch
};
