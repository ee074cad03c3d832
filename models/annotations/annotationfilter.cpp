// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotationfilter.h"

#include "annotations/annotationmodel.h"

#include <algorithm>

AnnotationFilter::AnnotationFilter(QObject *parent) : QSortFilterProxyModel(parent) {}

void AnnotationFilter::setSearch(const QString &search)
{
    const QStringList words = search.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateRowsFilter();
}

void AnnotationFilter::setSource(std::optional<Annotation::Source> source)
{
    if (source == m_source)
        return;
    m_source = source;
    invalidateRowsFilter();
}

bool AnnotationFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, AnnotationModel::TextColumn, sourceParent);
    if (m_source && index.data(AnnotationModel::SourceRole).toInt() != int(*m_source))
        return false;
    const QString text = index.data(Qt::DisplayRole).toString();
    const QStringList tags = index.data(AnnotationModel::TagsRole).toStringList();
    for (const QString &word : m_words) {
        if (word.startsWith(QLatin1Char('#')) && word.size() > 1) {
            if (!tags.contains(word.mid(1), Qt::CaseInsensitive))
                return false;
            continue;
        }
        const bool inTags = std::any_of(tags.begin(), tags.end(),
                                        [&](const QString &tag) { return tag.contains(word, Qt::CaseInsensitive); });
        if (!inTags && !text.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}
