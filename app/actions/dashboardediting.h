// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QObject>
#include <QString>
#include <functional>

class QUndoStack;

// Changes to the dashboard made in the window (Explore's "Add to panel", …): each is a step on
// the window's undo stack (the one annotations use, so Ctrl+Z undoes what was done last,
// whichever it was) holding the dashboard before and after, and is applied to the run at once
// by `apply` (the poller, the formulas, the recording, the grid). Whether the dashboard differs
// from the one last saved is said with modifiedChanged().
class DashboardEditing : public QObject
{
    Q_OBJECT
public:
    using Current = std::function<DashboardDefinition()>;
    using Apply = std::function<void(const DashboardDefinition &)>;

    DashboardEditing(QUndoStack *undoStack, Current current, Apply apply, QObject *parent = nullptr);

    // A query as a series of panel `panel`, or of a new panel at the end (panel < 0) titled
    // after it. Returns the panel it went into.
    int addQuery(const QString &query, int panel);
    // Any change, as one undoable step with this text ("Add query to Throughput").
    void change(const QString &text, const DashboardDefinition &after);

    // The dashboard as last saved (or opened); isModified() compares with it.
    void markSaved(const DashboardDefinition &saved);
    bool isModified() const;

signals:
    void modifiedChanged(bool modified);

private:
    void applied(const DashboardDefinition &now);

    QUndoStack *m_undoStack;
    Current m_current;
    Apply m_apply;
    QByteArray m_saved; // DashboardWriter's JSON of the saved dashboard
    bool m_modified = false;
};
