// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/phasestatistics.h"

#include <QAbstractTableModel>

// A PhaseStatisticsTable for a table view: "series | statistic | visible range | before … |
// … → … | after …", values in the panel's unit, "–" where a phase has no sample.
class PhaseStatisticsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit PhaseStatisticsModel(QObject *parent = nullptr);

    void setTable(PhaseStatisticsTable table);
    const PhaseStatisticsTable &table() const { return m_table; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static constexpr int kFixedColumns = 2; // series, statistic
    PhaseStatisticsTable m_table;
};
