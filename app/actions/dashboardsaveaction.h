// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "dashboard/dashboarddefinition.h"

#include <QObject>
#include <QString>
#include <functional>

class DashboardEditing;
class QMainWindow;

// File ▸ Save dashboard (Ctrl+S) and Save dashboard as… (Ctrl+Shift+S): the dashboard as it
// is now — with the panels and queries added and changed in the window — written in the
// documented format (a round trip through the loader gives the same dashboard; keys of the
// file this version does not read are kept), off the UI thread. A built-in dashboard is saved
// as a copy in the user's dashboards folder (AppSettings::dashboardsFolder()), never over
// itself, and from then on to that copy. Unsaved changes are shown in the title ([*]) and asked about
// when the window closes.
class DashboardSaveAction : public QObject
{
    Q_OBJECT
public:
    // `path`: the dashboard's file, or a built-in name (then Save writes a copy).
    DashboardSaveAction(QMainWindow *window, DashboardEditing *editing, std::function<DashboardDefinition()> current,
                        const QString &path);

    QString path() const { return m_path; }
    // Writes to `path` (a file), and from then on saves there; `done` says how it went.
    void saveTo(const QString &path);
    // The dialog's question on close: Save, Discard or Cancel; true when the window may close.
    bool mayClose();

signals:
    void saved(bool ok, const QString &message);

private:
    bool save();                                            // true when a write started
    bool saveAs();                                          // false when the user cancelled
    static QString copyPathFor(const QString &builtinName); // a new file in the dashboards folder

    QMainWindow *m_window;
    DashboardEditing *m_editing;
    std::function<DashboardDefinition()> m_current;
    QString m_path; // empty: a built-in dashboard, never written over
    QString m_builtinName;
};
