// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

class ClusterController;

// The Cluster dock's table: one row per Deployment or StatefulSet of the namespace, as the
// controller's watches keep them: name, kind, ready / desired, the containers' CPU and memory
// (request / limit) and image. KeyRole gives a row's workload key ("deployments/worker").
class WorkloadTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        KindColumn,
        ReadyColumn,
        CpuColumn,
        MemoryColumn,
        ImageColumn,
        ColumnCount
    };
    static constexpr int KeyRole = Qt::UserRole + 1;
    static constexpr int RolledOutRole = Qt::UserRole + 2; // bool: every replica updated and ready

    explicit WorkloadTableModel(ClusterController *controller, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    int rowOf(const QString &key) const;

private:
    ClusterController *m_controller;
};
