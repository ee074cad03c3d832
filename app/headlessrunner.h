// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class DashboardPoller;
class DashboardView;
class PrometheusClient;
class QWidget;

// Headless use (CI, blog authors): lets the dashboard run for a while, writes the main
// window to a PNG and quits — with exit code 0 only when data actually arrived.
class HeadlessRunner : public QObject
{
    Q_OBJECT
public:
    HeadlessRunner(QWidget *window, DashboardPoller *poller, PrometheusClient *client,
                   QString screenshotPath, qint64 afterMs, QObject *parent = nullptr);
    void start();
    // Also write the plot area of every panel (screenshot pixels) to this JSON file.
    void setLayoutPath(const QString &path, DashboardView *view);

private:
    void finish();
    bool writeLayout() const;

    QWidget *m_window;
    DashboardPoller *m_poller;
    QString m_path;
    qint64 m_afterMs;
    QString m_lastSourceError;
    QString m_layoutPath;
    DashboardView *m_view = nullptr;
};
