// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QString>

class QTableWidget;

// Help ▸ Keyboard shortcuts: every key the window answers to, read from the window's own
// actions and shortcuts when the dialog opens — so the list cannot fall behind the code —
// plus the mouse gestures on a chart, which have no action to read them from.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    struct Entry
    {
        QString group;       // the menu it is in, "Toolbar", "Load tester" or "Chart (mouse)"
        QString what;        // the action's name, without the & of its mnemonic
        QString keys;        // as the platform writes them ("Ctrl+Shift+Z")
        QString description; // the tooltip or what's-this text, if any
    };

    explicit ShortcutsDialog(QWidget *window, QWidget *parent = nullptr);

    // What the dialog lists for this window: actions with a shortcut (each once, also when
    // it is in a menu and on the toolbar), shortcuts that explain themselves (what's this),
    // and the chart gestures. Sorted by group, then name.
    static QList<Entry> collect(QWidget *window);

    // The table as text (tab-separated lines), for the Copy button and for tests.
    QString toText() const;

private:
    QList<Entry> m_entries;
    QTableWidget *m_table;
};
