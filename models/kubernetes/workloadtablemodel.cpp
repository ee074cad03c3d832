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
    if (role == KeyRole)
        return w.key();
    if (role == RolledOutRole)
        return w.isRolledOut();
    if (role == Qt::ToolTipRole && index.column() == ReadyColumn)
        return w.isRolledOut()
                   ? tr("Every replica is updated and ready")
                   : tr("%1 of %2 ready, %3 updated: rolling out").arg(w.ready).arg(w.desired).arg(w.updated);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return w.name;
    case KindColumn:
        return w.kindName();
    case ReadyColumn:
        return QStringLiteral("%1/%2").arg(w.ready).arg(w.desired);
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
