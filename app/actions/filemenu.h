// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAction>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <algorithm>

// The window's File menu, shared by whoever adds to it (the window itself, sessions, the
// Grafana import, Open dashboard): found by its object name, or made here by the first.
inline QMenu *sharedFileMenu(QMainWindow *window)
{
    if (auto *file = window->menuBar()->findChild<QMenu *>(QStringLiteral("fileMenu"), Qt::FindDirectChildrenOnly))
        return file;
    QMenu *file = window->menuBar()->addMenu(QCoreApplication::translate("MainWindow", "&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    return file;
}

// The File menu's groups, in this order with a line between each: opening and saving
// (dashboards, sessions, runs to compare), imports, exports, and Quit. Whoever adds an action
// says its group; the menu is arranged when it opens, since actions are added by many.
enum class FileGroup
{
    OpenSave = 0, // the default
    Import = 1,
    Export = 2,
    Quit = 3,
};

inline void setFileGroup(QAction *action, FileGroup group)
{
    action->setProperty("fileGroup", int(group));
}

inline int fileGroupOf(const QAction *action)
{
    return action->property("fileGroup").toInt();
}

// Puts the menu's entries in their groups (in the order added within a group), a separator
// between groups; separators added by others are left out.
inline void arrangeFileMenu(QMenu *file)
{
    QList<QAction *> entries;
    for (QAction *action : file->actions()) {
        file->removeAction(action);
        if (action->property("fileMenuSeparator").toBool())
            action->deleteLater();
        else if (!action->isSeparator())
            entries.append(action);
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const QAction *a, const QAction *b) { return fileGroupOf(a) < fileGroupOf(b); });
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (i > 0 && fileGroupOf(entries[i]) != fileGroupOf(entries[i - 1]))
            file->addSeparator()->setProperty("fileMenuSeparator", true);
        file->addAction(entries[i]);
    }
}
