// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/clusterseries.h"

#include "kubernetes/clustercontroller.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QDateTime>

ClusterSeriesRecorder::ClusterSeriesRecorder(ClusterController *cluster, SampleStore *store, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_store(store), m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    connect(cluster, &ClusterController::workloadsChanged, this, &ClusterSeriesRecorder::record);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &ClusterSeriesRecorder::record);
    m_tick.start();
}

void ClusterSeriesRecorder::record()
{
    // While the watches are broken the replicas are not known: a gap, not the last value
    // carried on as if seen.
    if (!m_cluster->isHealthy())
        return;
    const std::vector<qint64> now{m_clock()};
    for (const Workload &w : m_cluster->workloads()) {
        m_store->merge(SeriesKey::kubernetes(w.name, QStringLiteral("desired")), {}, now,
                       std::vector<double>{double(w.desired)});
        m_store->merge(SeriesKey::kubernetes(w.name, QStringLiteral("ready")), {}, now,
                       std::vector<double>{double(w.ready)});
    }
}
