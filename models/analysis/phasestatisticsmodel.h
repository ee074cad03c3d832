// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/phasestatistics.h"

#include <QAbstractTableModel>

// A PhaseStatisticsTable for a table view: "series | statistic | visible range | before … |
// … → … | after …", values in the panel's unit, "–" where a phase has no sample; then a row
// per check on the panel's series: "held · worst …" or "FAILED at …" per phase.
class PhaseStatisticsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // A check row's cells say how the check fared (VerdictRole: a Verdict), for the view to
    // colour them: models stay free of QtGui.
    static constexpr int VerdictRole = Qt::UserRole + 1;
    enum class Verdict
    {
        Held,
        Failed,
        NotJudged,
    };

    explicit PhaseStatisticsModel(QObject *parent = nullptr);

    void setTable(PhaseStatisticsTable table);
    const PhaseStatisticsTable &table() const { return m_table; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant checkData(const PhaseStatisticsTable::CheckRow &row, int column, int role) const;

    static constexpr int kFixedColumns = 2; // series, statistic
    PhaseStatisticsTable m_table;
};
