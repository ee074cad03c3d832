// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/workloadtablemodel.h"

#include "kubernetes/clustercontroller.h"

namespace {

// "250m / 500m", "– / 1", "–" when neither is set: request / limit, over every container.
QString pair(const Workload &w, QString Workload::Container::*request, QString Workload::Container::*limit)
{
    QStringList parts;
    for (const Workload::Container &c : w.containers) {
        const QString r = c.*request;
        const QString l = c.*limit;
        if (r.isEmpty() && l.isEmpty())
            parts << QStringLiteral("–");
        else
            parts << QStringLiteral("%1 / %2").arg(r.isEmpty() ? QStringLiteral("–") : r,
                                                   l.isEmpty() ? QStringLiteral("–") : l);
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

WorkloadTableModel::WorkloadTableModel(ClusterController *controller, QObject *parent)
    : QAbstractTableModel(parent), m_controller(controller)
{
    // The set changes rarely and is small (a namespace's workloads): a reset keeps it simple.
    connect(controller, &ClusterController::workloadsChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
    // Pods change more often (a restart loop): only the restarts column is told.
    connect(controller, &ClusterController::podsChanged, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, RestartsColumn), index(rowCount() - 1, RestartsColumn));
    });
}

void WorkloadTableModel::setDefinition(const KubernetesDefinition &definition)
{
    beginResetModel();
    m_definition = definition;
    endResetModel();
}

std::vector<KnobDefinition> WorkloadTableModel::knobsOf(const QString &workload) const
{
    std::vector<KnobDefinition> knobs;
    for (const KnobDefinition &knob : m_definition.knobs) {
        if (knob.workload == workload)
            knobs.push_back(knob);
    }
    return knobs;
}

WorkloadTableModel::Light WorkloadTableModel::lightOf(const Workload &w)
{
    if (w.desired == 0 && w.ready == 0)
        return Light::Stopped;
    if (w.ready == 0)
        return Light::Down;
    return w.isRolledOut() ? Light::Ready : Light::Progressing;
}

int WorkloadTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_controller->workloads().size());
}

int WorkloadTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WorkloadTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Workload &w = m_controller->workloads()[std::size_t(index.row())];
    switch (role) {
    case KeyRole:
        return w.key();
    case RolledOutRole:
        return w.isRolledOut();
    case LightRole:
        return int(lightOf(w));
    case MattersRole:
        return m_definition.workloads.isEmpty() || m_definition.workloads.contains(w.name);
    case Qt::ToolTipRole:
        return toolTip(w, index.column());
    case Qt::DisplayRole:
        return display(w, index.column());
    default:
        return {};
    }
}

QVariant WorkloadTableModel::display(const Workload &w, int column) const
{
    switch (column) {
    case NameColumn:
        return w.name;
    case KindColumn:
        return w.kindName();
    case ReadyColumn:
        return QStringLiteral("%1/%2").arg(w.ready).arg(w.desired);
    case RestartsColumn: {
        const ClusterController::PodSummary pods = m_controller->podsOf(w.key());
        return pods.restarts == 0 || pods.lastReason.isEmpty()
                   ? QString::number(pods.restarts)
                   : QStringLiteral("%1 (%2)").arg(pods.restarts).arg(pods.lastReason.section(QLatin1Char(' '), 0, 0));
    }
    case KnobsColumn: {
        QStringList knobs;
        for (const KnobDefinition &knob : knobsOf(w.name)) {
            QString value;
            for (const Workload::Container &c : w.containers)
                value = value.isEmpty() ? c.env.value(knob.env) : value;
            knobs << QStringLiteral("%1 %2").arg(knob.shownTitle(), value.isEmpty() ? QStringLiteral("–") : value);
        }
        return knobs.join(QStringLiteral(", "));
    }
    case CpuColumn:
        return pair(w, &Workload::Container::cpuRequest, &Workload::Container::cpuLimit);
    case MemoryColumn:
        return pair(w, &Workload::Container::memoryRequest, &Workload::Container::memoryLimit);
    case ImageColumn: {
        QStringList images;
        for (const Workload::Container &c : w.containers)
            images << c.image;
        return images.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QVariant WorkloadTableModel::toolTip(const Workload &w, int column) const
{
    switch (column) {
    case NameColumn:
        switch (lightOf(w)) {
        case Light::Ready:
            return tr("%1: every replica is updated and ready").arg(w.name);
        case Light::Progressing:
            return tr("%1: %2 of %3 ready, %4 updated").arg(w.name).arg(w.ready).arg(w.desired).arg(w.updated);
        case Light::Down:
            return tr("%1: none of %2 replicas ready").arg(w.name).arg(w.desired);
        case Light::Stopped:
            return tr("%1: scaled to 0").arg(w.name);
        }
        return {};
    case ReadyColumn:
        return w.isRolledOut()
                   ? tr("Every replica is updated and ready")
                   : tr("%1 of %2 ready, %3 updated: rolling out").arg(w.ready).arg(w.desired).arg(w.updated);
    case RestartsColumn: {
        const ClusterController::PodSummary pods = m_controller->podsOf(w.key());
        const QString count = tr("%1 container restarts over its %2 pods now").arg(pods.restarts).arg(pods.pods);
        return pods.lastReason.isEmpty() ? count : tr("%1; the last: %2").arg(count, pods.lastReason);
    }
    case KnobsColumn: {
        QStringList knobs;
        for (const KnobDefinition &knob : knobsOf(w.name))
            knobs << tr("%1: env %2").arg(knob.shownTitle(), knob.env);
        return knobs.isEmpty() ? QVariant() : QVariant(knobs.join(QLatin1Char('\n')));
    }
    default:
        return {};
    }
}

QVariant WorkloadTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Workload");
    case KindColumn:
        return tr("Kind");
    case ReadyColumn:
        return tr("Ready");
    case RestartsColumn:
        return tr("Restarts");
    case KnobsColumn:
        return tr("Knobs");
    case CpuColumn:
        return tr("CPU req / limit");
    case MemoryColumn:
        return tr("Memory req / limit");
    case ImageColumn:
        return tr("Image");
    default:
        return {};
    }
}

int WorkloadTableModel::rowOf(const QString &key) const
{
    const auto &workloads = m_controller->workloads();
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        if (workloads[i].key() == key)
            return int(i);
    }
    return -1;
}
