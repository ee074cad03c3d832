// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

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
