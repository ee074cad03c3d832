// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/dashboardediting.h"

#include "dashboard/dashboardwriter.h"
#include "explore/querynaming.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace {

// One change of the dashboard: the whole definition before and after, so that undo and redo
// give back exactly what was there, however the change was made, and the store's keys
// renamed so that the samples follow their panels (back again on undo).
class DashboardChange : public QUndoCommand
{
public:
    DashboardChange(DashboardEdits::Edit edit, DashboardDefinition before, DashboardEditing::Apply apply)
        : QUndoCommand(edit.text), m_before(std::move(before)), m_edit(std::move(edit)), m_apply(std::move(apply))
    {}
    void undo() override { m_apply(m_before, m_edit.renames.undo); }
    void redo() override { m_apply(m_edit.after, m_edit.renames.redo); }

private:
    DashboardDefinition m_before;
    DashboardEdits::Edit m_edit;
    DashboardEditing::Apply m_apply;
};

QString shortQuery(const QString &query)
{
    const QString simplified = query.simplified();
    return simplified.size() <= 40 ? simplified : simplified.left(39) + QChar(0x2026);
}

} // namespace

DashboardEditing::DashboardEditing(QUndoStack *undoStack, Current current, Apply apply, QObject *parent)
    : QObject(parent), m_undoStack(undoStack), m_current(std::move(current)), m_apply(std::move(apply))
{
    m_saved = DashboardWriter::toJson(m_current());
}

void DashboardEditing::change(DashboardEdits::Edit edit)
{
    m_undoStack->push(new DashboardChange(
        std::move(edit), m_current(), [this](const DashboardDefinition &now, const std::vector<KeyRename> &renames) {
            m_apply(now, renames);
            applied(now);
        }));
}

bool DashboardEditing::push(std::optional<DashboardEdits::Edit> edit)
{
    if (!edit)
        return false;
    change(std::move(*edit));
    return true;
}

int DashboardEditing::addQuery(const QString &query, int panel)
{
    const DashboardDefinition before = m_current();
    SeriesDefinition series;
    series.query = query;
    if (panel < 0 || panel >= int(before.panels.size())) {
        PanelDefinition added;
        added.title = QueryNaming::title(query);
        added.unit = QueryNaming::unit(query);
        added.series.push_back(series);
        DashboardEdits::Edit edit = DashboardEdits::addPanel(before, added, ++m_edits);
        edit.text = tr("Add a panel for %1").arg(shortQuery(query));
        change(std::move(edit));
        return int(before.panels.size());
    }
    DashboardDefinition after = before;
    after.panels[std::size_t(panel)].series.push_back(series);
    change(DashboardEdits::edited(before, std::move(after), DashboardEdits::unmoved(before),
                                  tr("Add %1 to %2").arg(shortQuery(query), before.panels[std::size_t(panel)].title),
                                  ++m_edits));
    return panel;
}

void DashboardEditing::addPanel(const PanelDefinition &panel)
{
    change(DashboardEdits::addPanel(m_current(), panel, ++m_edits));
}

bool DashboardEditing::movePanel(int from, int to)
{
    return push(DashboardEdits::movePanel(m_current(), from, to, ++m_edits));
}

bool DashboardEditing::swapPanels(int a, int b)
{
    return push(DashboardEdits::swapPanels(m_current(), a, b, ++m_edits));
}

bool DashboardEditing::removePanel(int panel)
{
    return push(DashboardEdits::removePanel(m_current(), panel, ++m_edits));
}

bool DashboardEditing::renamePanel(int panel, const QString &title)
{
    return push(DashboardEdits::renamePanel(m_current(), panel, title));
}

bool DashboardEditing::setColumns(int columns)
{
    return push(DashboardEdits::setColumns(m_current(), columns));
}

bool DashboardEditing::replacePanel(int panel, const PanelDefinition &edited, const std::vector<int> &rows)
{
    return push(DashboardEdits::replacePanel(m_current(), panel, edited, rows, ++m_edits));
}

bool DashboardEditing::addDerived(int panel, const QString &formula, const QString &legend,
                                  const std::vector<DashboardEdits::DerivedInput> &inputs, QString *error)
{
    return push(DashboardEdits::addDerived(m_current(), panel, formula, legend, inputs, ++m_edits, error));
}

void DashboardEditing::markSaved(const DashboardDefinition &saved)
{
    m_saved = DashboardWriter::toJson(saved);
    applied(saved);
}

bool DashboardEditing::isModified() const
{
    return m_modified;
}

void DashboardEditing::applied(const DashboardDefinition &now)
{
    const bool modified = DashboardWriter::toJson(now) != m_saved;
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}
