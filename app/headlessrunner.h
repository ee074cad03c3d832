// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class DashboardPoller;
class DashboardView;
class PrometheusClient;
class QTimer;
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
    // The panels whose drawing is waited for before the shot (see settle()).
    void setDashboardView(DashboardView *view) { m_view = view; }
    // Also write the plot area of every panel (screenshot pixels) to this JSON file.
    void setLayoutPath(const QString &path, DashboardView *view);
    // A recording shown offline: nothing is queried, so no answers are expected.
    void setOffline(bool offline) { m_offline = offline; }

private:
    // Stops fetching and waits until the charts have drawn what they hold (they render off
    // the UI thread, a moment after each change), so the picture shows the time window as
    // it is now, not as it was a refresh ago; then shoot().
    void settle();
    void finish();
    bool writeLayout() const;

    QWidget *m_window;
    DashboardPoller *m_poller;
    QString m_path;
    qint64 m_afterMs;
    QString m_lastSourceError;
    QString m_layoutPath;
    DashboardView *m_view = nullptr;
    bool m_offline = false;
    QTimer *m_quiet = nullptr;
    bool m_finished = false;
};
