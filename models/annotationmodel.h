// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotation.h"
#include "timerange.h"

#include <QAbstractTableModel>

#include <vector>

// Every annotation of the dashboard, one model for all panels, sorted by time. Views (the
// charts, the annotation dock) read it; edits go through its setters so every view follows.
class AnnotationModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, EndColumn, TextColumn, TagsColumn, SourceColumn, ColumnCount };
    enum Role { AnnotationIdRole = Qt::UserRole + 1, TimeMsRole, EndMsRole, FailedRole };

    explicit AnnotationModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Adds and returns its id (author and createdAt are filled in when empty).
    quint64 add(Annotation annotation);
    bool remove(quint64 id);
    bool update(const Annotation &annotation); // by id
    std::optional<Annotation> find(quint64 id) const;

    const std::vector<Annotation> &annotations() const { return m_annotations; }
    // Those that touch the range (a region overlapping it counts), in time order.
    std::vector<Annotation> inRange(const TimeRange &range) const;

signals:
    void annotationsChanged();

private:
    int rowOf(quint64 id) const;
    int insertionRow(qint64 timeMs) const;

    std::vector<Annotation> m_annotations;
    quint64 m_nextId = 1;
};
