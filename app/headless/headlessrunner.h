// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

class DashboardPoller;
class DashboardView;
class PrometheusClient;
class QAction;
class QTimer;
class QWidget;

// Headless use (CI, blog authors): lets the dashboard run for a while, writes the main
// window to a PNG and quits — with exit code 0 only when data actually arrived and was drawn.
class HeadlessRunner : public QObject
{
    Q_OBJECT
public:
    HeadlessRunner(QWidget *window, DashboardPoller *poller, PrometheusClient *client, QString screenshotPath,
                   qint64 afterMs, QObject *parent = nullptr);
    void start();
    // The panels whose drawing is waited for before the shot (see settle()).
    void setDashboardView(DashboardView *view) { m_view = view; }
    // Also write the plot area of every panel (screenshot pixels) to this JSON file.
    void setLayoutPath(const QString &path, DashboardView *view);
    // A recording shown offline: nothing is queried, so no answers are expected.
    void setOffline(bool offline) { m_offline = offline; }
    // Shoot the dialog this menu entry opens ("Export…", "Keyboard shortcuts") instead of the
    // window: the guide's pictures of dialogs are made by the app itself.
    void setDialogEntry(const QString &entry) { m_dialogEntry = entry; }

private:
    // Stops fetching and waits until the charts have drawn what they hold (they render off
    // the UI thread, a moment after each change), so the picture shows the time window as
    // it is now, not as it was a refresh ago; then shoot().
    void settle();
    void finish();
    void shoot(QWidget *widget); // writes the picture (and layout), then exits with a code
    QAction *menuAction(const QString &entry) const;
    bool writeLayout() const;
    // True when a chart drew a point, a heatmap a cell or a stat tile a number: a picture of
    // empty panels is not a success, whatever the queries answered.
    bool anyPanelDrewData() const;
    // "; panel 2 says: <its error>", for the exit message; empty when no panel has one.
    QString firstPanelProblem() const;

    static constexpr int kDialogSettleMs = 500;

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
    QString m_dialogEntry;
};
