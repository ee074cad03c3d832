// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster/workloadfiltermodel.h"

#include "kubernetes/workloadtablemodel.h"
#include "theme/uitheme.h"

#include <QColor>
#include <QHash>
#include <QIcon>
#include <QPainter>
#include <QPixmap>

namespace {

QIcon lightIcon(const QColor &color)
{
    static QHash<QRgb, QIcon> made; // a handful of colours, asked for at every paint
    if (const auto found = made.constFind(color.rgba()); found != made.cend())
        return *found;
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(color.darker(130));
    painter.setBrush(color);
    painter.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    painter.end();
    return *made.insert(color.rgba(), QIcon(pixmap));
}

} // namespace

WorkloadFilterModel::WorkloadFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setFilterKeyColumn(WorkloadTableModel::NameColumn);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void WorkloadFilterModel::setOnlyThoseThatMatter(bool only)
{
    if (only == m_onlyThoseThatMatter)
        return;
    m_onlyThoseThatMatter = only;
    invalidateFilter();
}

bool WorkloadFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_onlyThoseThatMatter &&
        !sourceModel()->index(sourceRow, 0, sourceParent).data(WorkloadTableModel::MattersRole).toBool())
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

QVariant WorkloadFilterModel::data(const QModelIndex &index, int role) const
{
    if (role != Qt::DecorationRole || index.column() != WorkloadTableModel::NameColumn)
        return QSortFilterProxyModel::data(index, role);
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    using Light = WorkloadTableModel::Light;
    switch (Light(index.data(WorkloadTableModel::LightRole).toInt())) {
    case Light::Ready:
        return lightIcon(colors.ok);
    case Light::Progressing:
        return lightIcon(colors.warning);
    case Light::Down:
        return lightIcon(colors.error);
    case Light::Stopped:
        return lightIcon(colors.muted);
    }
    return {};
}
