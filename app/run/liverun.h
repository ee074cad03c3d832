// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "actions/comparisonruns.h"
#include "analysis/annotationqueryrunner.h"
#include "analysis/detectorrunner.h"
#include "annotations/annotationmodel.h"
#include "cli/commandline.h"
#include "dashboard/loader/dashboardloader.h"
#include "fetching/dashboardpoller.h"
#include "fetching/derivedseriesupdater.h"
#include "loadtester/actionannotator.h"
#include "loadtester/loadtesterconnector.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtesterseries.h"
#include "loadtester/loadtesterwatch.h"
#include "modules/clustermodule.h"
#include "modules/scenariomodule.h"
#include "prometheus/prometheusclient.h"
#include "run/heaptrimmer.h"
#include "session/format/sessioncontents.h"
#include "session/sessionrecorder.h"
#include "session/sessionsaver.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QObject>
#include <QStringList>
#include <memory>
#include <optional>

class ComparisonAction;
class DashboardEditing;
class DashboardOpenAction;
class DashboardSaveAction;
class ExploreAction;
class PanelEditingAction;
class ExportRunner;
class GrafanaImportAction;
class HeadlessRunner;
class MainWindow;
class PostExportAction;
class SessionControls;

// One run of the app, live or a recording shown offline, and every object it needs. Who owns
// whom is the order of the members below: each is built after what it points to and destroyed
// before it, so the window (and every widget in it) goes first and the store, the client and
// the poller it draws from last. Nothing of a run lives in main() or on the application.
//
// Objects that can only be built once the source is open (the dashboard is known, the window
// is shown) are optionals, emplaced by open() at the point the run needs them; where they are
// declared still decides when they go.
class LiveRun : public QObject
{
    Q_OBJECT
public:
    // Builds the models; nothing is read, fetched or shown yet.
    LiveRun(AppOptions options, bool onScreen, QObject *parent = nullptr);
    ~LiveRun() override;
    LiveRun(const LiveRun &) = delete;
    LiveRun &operator=(const LiveRun &) = delete;

    // Opens the recording or the dashboard, shows the window and starts polling, recording,
    // the scenario and the headless jobs. Empty: run the event loop. A value: exit with it
    // at once (0 when the user cancelled opening a recording; 2 after a message on stderr).
    std::optional<int> open();

    MainWindow *mainWindow() const { return m_mainWindow.get(); }

private:
    std::optional<int> openSource(); // the recording, or the dashboard file
    void applyWindowAndRetention();
    void startDerivedWork(); // formulas and detectors over the store
    void connectLoadTester();
    std::optional<int> connectKubernetes(); // --kubernetes: the Cluster dock
    std::optional<int> startSessions();     // recording the live run, or edits of the recording
    void recordLiveRun();
    void showRun();
    std::optional<int> startScenario();
    void startHeadless();
    void startExport();
    bool isRecording() const { return m_recording != nullptr; }
    // The run a post or a comparison is of: a recording's, or a live run's since it started.
    TimeRange runRange() const;
    const SessionScenario *recordedScenario() const; // the last a recording ran; null: none
    void addWriteUpActions();                        // File ▸ Export post…, Compare runs…
    void addEditingActions(); // View ▸ Explore, File ▸ Save dashboard, the dashboard's undoable changes
    // A changed dashboard (Explore's "Add to panel", an undo): the poller, the formulas, the
    // detectors, the recording and the grid take it; the samples already fetched stay.
    void applyDashboard(const DashboardDefinition &dashboard, const std::vector<KeyRename> &renames);
    // The export waits for the scenario to end: a post of the whole scenario, its verdict's exit code.
    bool exportAtScenarioEnd() const;

    // What the run was asked for, and what opening it found.
    AppOptions m_options;
    const bool m_onScreen;
    DashboardLoader::LoadResult m_loaded;
    std::shared_ptr<const SessionContents> m_recording; // shown offline, if it is one
    std::optional<TimeRange> m_lastView;                // a recording reopens zoomed as it ended
    QStringList m_seriesOrder;                          // ... with its series in their live order
    qint64 m_startedMs = 0;                             // a live run's start: a post is of the run since

    // The models, leaves first.
    PrometheusClient m_client;
    SampleStore m_store;
    TimeWindow m_window;
    AnnotationModel m_annotations;
    DashboardPoller m_poller;                  // client, store, window
    ComparisonRuns m_comparison;               // client, store, window: runs compared beside this one
    DerivedSeriesUpdater m_derivedSeries;      // store
    DetectorRunner m_detectors;                // store, annotations
    AnnotationQueryRunner m_annotationQueries; // client, annotations
    HeapTrimmer m_heapTrimmer;                 // poller
    LoadTesterController m_controller;
    LoadTesterSeriesRecorder m_loadTesterSeries;    // controller, store
    ActionAnnotator m_annotator;                    // controller, annotations
    LoadTesterWatch m_loadTesterWatch;              // controller, annotations
    std::optional<LoadTesterConnector> m_connector; // controller, client; needs the dashboard's plan
    SessionRecorder m_recorder;                     // store, annotations, controller
    SessionSaver m_saver;                           // annotations, recorder

    // The window and what lives in it, destroyed first. The actions are QObject children of
    // the window that it would delete too: declared after it, they go before it does.
    ClusterModule m_cluster; // annotations, store, poller; --kubernetes
    // The scenario's dock in the window points to its runner: the window goes first.
    std::optional<ScenarioModule> m_scenario; // controller, annotations, client, recorder, cluster
    std::unique_ptr<MainWindow> m_mainWindow;
    std::unique_ptr<SessionControls> m_sessionControls;
    std::unique_ptr<GrafanaImportAction> m_grafanaImport;
    std::unique_ptr<DashboardOpenAction> m_dashboardOpen;
    std::unique_ptr<PostExportAction> m_postExport;
    std::unique_ptr<ComparisonAction> m_compareRuns;
    std::unique_ptr<DashboardEditing> m_editing;          // the window's undo stack
    std::unique_ptr<DashboardSaveAction> m_dashboardSave; // editing
    std::unique_ptr<ExploreAction> m_explore;             // client, window, editing
    std::unique_ptr<PanelEditingAction> m_panelEditing;   // editing
    std::unique_ptr<HeadlessRunner> m_headless;
    std::unique_ptr<ExportRunner> m_export;
};
