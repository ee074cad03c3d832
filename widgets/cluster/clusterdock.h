// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "dashboard/dashboarddefinition.h"

#include <QFuture>
#include <QString>
#include <QWidget>
#include <functional>

class ClusterController;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class WorkloadFilterModel;
class WorkloadTableModel;

// The Cluster dock: the namespace's Deployments and StatefulSets, live (a readiness light,
// ready / desired, restarts, the dashboard's knobs, CPU and memory, image), a filter by name
// (and to the dashboard's workloads), and acting on the selected one: a replica count and
// Scale (Enter), −1, +1 and "to 0" (+, − and 0 in the table); a knob, a container's CPU /
// memory request or limit or one of its env vars set to a value (Enter); Restart as `kubectl
// rollout restart`. Scaling to 0 or by more than ×2 asks first, as the rate does, and so does
// a restart. After an action it says what the cluster answered; the timelines get the
// annotation.
class ClusterDock : public QWidget
{
    Q_OBJECT
public:
    using Confirm = std::function<bool(const QString &question)>;

    explicit ClusterDock(ClusterController *controller, QWidget *parent = nullptr);

    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    // The dashboard's "kubernetes": the workloads that matter (shown alone until the user
    // asks for all) and the knobs (a column, and first in the Set list).
    void setDefinition(const KubernetesDefinition &definition);
    // Moves the keyboard focus to the table (the window's shortcut to the dock).
    void focusWorkloads();
    int visibleWorkloads() const;
    // Selects a workload by key ("deployments/worker"); false when there is none.
    bool select(const QString &key);
    QString selectedKey() const;
    // What the buttons do, for tests and shortcuts.
    void scaleSelectedTo(int replicas);
    void stepSelected(int delta);
    // "cpu limit", "memory request", "env RATE" … of the selected workload's first container.
    void setSelected(const QString &setting, const QString &value);
    // The Set list's entries as shown ("rate (env RATE)", "cpu limit" …), knobs first.
    QStringList settingTitles() const;
    void restartSelected();
    QStringList settings() const; // what the Set list offers for the selection
    QString resultText() const;
    QString stateText() const;

private:
    void updateState();
    void updateControls();
    void updateSettings();
    void showOutcome(const QFuture<Result<QString>> &outcome, const QString &doing);

    ClusterController *m_controller;
    WorkloadTableModel *m_model;
    WorkloadFilterModel *m_filtered;
    QLabel *m_state;
    QLineEdit *m_filter;
    QCheckBox *m_onlyDashboards;
    QTableView *m_table;
    QSpinBox *m_replicas;
    QPushButton *m_scale;
    QPushButton *m_less;
    QPushButton *m_more;
    QPushButton *m_zero;
    QComboBox *m_setting;
    QLineEdit *m_settingValue;
    QPushButton *m_set;
    QPushButton *m_restart;
    QLabel *m_result;
    Confirm m_confirm;
    QString m_keptSelection; // across a reset of the table
};
