// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "dashboard/dashboardedits.h"

#include <QObject>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

class QUndoStack;

// Changes to the dashboard made in the window (Explore's "Add to panel", the panels' menu,
// the panel editor): each is a step on the window's undo stack (the one annotations use, so
// Ctrl+Z undoes what was done last, whichever it was) holding the dashboard before and after
// (DashboardEdits), and is applied to the run at once by `apply` (the store's keys renamed so
// samples follow their panels, then the poller, the formulas, the recording, the grid).
// Whether the dashboard differs from the one last saved is said with modifiedChanged().
// Each change returns false, changing nothing, when there was nothing to change.
class DashboardEditing : public QObject
{
    Q_OBJECT
public:
    using Current = std::function<DashboardDefinition()>;
    using Apply = std::function<void(const DashboardDefinition &, const std::vector<KeyRename> &)>;

    DashboardEditing(QUndoStack *undoStack, Current current, Apply apply, QObject *parent = nullptr);

    // A query as a series of panel `panel`, or of a new panel at the end (panel < 0) titled
    // after it. Returns the panel it went into.
    int addQuery(const QString &query, int panel);
    void addPanel(const PanelDefinition &panel); // at the end of the grid
    bool movePanel(int from, int to);
    bool swapPanels(int a, int b);
    bool removePanel(int panel); // its samples are kept aside, for undo and the recording
    bool renamePanel(int panel, const QString &title);
    bool setColumns(int columns);
    // A panel as the panel editor left it (rows: DashboardEdits::replacePanel).
    bool replacePanel(int panel, const PanelDefinition &edited, const std::vector<int> &rows);
    bool addDerived(int panel, const QString &formula, const QString &legend,
                    const std::vector<DashboardEdits::DerivedInput> &inputs, QString *error);
    // Any change, as one undoable step.
    void change(DashboardEdits::Edit edit);

    // The dashboard as last saved (or opened); isModified() compares with it.
    void markSaved(const DashboardDefinition &saved);
    bool isModified() const;

signals:
    void modifiedChanged(bool modified);

private:
    bool push(std::optional<DashboardEdits::Edit> edit);
    void applied(const DashboardDefinition &now);

    QUndoStack *m_undoStack;
    Current m_current;
    Apply m_apply;
    QByteArray m_saved; // DashboardWriter's JSON of the saved dashboard
    bool m_modified = false;
    int m_edits = 0; // numbers the edits, so that each puts samples aside under a prefix of its own
};
