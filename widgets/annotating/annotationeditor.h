// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"

#include <QElapsedTimer>
#include <QObject>
#include <optional>
#include <vector>

class AnnotationModel;
class QUndoStack;

// Every edit a user makes to annotations goes through here, as a command on one undo stack:
// the annotation dock, the charts (Ctrl+click, Ctrl+drag, dragging a marker or band edge) and
// "mark now" all call these, so Ctrl+Z / Ctrl+Shift+Z undo any of them in order.
// Annotations made by the program (actions, scenarios) go straight to the model: they record
// what happened and are not the user's to undo (the user can still delete them here).
class AnnotationEditor : public QObject
{
    Q_OBJECT
public:
    explicit AnnotationEditor(AnnotationModel *model, QObject *parent = nullptr);

    AnnotationModel *model() const { return m_model; }
    QUndoStack *undoStack() const { return m_undoStack; }

    // Each returns false (and pushes nothing) when the edit is invalid: empty text, unknown id.
    quint64 add(const Annotation &annotation); // returns the new id, 0 when refused
    bool remove(quint64 id);
    bool update(const Annotation &annotation); // text, tags, time, end; by id; not a read-only one
    // A detector's suggestion: accepting makes it an ordinary annotation, dismissing removes
    // it. Both undoable; false when the id is unknown or not a suggestion.
    bool accept(quint64 id);
    bool dismiss(quint64 id);
    int acceptAll(const std::vector<quint64> &ids); // one undo step; suggestions only
    int dismissAll(const std::vector<quint64> &ids);
    // A drag on a chart: moves a point, or a region's start and/or end. For a region, an
    // empty endMs keeps its length (the whole band moves). Moves of one annotation that follow
    // each other closely (within a second, nothing else done in between) are one undo step, so
    // a drag that reports every mouse move undoes in one go; finishMove() ends that step early.
    bool move(quint64 id, qint64 timeMs, std::optional<qint64> endMs);
    void finishMove();

    // Several at once (the dock's multi-selection, an import), undone as one step.
    int removeAll(const std::vector<quint64> &ids);
    int addAll(const std::vector<Annotation> &annotations, const QString &description);
    // The read-only marks among `ids` (a query's) as notes of the user's, at the same time with
    // the same words and tags, to be edited; one undo step. Returns how many were made.
    int copyAsNotes(const std::vector<quint64> &ids);

private:
    AnnotationModel *m_model;
    QUndoStack *m_undoStack;
    // Where the last move left the stack; a move merges only into that one.
    quint64 m_moveId = 0;
    int m_moveIndex = -1;
    QElapsedTimer m_lastMove;
};
