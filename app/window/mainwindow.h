// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "scenario/ceilingsearch.h"

#include <QDockWidget>
#include <QList>
#include <QMainWindow>
#include <functional>
#include <optional>

class AnnotationDock;
class AnnotationQueryBar;
class AnnotationEditor;
class AnnotationFiles;
class AnnotationModel;
class DashboardPoller;
class DashboardView;
class LoadTesterController;
class LoadTesterWatch;
class ControlPanel;
class PrometheusClient;
class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QTimer;
class QToolBar;
class SampleStore;
class TimeWindow;
class VariableBar;
class VariableValuesLoader;

// The window: toolbar (time window, refresh, pause/resume, back to live), the dashboard grid,
// problems found in the dashboard file, and a status bar that says whether the source is up.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(PrometheusClient *client, SampleStore *store, TimeWindow *window, DashboardPoller *poller,
               AnnotationModel *annotations, QWidget *parent = nullptr);

    // How often the label-values variables' choices are asked again (default one minute).
    void setVariableRefreshMs(int ms);

    // Shows a freshly loaded dashboard and what was wrong in its file (if anything).
    void showDashboard(const QList<DashboardIssue> &issues);
    // Shows the control panel dock for this load tester; `watch` (optional) adds a warning
    // to a replica that runs but sends nothing.
    void setLoadTester(LoadTesterController *controller, LoadTesterWatch *watch = nullptr);
    // A feature's dock (the cluster's, the scenario's …): on the right, movable, floatable and
    // closable, listed in View to be shown again; tabbed with `besides` when given.
    QDockWidget *hostDock(const QString &title, const QString &objectName, QWidget *content,
                          QDockWidget *besides = nullptr);
    // The same, below `above`.
    QDockWidget *hostDockBelow(QDockWidget *above, const QString &title, const QString &objectName, QWidget *content);
    // A menu of the menu bar by its object name ("viewMenu"), made with `title` when there is
    // none yet: whoever fills a menu looks it up first.
    QMenu *menuNamed(const QString &objectName, const QString &title);
    // The Load tester dock and its panel; null without a load tester.
    QDockWidget *controlDock() const { return m_controlDock; }
    ControlPanel *controlPanel() const { return m_controlPanel; }
    // A recording shown offline: nothing is fetched, so refresh and pause are disabled and
    // the status bar says where the data comes from instead of Prometheus' state.
    void showOffline(const QString &sourceText);
    DashboardView *dashboardView() const { return m_view; }
    AnnotationEditor *annotationEditor() const { return m_editor; }
    AnnotationDock *annotationDock() const { return m_annotationDock; }

    // File ▸ Import/Export annotations.
    AnnotationFiles *annotationFiles() const { return m_annotationFiles; }

    // Puts the window and its docks where they were when it was last closed (call once all
    // docks exist); View ▸ Reset layout goes back to the layout as it was before this call.
    void restoreLayout();
    // Help ▸ Keyboard shortcuts.
    void showShortcuts();
    // Asked before the window closes; false keeps it open (unsaved changes, and Cancel).
    void setCloseGuard(std::function<bool()> guard) { m_closeGuard = std::move(guard); }

signals:
    // "Find the ceiling…" in the Load tester dock: the run starts it as a one-step scenario.
    void ceilingSearchRequested(const CeilingSearchPlan &plan);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void applyTheme(); // the window's own colours; panels and charts follow UiTheme themselves
    void buildToolBar();
    void buildVariableBar(QToolBar *bar);
    void showVariables();
    void loadVariableValues(); // the label-values variables' choices, from Prometheus (live only)
    void buildMenus();
    // View lists every dock, together, to show one again once closed (the Load tester's once
    // could not be found there).
    void listInViewMenu(QDockWidget *dock);
    void markNow();
    void syncWindowPicker();
    void updateSourceState(bool reachable, const QString &message);
    void showSourceHealth(); // from what the transport and the panels last said (SourceHealth)
    void updateSampleCount();
    void addInsecureTlsBanner();

    PrometheusClient *m_client;
    SampleStore *m_store;
    TimeWindow *m_window;
    DashboardPoller *m_poller;
    AnnotationModel *m_annotations;
    AnnotationEditor *m_editor;
    AnnotationDock *m_annotationDock;
    AnnotationFiles *m_annotationFiles = nullptr;
    DashboardView *m_view;
    QLabel *m_issues;
    QWidget *m_central = nullptr; // behind the panels: the theme's window colour
    QComboBox *m_windowPicker = nullptr;
    QComboBox *m_refreshPicker = nullptr;
    VariableBar *m_variableBar = nullptr;
    QAction *m_variableAction = nullptr; // the bar in the toolbar: hidden without choosable variables
    VariableValuesLoader *m_variableValues = nullptr;
    AnnotationQueryBar *m_queryBar = nullptr;
    QAction *m_queryBarAction = nullptr; // hidden without annotation queries
    bool m_offline = false;
    QTimer *m_variableRefresh = nullptr; // label values asked again while live
    QAction *m_pauseAction = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QLabel *m_title = nullptr;
    QList<QAction *> m_dockToggles; // in the View menu, in the order the docks came
    QLabel *m_sourceState;
    std::optional<bool> m_reachable; // none before the first answer
    QString m_downReason;
    QLabel *m_sampleCount;
    QLabel *m_admin;
    QDockWidget *m_controlDock = nullptr;
    ControlPanel *m_controlPanel = nullptr;
    QByteArray m_defaultLayout;    // saveState() before restoreLayout(), for Reset layout
    bool m_layoutRestored = false; // only a window that restored its layout saves it
    std::function<bool()> m_closeGuard;
};
