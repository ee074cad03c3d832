// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "panels/panelwidget.h"

#include <QDialog>
#include <QObject>
#include <QPointer>
#include <functional>

class DashboardEditing;
class DashboardView;
class QActionGroup;
class QMainWindow;

// Panels changed in place, from each panel's right-click menu (Edit panel…, Rename…, Add
// derived series…, Move left / right / up / down, Remove panel) and the Dashboard menu (Add
// panel…, Columns). Each change goes through DashboardEditing: one step on the undo stack,
// drawn at once, recorded in the session. Dialogs open window-modal and change nothing
// until OK; the one open now is dialog(), for tests.
class PanelEditingAction : public QObject
{
    Q_OBJECT
public:
    PanelEditingAction(QMainWindow *window, DashboardView *view, DashboardEditing *editing,
                       std::function<DashboardDefinition()> current);

    QDialog *dialog() const { return m_dialog; }
    // The Columns submenu shows the dashboard's number: call after each change.
    void dashboardChanged();

    void editPanel(int panel); // a new panel at the end when panel < 0
    void renamePanel(int panel);
    void addDerived(int panel);

private:
    void onEdit(int panel, PanelEdit edit);
    void say(const QString &message);

    QMainWindow *m_window;
    DashboardView *m_view;
    DashboardEditing *m_editing;
    std::function<DashboardDefinition()> m_current;
    QActionGroup *m_columns;
    QPointer<QDialog> m_dialog;
};
