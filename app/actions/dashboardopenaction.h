// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "actions/livewindowlauncher.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <optional>

class QMainWindow;
class QMenu;

// File ▸ Open dashboard: a built-in dashboard, a recent file or another file, shown live in a
// window of its own against the same Prometheus, as File ▸ Open session and the Grafana
// import do, so the run shown here goes on undisturbed. The dashboard is read first: one
// that cannot be read at all is said here, with the file and the place, and nothing starts.
class DashboardOpenAction : public QObject
{
    Q_OBJECT
public:
    DashboardOpenAction(QMainWindow *window, const QUrl &prometheusUrl, const QStringList &connectionArguments = {});

    // What the menu does once a dashboard is chosen (for tests: `startWindow` false only
    // checks). nullopt when it was (or would be) opened, else why not, in words for the user.
    std::optional<QString> open(const QString &nameOrPath, bool startWindow = true);
    QStringList windowArguments(const QString &nameOrPath) const { return m_launcher.arguments(nameOrPath); }

    QMenu *menu() const { return m_menu; }

signals:
    void opened(const QString &nameOrPath);

private:
    void fillMenu();
    void openFromMenu(const QString &nameOrPath);

    QMainWindow *m_window;
    LiveWindowLauncher m_launcher;
    QMenu *m_menu = nullptr;
};
