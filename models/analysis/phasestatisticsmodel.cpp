// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/phasestatisticsmodel.h"

#include "base/format.h"

PhaseStatisticsModel::PhaseStatisticsModel(QObject *parent) : QAbstractTableModel(parent) {}

void PhaseStatisticsModel::setTable(PhaseStatisticsTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int PhaseStatisticsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size() + m_table.checks.size());
}

int PhaseStatisticsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : kFixedColumns + int(m_table.columns.size());
}

QVariant PhaseStatisticsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.row() >= int(m_table.rows.size()))
        return checkData(m_table.checks[std::size_t(index.row()) - m_table.rows.size()], index.column(), role);
    const PhaseStatisticsTable::Row &row = m_table.rows[std::size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() < kFixedColumns ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                              : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (index.column() == 0)
        return row.series;
    if (index.column() == 1)
        return PhaseStatisticsTable::statisticName(row.statistic);
    const std::size_t column = std::size_t(index.column() - kFixedColumns);
    const std::optional<double> &value = row.values[column];
    if (role == Qt::ToolTipRole)
        return value ? tr("%1 of %2 during %3")
                           .arg(PhaseStatisticsTable::statisticName(row.statistic), row.series,
                                m_table.columns[column].title)
                     : tr("no sample during %1").arg(m_table.columns[column].title);
    return value ? Format::value(*value, row.unit) : QStringLiteral("–");
}

QVariant PhaseStatisticsModel::checkData(const PhaseStatisticsTable::CheckRow &row, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    if (column == 0)
        return role == Qt::DisplayRole   ? PhaseStatisticsTable::checkTitle(row.check)
               : role == Qt::ToolTipRole ? row.check.describe()
                                         : QVariant();
    if (column == 1)
        return role == Qt::DisplayRole ? tr("check") : QVariant();
    const CheckVerdict &verdict = row.verdicts[std::size_t(column - kFixedColumns)];
    if (role == VerdictRole)
        return int(!verdict.applies || verdict.samples == 0 ? Verdict::NotJudged
                   : verdict.failed()                       ? Verdict::Failed
                                                            : Verdict::Held);
    if (role == Qt::DisplayRole)
        return verdict.cell(row.check);
    if (role == Qt::ToolTipRole)
        return verdict.describe(row.check);
    return {};
}

QVariant PhaseStatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return tr("Series");
    if (section == 1)
        return tr("Statistic");
    if (section - kFixedColumns < int(m_table.columns.size()))
        return m_table.columns[std::size_t(section - kFixedColumns)].title;
    return {};
}
