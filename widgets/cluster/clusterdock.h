// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QFuture>
#include <QString>
#include <QWidget>
#include <functional>

class ClusterController;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class WorkloadTableModel;

// The Cluster dock: the namespace's Deployments and StatefulSets, live (ready / desired, CPU
// and memory, image), a filter by name, and scaling the selected one: a replica count and
// Scale (Enter), −1, +1 and "to 0"; a container's CPU / memory request or limit or one of its
// env vars set to a value (Enter); Restart as `kubectl rollout restart`. Scaling to 0 or by
// more than ×2 asks first, as the rate does, and so does a restart. After an action it says
// what the cluster answered; the timelines get the annotation.
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
    // "cpu limit", "memory request", "env RATE" … of the selected workload's first container.
    void setSelected(const QString &setting, const QString &value);
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
    QSortFilterProxyModel *m_filtered;
    QLabel *m_state;
    QLineEdit *m_filter;
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
