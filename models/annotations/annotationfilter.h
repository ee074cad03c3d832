// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"

#include <QSortFilterProxyModel>
#include <optional>

// What the annotation dock lists: the annotations whose text or tags contain every word of
// the search ("#word" must be a tag exactly), optionally of one source only. Keeps the
// model's time order.
class AnnotationFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit AnnotationFilter(QObject *parent = nullptr);

    void setSearch(const QString &search);
    QString search() const { return m_words.join(QLatin1Char(' ')); }
    void setSource(std::optional<Annotation::Source> source); // nullopt: every source
    std::optional<Annotation::Source> source() const { return m_source; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QStringList m_words;
    std::optional<Annotation::Source> m_source;
};
