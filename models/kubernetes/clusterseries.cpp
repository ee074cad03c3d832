// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/clusterseries.h"

#include "kubernetes/clustercontroller.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QDateTime>
#include <limits>

ClusterSeriesRecorder::ClusterSeriesRecorder(ClusterController *cluster, SampleStore *store, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_store(store), m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    connect(cluster, &ClusterController::workloadsChanged, this, &ClusterSeriesRecorder::record);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &ClusterSeriesRecorder::record);
    m_tick.start();
    connect(cluster, &ClusterController::namespaceChanged, this, [this] {
        const std::vector<qint64> now{m_clock()};
        for (const QString &key : std::as_const(m_written))
            m_store->merge(key, {}, now, std::vector<double>{std::numeric_limits<double>::quiet_NaN()});
        m_written.clear();
    });
}

void ClusterSeriesRecorder::record()
{
    // While the watches are broken the replicas are not known: a gap, not the last value
    // carried on as if seen.
    if (!m_cluster->isHealthy())
        return;
    const std::vector<qint64> now{m_clock()};
    const auto write = [&](const QString &key, double value) {
        m_store->merge(key, {}, now, std::vector<double>{value});
        m_written.insert(key);
    };
    for (const Workload &w : m_cluster->workloads()) {
        write(SeriesKey::kubernetes(w.name, QStringLiteral("desired")), double(w.desired));
        write(SeriesKey::kubernetes(w.name, QStringLiteral("ready")), double(w.ready));
    }
    for (const KnobDefinition &knob : m_knobs) {
        const Workload *w = m_cluster->find(knob.workload);
        if (!w)
            continue;
        if (const std::optional<double> value = knobValue(*w, knob.env))
            write(SeriesKey::kubernetes(w->name, QStringLiteral("env/") + knob.env), *value);
    }
}

std::optional<double> ClusterSeriesRecorder::knobValue(const Workload &workload, const QString &env)
{
    for (const Workload::Container &container : workload.containers) {
        const auto value = container.env.constFind(env);
        if (value == container.env.cend())
            continue;
        bool ok = false;
        const double number = value->trimmed().toDouble(&ok);
        return ok ? std::optional<double>(number) : std::nullopt;
    }
    return std::nullopt;
}
