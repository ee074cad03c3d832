// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotating/annotationeditor.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace {

constexpr int kMoveCommandId = 0x414d; // "AM": QUndoStack merges only commands with equal ids
constexpr qint64 kMoveMergeMs = 1000;

QString excerpt(const QString &text)
{
    constexpr int kMax = 32;
    const QString line = text.simplified();
    return line.size() <= kMax ? line : line.left(kMax - 1) + QChar(0x2026);
}

// Adds on the first redo; later redos put back the same annotation (same id, author and
// creation time), so whatever refers to it by id still finds it.
class AddCommand : public QUndoCommand
{
public:
    AddCommand(AnnotationModel *model, const Annotation &annotation, QUndoCommand *parent = nullptr)
        : QUndoCommand(AnnotationEditor::tr("Add \u201c%1\u201d").arg(excerpt(annotation.text)), parent),
          m_model(model), m_annotation(annotation)
    {
        m_annotation.id = 0;
    }

    quint64 annotationId() const { return m_annotation.id; }

    void redo() override
    {
        if (m_annotation.id == 0) {
            m_annotation = *m_model->find(m_model->add(m_annotation));
        } else if (!m_model->restore(m_annotation)) {
            setObsolete(true);
        }
    }
    void undo() override
    {
        // What is removed is what is there now, so a redo brings back exactly that.
        if (const std::optional<Annotation> current = m_model->find(m_annotation.id))
            m_annotation = *current;
        if (!m_model->remove(m_annotation.id))
            setObsolete(true);
    }

private:
    AnnotationModel *m_model;
    Annotation m_annotation;
};

class RemoveCommand : public QUndoCommand
{
public:
    RemoveCommand(AnnotationModel *model, const Annotation &annotation, QUndoCommand *parent = nullptr)
        : QUndoCommand(AnnotationEditor::tr("Delete \u201c%1\u201d").arg(excerpt(annotation.text)), parent),
          m_model(model), m_annotation(annotation)
    {}

    void redo() override
    {
        if (const std::optional<Annotation> current = m_model->find(m_annotation.id))
            m_annotation = *current;
        if (!m_model->remove(m_annotation.id))
            setObsolete(true);
    }
    void undo() override
    {
        if (!m_model->restore(m_annotation))
            setObsolete(true);
    }

private:
    AnnotationModel *m_model;
    Annotation m_annotation;
};

// An edit in the dock, or (`move`) one step of a drag on a chart. A move takes the next one
// of the same annotation into itself when that one says it continues the same drag.
class UpdateCommand : public QUndoCommand
{
public:
    enum class Kind
    {
        Edit,
        Move,
        MoveContinued
    };

    UpdateCommand(AnnotationModel *model, const Annotation &before, const Annotation &after, const QString &text,
                  Kind kind = Kind::Edit)
        : QUndoCommand(text), m_model(model), m_before(before), m_after(after), m_kind(kind)
    {}

    void redo() override
    {
        if (!m_model->update(m_after))
            setObsolete(true);
    }
    void undo() override
    {
        if (!m_model->update(m_before))
            setObsolete(true);
    }
    int id() const override { return m_kind == Kind::Edit ? -1 : kMoveCommandId; }
    bool mergeWith(const QUndoCommand *command) override
    {
        const auto *next = static_cast<const UpdateCommand *>(command);
        if (next->m_kind != Kind::MoveContinued || next->m_after.id != m_after.id)
            return false;
        m_after = next->m_after;
        // Dragged back to where it started: nothing left to undo.
        setObsolete(m_after == m_before);
        return true;
    }

private:
    AnnotationModel *m_model;
    Annotation m_before;
    Annotation m_after;
    Kind m_kind;
};

} // namespace

AnnotationEditor::AnnotationEditor(AnnotationModel *model, QObject *parent)
    : QObject(parent), m_model(model), m_undoStack(new QUndoStack(this))
{}

quint64 AnnotationEditor::add(const Annotation &annotation)
{
    Annotation clean = annotation;
    clean.text = clean.text.trimmed();
    if (clean.text.isEmpty())
        return 0;
    auto *command = new AddCommand(m_model, clean);
    m_undoStack->push(command); // runs redo(), which adds
    return command->annotationId();
}

bool AnnotationEditor::remove(quint64 id)
{
    const std::optional<Annotation> current = m_model->find(id);
    if (!current)
        return false;
    m_undoStack->push(new RemoveCommand(m_model, *current));
    return true;
}

bool AnnotationEditor::update(const Annotation &annotation)
{
    const std::optional<Annotation> before = m_model->find(annotation.id);
    if (!before || before->isReadOnly() || annotation.text.trimmed().isEmpty())
        return false;
    // Only what a user edits is taken over; where it came from and who made it stay.
    Annotation after = *before;
    after.text = annotation.text.trimmed();
    after.tags = annotation.tags;
    after.timeMs = annotation.timeMs;
    after.endMs = annotation.endMs;
    if (after == *before)
        return true;
    m_undoStack->push(new UpdateCommand(m_model, *before, after, tr("Edit \u201c%1\u201d").arg(excerpt(before->text))));
    return true;
}

bool AnnotationEditor::move(quint64 id, qint64 timeMs, std::optional<qint64> endMs)
{
    const std::optional<Annotation> before = m_model->find(id);
    if (!before || before->isReadOnly())
        return false;
    Annotation after = *before;
    after.timeMs = timeMs;
    if (endMs)
        after.endMs = endMs;
    else if (before->endMs)
        after.endMs = timeMs + (*before->endMs - before->timeMs);
    if (after == *before)
        return true;
    const bool continued = m_moveId == id && m_moveIndex == m_undoStack->index() && m_lastMove.isValid() &&
                           m_lastMove.elapsed() < kMoveMergeMs;
    m_undoStack->push(new UpdateCommand(m_model, *before, after, tr("Move \u201c%1\u201d").arg(excerpt(before->text)),
                                        continued ? UpdateCommand::Kind::MoveContinued : UpdateCommand::Kind::Move));
    m_moveId = id;
    m_moveIndex = m_undoStack->index();
    m_lastMove.start();
    return true;
}

void AnnotationEditor::finishMove()
{
    m_moveId = 0;
    m_moveIndex = -1;
    m_lastMove.invalidate();
}

int AnnotationEditor::removeAll(const std::vector<quint64> &ids)
{
    std::vector<Annotation> found;
    for (quint64 id : ids) {
        if (const std::optional<Annotation> a = m_model->find(id))
            found.push_back(*a);
    }
    if (found.size() == 1)
        return remove(found.front().id) ? 1 : 0;
    if (found.empty())
        return 0;
    m_undoStack->beginMacro(
        tr("Delete %1").arg(Format::counted(qint64(found.size()), tr("annotation"), tr("annotations"))));
    for (const Annotation &a : found)
        m_undoStack->push(new RemoveCommand(m_model, a));
    m_undoStack->endMacro();
    return int(found.size());
}

int AnnotationEditor::copyAsNotes(const std::vector<quint64> &ids)
{
    std::vector<Annotation> notes;
    for (quint64 id : ids) {
        if (const std::optional<Annotation> a = m_model->find(id); a && a->isReadOnly())
            notes.push_back(a->copyAsNote());
    }
    if (notes.size() == 1)
        return add(notes.front()) != 0 ? 1 : 0;
    return addAll(notes, tr("Copy %1 into notes").arg(Format::counted(qint64(notes.size()), tr("mark"), tr("marks"))));
}

int AnnotationEditor::addAll(const std::vector<Annotation> &annotations, const QString &description)
{
    if (annotations.empty())
        return 0;
    int added = 0;
    m_undoStack->beginMacro(description);
    for (const Annotation &a : annotations)
        added += add(a) != 0 ? 1 : 0;
    m_undoStack->endMacro();
    return added;
}

bool AnnotationEditor::accept(quint64 id)
{
    return acceptAll({id}) == 1;
}

bool AnnotationEditor::dismiss(quint64 id)
{
    return dismissAll({id}) == 1;
}

int AnnotationEditor::acceptAll(const std::vector<quint64> &ids)
{
    std::vector<Annotation> found;
    for (quint64 id : ids) {
        if (const std::optional<Annotation> a = m_model->find(id); a && a->suggested)
            found.push_back(*a);
    }
    if (found.empty())
        return 0;
    m_undoStack->beginMacro(
        found.size() == 1
            ? tr("Accept \u201c%1\u201d").arg(excerpt(found.front().text))
            : tr("Accept %1").arg(Format::counted(qint64(found.size()), tr("suggestion"), tr("suggestions"))));
    for (const Annotation &before : found) {
        Annotation after = before;
        after.suggested = false;
        m_undoStack->push(
            new UpdateCommand(m_model, before, after, tr("Accept \u201c%1\u201d").arg(excerpt(before.text))));
    }
    m_undoStack->endMacro();
    return int(found.size());
}

int AnnotationEditor::dismissAll(const std::vector<quint64> &ids)
{
    std::vector<Annotation> found;
    for (quint64 id : ids) {
        if (const std::optional<Annotation> a = m_model->find(id); a && a->suggested)
            found.push_back(*a);
    }
    if (found.empty())
        return 0;
    m_undoStack->beginMacro(
        found.size() == 1
            ? tr("Dismiss \u201c%1\u201d").arg(excerpt(found.front().text))
            : tr("Dismiss %1").arg(Format::counted(qint64(found.size()), tr("suggestion"), tr("suggestions"))));
    for (const Annotation &a : found)
        m_undoStack->push(new RemoveCommand(m_model, a));
    m_undoStack->endMacro();
    return int(found.size());
}
