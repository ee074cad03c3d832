// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboarddefinition.h"

#include <QList>
#include <QMainWindow>

class AnnotationModel;
class DashboardPoller;
class DashboardView;
class LoadTesterController;
class ScenarioRunner;
class PrometheusClient;
class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class SampleStore;
class TimeWindow;

// The window: toolbar (time window, refresh, pause/resume, back to live), the dashboard grid,
// problems found in the dashboard file, and a status bar that says whether the source is up.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(PrometheusClient *client, SampleStore *store, TimeWindow *window,
               DashboardPoller *poller, AnnotationModel *annotations, QWidget *parent = nullptr);

    // Shows a freshly loaded dashboard and what was wrong in its file (if anything).
    void showDashboard(const QList<DashboardIssue> &issues);
    // Shows the control panel dock for this load tester.
    void setLoadTester(LoadTesterController *controller);
    // Shows the running scenario (steps, countdown, stop) in a dock.
    void showScenario(ScenarioRunner *runner);
    DashboardView *dashboardView() const { return m_view; }

private:
    void buildToolBar();
    void markNow();
    void syncWindowPicker();
    void updateSourceState(bool reachable, const QString &message);
    void updateSampleCount();

    PrometheusClient *m_client;
    SampleStore *m_store;
    TimeWindow *m_window;
    DashboardPoller *m_poller;
    AnnotationModel *m_annotations;
    DashboardView *m_view;
    QLabel *m_issues;
    QComboBox *m_windowPicker = nullptr;
    QComboBox *m_refreshPicker = nullptr;
    QAction *m_pauseAction = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_sourceState;
    QLabel *m_sampleCount;
    QLabel *m_admin;
    QDockWidget *m_controlDock = nullptr;
};
