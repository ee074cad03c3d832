// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>
#include <functional>

class ClusterController;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class WorkloadTableModel;

// The Cluster dock: the namespace's Deployments and StatefulSets, live (ready / desired, CPU
// and memory, image), a filter by name, and scaling the selected one: a replica count and
// Scale (Enter), −1, +1 and "to 0". Scaling to 0 or by more than ×2 asks first, as the rate
// does. After an action it says what the cluster answered; the timelines get the annotation.
class ClusterDock : public QWidget
{
    Q_OBJECT
public:
    using Confirm = std::function<bool(const QString &question)>;

    explicit ClusterDock(ClusterController *controller, QWidget *parent = nullptr);

    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    // Selects a workload by key ("deployments/worker"); false when there is none.
    bool select(const QString &key);
    QString selectedKey() const;
    // What the buttons do, for tests and shortcuts.
    void scaleSelectedTo(int replicas);
    void stepSelected(int delta);
    QString resultText() const;
    QString stateText() const;

private:
    void updateState();
    void updateControls();

    ClusterController *m_controller;
    WorkloadTableModel *m_model;
    QSortFilterProxyModel *m_filtered;
    QLabel *m_state;
    QLineEdit *m_filter;
    QTableView *m_table;
    QSpinBox *m_replicas;
    QPushButton *m_scale;
    QPushButton *m_less;
    QPushButton *m_more;
    QPushButton *m_zero;
    QLabel *m_result;
    Confirm m_confirm;
    QString m_keptSelection; // across a reset of the table
};
