// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/paneleditingaction.h"

#include "actions/dashboardediting.h"
#include "editing/derivedseriesdialog.h"
#include "editing/paneleditordialog.h"
#include "panels/dashboardview.h"

#include <QAction>
#include <QActionGroup>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>

PanelEditingAction::PanelEditingAction(QMainWindow *window, DashboardView *view, DashboardEditing *editing,
                                       std::function<DashboardDefinition()> current)
    : QObject(window), m_window(window), m_view(view), m_editing(editing), m_current(std::move(current)),
      m_columns(new QActionGroup(this))
{
    m_view->setEditable(true);
    connect(m_view, &DashboardView::panelEditRequested, this, &PanelEditingAction::onEdit);
    connect(m_view, &DashboardView::panelsSwapRequested, this, [this](int panel, int other) {
        if (m_editing->swapPanels(panel, other))
            say(tr("Moved. Ctrl+Z puts it back."));
    });

    QMenu *menu = window->menuBar()->findChild<QMenu *>(QStringLiteral("dashboardMenu"), Qt::FindDirectChildrenOnly);
    if (!menu) {
        menu = window->menuBar()->addMenu(tr("&Dashboard"));
        menu->setObjectName(QStringLiteral("dashboardMenu"));
    }
    QAction *add = menu->addAction(tr("&Add panel…"), this, [this] { editPanel(-1); });
    add->setObjectName(QStringLiteral("addPanelAction"));
    add->setToolTip(tr("A new panel at the end of the grid, with the queries you give it"));
    QMenu *columns = menu->addMenu(tr("&Columns"));
    columns->setObjectName(QStringLiteral("columnsMenu"));
    for (int n = 1; n <= 4; ++n) {
        QAction *choice = columns->addAction(QString::number(n));
        choice->setCheckable(true);
        choice->setData(n);
        m_columns->addAction(choice);
        connect(choice, &QAction::triggered, this, [this, n] { m_editing->setColumns(n); });
    }
    menu->addSeparator();
    QAction *hint = menu->addAction(tr("Right-click a panel to edit, move or remove it"));
    hint->setEnabled(false);
    dashboardChanged();
}

void PanelEditingAction::dashboardChanged()
{
    const int columns = m_current().columns;
    for (QAction *choice : m_columns->actions())
        choice->setChecked(choice->data().toInt() == columns);
}

void PanelEditingAction::onEdit(int panel, PanelEdit edit)
{
    switch (edit) {
    case PanelEdit::Edit:
        editPanel(panel);
        return;
    case PanelEdit::Rename:
        renamePanel(panel);
        return;
    case PanelEdit::AddDerived:
        addDerived(panel);
        return;
    case PanelEdit::Remove: {
        const DashboardDefinition dashboard = m_current();
        if (panel < 0 || panel >= int(dashboard.panels.size()))
            return; // the grid changed since the menu was open
        const QString title = dashboard.panels[std::size_t(panel)].title;
        if (m_editing->removePanel(panel))
            say(tr("Removed “%1”. Ctrl+Z brings it back, with what it had drawn.").arg(title));
        return;
    }
    case PanelEdit::MoveLeft:
    case PanelEdit::MoveRight:
    case PanelEdit::MoveUp:
    case PanelEdit::MoveDown:
        return; // the view turns these into panelsSwapRequested
    }
}

void PanelEditingAction::editPanel(int panel)
{
    const DashboardDefinition dashboard = m_current();
    const bool added = panel < 0 || panel >= int(dashboard.panels.size());
    PanelDefinition shown;
    if (!added)
        shown = dashboard.panels[std::size_t(panel)];
    auto *dialog = new PanelEditorDialog(shown, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (added) {
        dialog->setWindowTitle(tr("Add a panel"));
        dialog->addButton()->click(); // a new panel starts with one series to fill in
        dialog->titleEdit()->setFocus();
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog, panel, added] {
        if (added) {
            m_editing->addPanel(dialog->panel());
        } else {
            m_editing->replacePanel(panel, dialog->panel(), dialog->rows());
        }
    });
    m_dialog = dialog;
    dialog->open();
}

void PanelEditingAction::renamePanel(int panel)
{
    const DashboardDefinition dashboard = m_current();
    if (panel < 0 || panel >= int(dashboard.panels.size()))
        return;
    auto *dialog = new QInputDialog(m_window);
    dialog->setObjectName(QStringLiteral("renamePanelDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Rename panel"));
    dialog->setLabelText(tr("Title:"));
    dialog->setTextValue(dashboard.panels[std::size_t(panel)].title);
    connect(dialog, &QInputDialog::textValueSelected, this,
            [this, panel](const QString &title) { m_editing->renamePanel(panel, title); });
    m_dialog = dialog;
    dialog->open();
}

void PanelEditingAction::addDerived(int panel)
{
    auto *dialog = new DerivedSeriesDialog(m_current(), panel, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, panel] {
        QString error;
        if (!m_editing->addDerived(panel, dialog->formula(), dialog->legend(), dialog->inputs(), &error))
            say(error);
    });
    m_dialog = dialog;
    dialog->open();
}

void PanelEditingAction::say(const QString &message)
{
    m_window->statusBar()->showMessage(message, 10'000);
}
