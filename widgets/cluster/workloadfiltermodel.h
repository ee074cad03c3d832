// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

// What the Cluster dock's table shows of WorkloadTableModel: the rows whose name has the
// filter's text, only the dashboard's workloads while that is asked for, and each name with
// its readiness light in the theme's colours (green ready, amber rolling out, red none ready,
// grey scaled to 0).
class WorkloadFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit WorkloadFilterModel(QObject *parent = nullptr);
    void setOnlyThoseThatMatter(bool only);
    bool onlyThoseThatMatter() const { return m_onlyThoseThatMatter; }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool m_onlyThoseThatMatter = false;
};
