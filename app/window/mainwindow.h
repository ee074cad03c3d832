// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "scenario/ceilingsearch.h"

#include <QList>
#include <QMainWindow>
#include <functional>
#include <optional>

class AnnotationDock;
class AnnotationQueryBar;
class AnnotationEditor;
class AnnotationModel;
class DashboardPoller;
class DashboardView;
class ClusterController;
class LoadTesterController;
class LoadTesterWatch;
class CapacityCurveView;
class ControlPanel;
class ScenarioRunner;
class PrometheusClient;
class QAction;
class QComboBox;
class QDockWidget;
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
    // Adds the Cluster dock for this cluster (--kubernetes).
    void setCluster(ClusterController *cluster, const KubernetesDefinition &definition = {});
    // Shows the running scenario (steps, countdown, stop) in a dock.
    void showScenario(ScenarioRunner *runner);
    // A recording shown offline: nothing is fetched, so refresh and pause are disabled and
    // the status bar says where the data comes from instead of Prometheus' state.
    void showOffline(const QString &sourceText);
    DashboardView *dashboardView() const { return m_view; }
    CapacityCurveView *capacityCurveView() const { return m_capacityCurve; } // null until a ceiling search
    AnnotationEditor *annotationEditor() const { return m_editor; }
    AnnotationDock *annotationDock() const { return m_annotationDock; }

    // File ▸ Import/Export annotations without the file dialog. Both read or write off the UI
    // thread and report in the status bar (problems of an import also in a message box).
    void importAnnotationsFrom(const QString &path);
    void exportAnnotationsTo(const QString &path);

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
    // An import or export finished: `message` is what the status bar says.
    void annotationFileDone(bool ok, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void applyTheme(); // the window's own colours; panels and charts follow UiTheme themselves
    void buildToolBar();
    void buildVariableBar(QToolBar *bar);
    void showVariables();
    void loadVariableValues(); // the label-values variables' choices, from Prometheus (live only)
    void buildMenus();
    QMenu *menuNamed(const QString &objectName, const QString &title);
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
    CapacityCurveView *m_capacityCurve = nullptr; // once a ceiling search has a stair
    QDockWidget *m_scenarioDock = nullptr;        // once a scenario has run
    QDockWidget *m_clusterDock = nullptr;
    QByteArray m_defaultLayout;    // saveState() before restoreLayout(), for Reset layout
    bool m_layoutRestored = false; // only a window that restored its layout saves it
    std::function<bool()> m_closeGuard;
};
