// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "actions/livewindowlauncher.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUrl>

class QMainWindow;

// File ▸ Import Grafana dashboard…: pick a Grafana JSON export, convert it off the UI thread,
// show what could not be converted, save the result where the user says (next to the Grafana
// file by default) and open it in a window of its own, against the same Prometheus, so the
// run shown here goes on undisturbed (as File ▸ Open session… does).
class GrafanaImportAction : public QObject
{
    Q_OBJECT
public:
    // `connectionArguments`: how the new window authenticates to Prometheus, as this one does
    // (AppOptions::connectionArguments).
    GrafanaImportAction(QMainWindow *window, const QUrl &prometheusUrl, const QStringList &connectionArguments = {});

    // The arguments of the window that shows an imported dashboard.
    QStringList windowArguments(const QString &dashboardPath) const;

    // The steps after the open-file dialog, for tests and scripts: `outputPath` empty asks
    // with a save dialog. `finished` tells how it ended: ok once the dashboard is written (and its window
    // started, unless `openWindow` is false).
    void importFile(const QString &inputPath, const QString &outputPath = {}, bool openWindow = true);

signals:
    void finished(bool ok, const QString &message);

private:
    void chooseFile();

    QMainWindow *m_window;
    LiveWindowLauncher m_launcher;
};
