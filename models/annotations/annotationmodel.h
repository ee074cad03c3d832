// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/result.h"
#include "base/timerange.h"

#include <QAbstractTableModel>
#include <QDate>
#include <vector>

// Every annotation of the dashboard, one model for all panels, sorted by time. Views (the
// charts, the annotation dock) read it; edits go through its setters so every view follows.
// Time, end, text and tags are editable as text (setData); a value that does not parse is
// refused with a message (editRejected) and leaves the annotation as it was. Views that want
// their edits undoable turn the text into an annotation with edited() and hand that to the
// editor instead of calling setData.
class AnnotationModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        TimeColumn,
        EndColumn,
        TextColumn,
        TagsColumn,
        SourceColumn,
        ColumnCount
    };
    enum Role
    {
        AnnotationIdRole = Qt::UserRole + 1,
        TimeMsRole,
        EndMsRole,
        FailedRole,
        SourceRole,
        TagsRole,
        SuggestedRole
    };

    explicit AnnotationModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    // `annotation` with one column replaced by what a user typed: text (trimmed, not empty),
    // tags (comma-separated), time or end ("hh:mm:ss" on the annotation's local day, a local
    // "yyyy-MM-dd hh:mm:ss", or ISO-8601; an empty end makes a region a point). Text equal to
    // what the column shows for editing leaves the value exactly as it was (no lost ms).
    static Result<Annotation> edited(const Annotation &annotation, int column, const QString &text);
    // What a view shows for a time: local "hh:mm:ss", with the date in front when the day is
    // not `today` ("May 1 09:43:07"; with the year, ISO-style, when not this year).
    static QString displayTime(qint64 ms, const QDate &today);
    // A time a user typed, read as in edited(); a bare clock time lands on the local day of
    // `dayOfMs`.
    static Result<qint64> parseTime(const QString &text, qint64 dayOfMs);

    // Adds and returns its id (author and createdAt are filled in when empty).
    quint64 add(Annotation annotation);
    // Puts back an annotation that was removed (undo), keeping its id; false when that id is
    // in use. Ids are never reused by add(), so references held elsewhere stay valid.
    bool restore(const Annotation &annotation);
    bool remove(quint64 id);
    bool update(const Annotation &annotation); // by id
    std::optional<Annotation> find(quint64 id) const;

    const std::vector<Annotation> &annotations() const { return m_annotations; }
    // Those that touch the range (a region overlapping it counts), in time order.
    std::vector<Annotation> inRange(const TimeRange &range) const;

signals:
    void annotationsChanged();
    // One signal per edit, with the whole annotation, for listeners that record or forward
    // edits (sessions) rather than redraw.
    void annotationAdded(const Annotation &annotation);
    void annotationUpdated(const Annotation &before, const Annotation &after);
    void annotationRemoved(const Annotation &annotation);
    // A setData() that was refused, with the reason in words for the user.
    void editRejected(const QString &message);

private:
    int rowOf(quint64 id) const;
    int insertionRow(qint64 timeMs) const;
    void insertSorted(const Annotation &annotation);

    std::vector<Annotation> m_annotations;
    quint64 m_nextId = 1;
};
