// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QAbstractTableModel>

class ClusterController;
struct Workload;

// The Cluster dock's table: one row per Deployment or StatefulSet of the namespace, as the
// controller's watches keep them: name, kind, ready / desired, restarts, the containers' CPU
// and memory (request / limit), the dashboard's knobs with their values, and image.
// KeyRole gives a row's workload key ("deployments/worker"), LightRole its readiness light.
class WorkloadTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn, // with the readiness light (LightRole)
        ReadyColumn,
        RestartsColumn,
        KnobsColumn,
        CpuColumn,
        MemoryColumn,
        KindColumn,
        ImageColumn,
        ColumnCount
    };
    static constexpr int KeyRole = Qt::UserRole + 1;
    static constexpr int RolledOutRole = Qt::UserRole + 2; // bool: every replica updated and ready
    static constexpr int LightRole = Qt::UserRole + 3;     // int: a Light
    static constexpr int MattersRole = Qt::UserRole + 4;   // bool: the dashboard names it (or names none)
    enum class Light
    {
        Ready,       // every replica updated and ready
        Progressing, // rolling out, or some replicas not ready
        Down,        // replicas wanted, none ready
        Stopped,     // scaled to 0
    };

    explicit WorkloadTableModel(ClusterController *controller, QObject *parent = nullptr);
    // The dashboard's workloads that matter and its knobs.
    void setDefinition(const KubernetesDefinition &definition);
    const KubernetesDefinition &definition() const { return m_definition; }
    // The knobs of a workload, by its name, in the dashboard's order.
    std::vector<KnobDefinition> knobsOf(const QString &workload) const;
    static Light lightOf(const Workload &workload);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    int rowOf(const QString &key) const;

private:
    QVariant display(const Workload &workload, int column) const;
    QVariant toolTip(const Workload &workload, int column) const;

    ClusterController *m_controller;
    KubernetesDefinition m_definition;
};
