// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/liverun.h"

#include "actions/comparisonaction.h"
#include "actions/dashboardediting.h"
#include "actions/dashboardopenaction.h"
#include "actions/dashboardsaveaction.h"
#include "actions/exploreaction.h"
#include "actions/grafanaimportaction.h"
#include "actions/paneleditingaction.h"
#include "actions/postexportaction.h"
#include "actions/sessioncomparison.h"
#include "actions/sessioncontrols.h"
#include "actions/sessionopening.h"
#include "annotating/annotationdock.h"
#include "annotating/annotationeditor.h"
#include "cli/console.h"
#include "fetching/derivedseriesupdater.h"
#include "headless/exportrunner.h"
#include "headless/headlessrunner.h"
#include "loadtester/loadtesterplan.h"
#include "loadtester/loadtestertext.h"
#include "panels/dashboardview.h"
#include "session/sessionreplay.h"
#include "settings/appsettings.h"
#include "store/serieskey.h"
#include "window/mainwindow.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMessageBox>
#include <algorithm>
#include <cstdio>

LiveRun::LiveRun(AppOptions options, bool onScreen, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_onScreen(onScreen), m_client(m_options.prometheus),
      m_poller(&m_client, &m_store, &m_window), m_comparison(&m_client, &m_store, &m_window), m_derivedSeries(&m_store),
      m_detectors(&m_store, &m_annotations), m_annotationQueries(&m_client, &m_annotations),
      m_heapTrimmer(&m_poller), // a day's history parsed leaves heap behind
      m_loadTesterSeries(&m_controller, &m_store), m_annotator(&m_controller, &m_annotations),
      m_loadTesterWatch(&m_controller, &m_annotations), // changes from outside, restarts, silence
      m_recorder(&m_store, &m_annotations), m_saver(&m_annotations), m_cluster(&m_annotations, &m_store, &m_poller)
{
    m_poller.setScrapeIntervalMs(m_options.scrapeIntervalMs);
    m_poller.setDetailPointsPerColumn(m_options.detailPointsPerColumn);
}

// Members go in reverse order: the headless jobs and the window first, the models last.
LiveRun::~LiveRun() = default;

std::optional<int> LiveRun::open()
{
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    if (const std::optional<int> exitCode = openSource())
        return exitCode;
    const ExportOptions &exportOptions = m_options.exportOptions;
    if (!exportOptions.compareVariable.isEmpty()) {
        const Result<bool> added = m_comparison.addVariableValues(m_loaded.dashboard, exportOptions.compareVariable,
                                                                  exportOptions.compareValues);
        if (!added) {
            Console::say(QStringLiteral("--compare-variable: %1").arg(added.error().message));
            return 2;
        }
    }
    applyWindowAndRetention();
    startDerivedWork();

    m_mainWindow = std::make_unique<MainWindow>(&m_client, &m_store, &m_window, &m_poller, &m_annotations);
    connectLoadTester();
    if (const std::optional<int> exitCode = connectKubernetes())
        return exitCode;
    m_mainWindow->resize(m_options.windowSize);
    // Headless runs and screenshots are pictures of the dashboard; the annotation list is for
    // someone at the screen (View ▸ Annotations brings it back).
    if (!m_options.screenshotPath.isEmpty() || !m_onScreen)
        m_mainWindow->annotationDock()->hide();

    if (const std::optional<int> exitCode = startSessions())
        return exitCode;
    showRun();
    if (const std::optional<int> exitCode = startScenario())
        return exitCode;
    startHeadless();
    startExport();
    return std::nullopt;
}

std::optional<int> LiveRun::openSource()
{
    if (m_options.sessionPath.isEmpty()) {
        // A broken dashboard file does not stop the app: what could be read is shown, with the
        // problems listed above the panels.
        m_loaded = DashboardLoader::load(m_options.dashboard);
        for (const DashboardIssue &issue : m_loaded.issues)
            Console::say(QStringLiteral("dashboard %1: %2").arg(m_options.dashboard, issue.toString()));
        return std::nullopt;
    }

    // A recording shown offline: its dashboard, samples and annotations instead of a live run.
    SessionOpening::Options opening;
    opening.showProgress = m_onScreen;
    Result<SessionContents> read = SessionOpening::read(m_options.sessionPath, opening);
    if (!read && read.error().kind == Error::Kind::Cancelled) {
        Console::say(read.error().message);
        return 0; // the user's choice: nothing went wrong
    }
    if (!read) {
        Console::say(read.error().message);
        if (m_onScreen)
            QMessageBox::critical(nullptr, QStringLiteral("Chaoscope"), read.error().message);
        return 2;
    }
    m_recording = std::make_shared<const SessionContents>(std::move(read).value());
    if (const QString problems = m_recording->describeProblems(); !problems.isEmpty())
        Console::say(QStringLiteral("%1: %2").arg(m_options.sessionPath, problems));
    const SessionReplay::Loaded replay = SessionReplay::load(*m_recording, &m_store, &m_annotations);
    m_loaded.dashboard = replay.dashboard;
    m_loaded.issues = replay.issues;
    m_loaded.usable = true;
    m_loaded.dashboard.windowMs = replay.windowMs;
    m_loaded.dashboard.loadTester = {}; // nothing is steered offline
    // "Now" is the end of the recording, so the window shows the run as it was last seen live.
    const qint64 end = replay.nowMs > 0 ? replay.nowMs : QDateTime::currentMSecsSinceEpoch();
    m_window.setClock([end] { return end; });
    m_lastView = replay.zoomed;
    m_seriesOrder = replay.seriesOrder;

    // Further recordings, compared with this one: each read into a store of its own.
    m_comparison.setShownRecording(m_options.sessionPath);
    for (const QString &path : m_options.exportOptions.compareSessions) {
        const Result<bool> added = m_comparison.addRecording(path, replay.dashboard);
        if (!added) {
            Console::say(QStringLiteral("--compare-session: %1").arg(added.error().message));
            return 2;
        }
    }
    return std::nullopt;
}

void LiveRun::applyWindowAndRetention()
{
    if (m_options.windowMs)
        m_loaded.dashboard.windowMs = *m_options.windowMs;
    if (m_options.refreshMs)
        m_loaded.dashboard.refreshSeconds = qMax(1, *m_options.refreshMs / 1000);
    m_window.setWindowMs(m_loaded.dashboard.windowMs);
    if (isRecording())
        return;
    // Memory is bounded by the retention (the session file keeps everything); it never hides
    // part of the live window, also not after the user widens it.
    const qint64 retentionMs = m_options.retentionMs.value_or(m_store.retentionMs());
    const auto keepWindowInMemory = [this, retentionMs] {
        const qint64 wanted = std::max(retentionMs, m_window.windowMs());
        if (m_store.retentionMs() != wanted) // rangeChanged fires on every live tick
            m_store.setRetentionMs(wanted);
    };
    keepWindowInMemory();
    connect(&m_window, &TimeWindow::rangeChanged, this, keepWindowInMemory);
}

void LiveRun::startDerivedWork()
{
    m_poller.setDashboard(m_loaded.dashboard);
    // Formulas over other series ("pending / rate") follow their inputs in the store.
    m_derivedSeries.setDashboard(m_loaded.dashboard);
    m_derivedSeries.recomputeAll(); // a recording's inputs are already in the store
    // The dashboard's detectors suggest annotations, drawn dimmed until accepted or dismissed.
    // Live runs only: a recording keeps the suggestions it was saved with, and opening one
    // must not write new ones into it.
    if (!isRecording())
        m_detectors.setDashboard(m_loaded.dashboard);
    // Annotation queries: marks from the data, live only (a recording has the marks it made).
    if (!isRecording() && !m_loaded.dashboard.annotationQueries.empty()) {
        m_annotationQueries.setQueries(m_loaded.dashboard.annotationQueries, m_poller.dashboard().variableDefinitions);
        connect(&m_poller, &DashboardPoller::variableChanged, &m_annotationQueries,
                [this] { m_annotationQueries.setVariables(m_poller.dashboard().variableDefinitions); });
        connect(&m_annotationQueries, &AnnotationQueryRunner::problemChanged, this,
                [](const QString &name, const QString &message) {
                    Console::say(message.isEmpty() ? QStringLiteral("annotation query \"%1\" answers again").arg(name)
                                                   : QStringLiteral("annotation query \"%1\": %2").arg(name, message));
                });
        // A wider window or a view panned back: the marks from before are asked for too.
        connect(&m_window, &TimeWindow::rangeChanged, &m_annotationQueries,
                [this](const TimeRange &range) { m_annotationQueries.cover(range.startMs); });
    }
    if (m_options.refreshMs)
        m_poller.setRefreshMs(*m_options.refreshMs);
}

void LiveRun::connectLoadTester()
{
    // Steering: one controller for all replicas of the load tester (from the command line or
    // the dashboard's "loadTester"); every action it applies lands on the timelines as an
    // annotation, and its status values are recorded as series a panel can draw.
    const LoadTesterPlan plan = LoadTesterPlan::resolve(
        {m_options.adminKindGiven ? m_options.adminKind : QString(), m_options.adminUrls, m_options.adminToken},
        m_loaded.dashboard.loadTester, [](const QString &name) { return qEnvironmentVariable(qPrintable(name)); });
    for (const QString &problem : plan.problems)
        Console::say(problem);
    m_connector.emplace(&m_controller, &m_client, plan);
    connect(&*m_connector, &LoadTesterConnector::problem, this, &Console::say);
    // Quitting does not stop the load: say in one line what it is left doing.
    connect(qApp, &QCoreApplication::aboutToQuit, this, [this] {
        std::vector<LoadTesterStatus> statuses;
        for (int i = 0; i < m_controller.replicaCount(); ++i)
            if (const auto status = m_controller.status(i))
                statuses.push_back(*status);
        if (const QString left = LoadTesterText::leftInState(m_controller.capabilities(), statuses); !left.isEmpty())
            Console::say(left);
    });
    if (plan.isSet())
        m_mainWindow->setLoadTester(&m_controller, &m_loadTesterWatch);
    m_connector->start();
}

std::optional<int> LiveRun::connectKubernetes()
{
    if (!m_options.sessionPath.isEmpty())
        return std::nullopt; // a recording shows the cluster as it was recorded
    if (const std::optional<int> exitCode = m_cluster.connectTo(m_options.kubernetes, m_loaded.dashboard))
        return exitCode;
    if (!m_cluster.controller())
        return std::nullopt;
    m_cluster.host(m_mainWindow.get(), m_loaded.dashboard.kubernetes);
    m_cluster.start();
    return std::nullopt;
}

std::optional<int> LiveRun::startSessions()
{
    // Sessions: every live run is recorded (unless --no-record); a recording shown offline
    // takes annotation edits into its own file. The File menu's entries come in this order.
    m_sessionControls = std::make_unique<SessionControls>(m_mainWindow.get(), &m_window, &m_recorder, &m_saver);
    m_grafanaImport = std::make_unique<GrafanaImportAction>(m_mainWindow.get(), m_options.prometheus.baseUrl,
                                                            m_options.connectionArguments);
    m_dashboardOpen = std::make_unique<DashboardOpenAction>(m_mainWindow.get(), m_options.prometheus.baseUrl,
                                                            m_options.connectionArguments); // first in File
    addWriteUpActions();
    addEditingActions();
    if (isRecording()) {
        m_recorder.appendOnFirstEdit(m_options.sessionPath, m_recording->validEnd);
        m_saver.setRecording(m_recording, m_options.sessionPath);
        m_sessionControls->setOffline(m_options.sessionPath, m_recording->describeProblems());
        return std::nullopt;
    }
    if (!m_options.record) {
        m_sessionControls->setNotRecording(QStringLiteral("--no-record"));
        return std::nullopt;
    }
    const QString path = m_options.recordPath.isEmpty()
                             ? SessionRecorder::defaultPath(m_options.dashboard, QDateTime::currentMSecsSinceEpoch())
                             : m_options.recordPath;
    if (const std::optional<Error> error = m_recorder.start(path, {m_options.dashboard, m_options.prometheus.baseUrl},
                                                            m_loaded.dashboard, m_window.windowMs())) {
        Console::say(QStringLiteral("not recording: %1").arg(error->message));
        // A recording asked for by name is the point of the run; the default one is not worth
        // more than the dashboard: run without it, and say so.
        if (!m_options.recordPath.isEmpty())
            return 2;
        m_sessionControls->setNotRecording(error->message);
        return std::nullopt;
    }
    recordLiveRun();
    return std::nullopt;
}

void LiveRun::recordLiveRun()
{
    Console::say(QStringLiteral("recording to %1").arg(m_recorder.path()));

    if (m_onScreen)
        AppSettings::addRecentSession(m_recorder.path());
    m_recorder.setLoadTester(&m_controller);
    // What value a $variable had when: a reopened recording shows the last one.
    connect(&m_poller, &DashboardPoller::variableChanged, &m_recorder, &SessionRecorder::recordVariable);
    m_saver.setLive(&m_recorder);
    // The picture last seen, for the recording to reopen on.
    connect(qApp, &QCoreApplication::aboutToQuit, &m_recorder,
            [this] { m_recorder.recordView(m_window.range(), m_window.isLive()); });
    // The offline view opens on the window last shown live.
    connect(&m_window, &TimeWindow::rangeChanged, &m_recorder, [this, shown = m_window.windowMs()]() mutable {
        if (m_window.windowMs() == shown)
            return;
        shown = m_window.windowMs();
        m_recorder.recordDashboard(m_poller.dashboard(), shown);
    });
}

void LiveRun::showRun()
{
    m_mainWindow->showDashboard(m_loaded.issues);
    if (isRecording()) {
        if (m_lastView)
            m_window.showRange(*m_lastView);
        m_poller.bindStoredSeries(m_seriesOrder);
        const QFileInfo file(m_options.sessionPath);
        const QString title =
            m_loaded.dashboard.title.isEmpty() ? QStringLiteral("Untitled dashboard") : m_loaded.dashboard.title;
        m_mainWindow->setWindowTitle(QStringLiteral("%1 — recording %2 — Chaoscope").arg(title, file.fileName()));
        const QString problems = m_recording->shortProblems(); // the whole story went to stderr
        const QString source =
            m_recording->sourceUrl.isEmpty() ? QStringLiteral("a run") : m_recording->sourceUrl.toHtmlEscaped();
        m_mainWindow->showOffline(
            QStringLiteral("Offline: recording of %1%2%3")
                .arg(source, problems.isEmpty() ? QString() : QStringLiteral(" · <span style='color:#B03A00'>"),
                     problems.isEmpty() ? QString() : problems.toHtmlEscaped() + QStringLiteral("</span>")));
    }
    // On a screen the window comes back as it was left; headless pictures keep --size.
    if (m_onScreen && m_options.screenshotPath.isEmpty())
        m_mainWindow->restoreLayout();
    if (isRecording())
        AppSettings::addRecentSession(m_options.sessionPath);
    else if (m_onScreen && m_loaded.usable)
        AppSettings::rememberLiveRun(m_options.prometheus.baseUrl.toString(QUrl::RemoveUserInfo), m_options.dashboard);
    m_mainWindow->show();
    if (!isRecording()) {
        m_poller.start();
        m_comparison.start();
        if (m_annotationQueries.queryCount() > 0)
            m_annotationQueries.start(m_window.windowMs(), m_poller.refreshMs());
    }
}

std::optional<int> LiveRun::startScenario()
{
    m_scenario.emplace(ScenarioModule::Context{&m_controller, &m_annotations, &m_client, &m_recorder, &m_store,
                                               &m_poller, m_cluster.controller(), m_mainWindow.get(),
                                               m_options.outputDir});
    connect(&m_scenario->runner(), &ScenarioRunner::finished, this, [this] {
        // Headless, a scenario alone is the whole run; with a screenshot or an export those end it.
        const ScenarioVerdict &verdict = m_scenario->runner().verdict();
        if (m_export && exportAtScenarioEnd())
            m_export->finishAfterScenario(m_scenario->runner().scenario().title, verdict);
        else if (!m_onScreen && m_options.screenshotPath.isEmpty() && !m_options.exportOptions.isSet())
            QCoreApplication::exit(verdict.exitCode());
    });
    if (m_options.scenario.isEmpty())
        return std::nullopt;
    return m_scenario->start(m_options.scenario);
}

void LiveRun::startHeadless()
{
    if (m_options.screenshotPath.isEmpty())
        return;
    // A recording is shot as soon as it is drawn, unless --after says otherwise.
    const qint64 afterMs = isRecording() && !m_options.screenshotAfterGiven ? 500 : m_options.screenshotAfterMs;
    m_headless =
        std::make_unique<HeadlessRunner>(m_mainWindow.get(), &m_poller, &m_client, m_options.screenshotPath, afterMs);
    m_headless->setOffline(isRecording());
    m_headless->setDashboardView(m_mainWindow->dashboardView());
    if (!m_options.layoutPath.isEmpty())
        m_headless->setLayoutPath(m_options.layoutPath, m_mainWindow->dashboardView());
    m_headless->setDialogEntry(m_options.screenshotDialog);
    m_headless->start();
}

void LiveRun::startExport()
{
    const ExportOptions &exportOptions = m_options.exportOptions;
    if (!exportOptions.isSet())
        return;
    // Drawn from the store, not the window: a recording is written at once.
    const qint64 afterMs = isRecording() && !m_options.screenshotAfterGiven ? 0 : m_options.screenshotAfterMs;
    // The caption's source: the recording(s), or the Prometheus of a live run.
    QString source = m_options.prometheus.baseUrl.toDisplayString(QUrl::RemoveUserInfo);
    if (isRecording())
        source = (QStringList{QFileInfo(m_options.sessionPath).fileName()} + m_comparison.recordingNames())
                     .join(QStringLiteral(", "));
    ExportRunner::Context context{
        &m_poller, isRecording() ? nullptr : &m_client, &m_store, &m_annotations, &m_window, source, isRecording()};
    context.comparison = exportOptions.comparesRuns() && exportOptions.compare.isEmpty() ? &m_comparison : nullptr;
    if (isRecording()) {
        context.recordedRun = SessionComparison::runOf(*m_recording);
        if (const SessionScenario *scenario = recordedScenario()) {
            context.scenarioTitle = scenario->title;
            context.scenarioVerdict = ScenarioVerdict::fromAnnotationText(scenario->verdict);
        }
    }
    context.startedMs = m_startedMs;
    context.runTitle = isRecording() ? QFileInfo(m_options.sessionPath).completeBaseName()
                                     : QDateTime::fromMSecsSinceEpoch(m_startedMs).toString(QStringLiteral("HH:mm"));
    m_export = std::make_unique<ExportRunner>(context, exportOptions, afterMs);
    if (!exportAtScenarioEnd())
        m_export->start();
    else if (!m_scenario->runner().isRunning()) // it ended as it started (a step failed at once)
        m_export->finishAfterScenario(m_scenario->runner().scenario().title, m_scenario->runner().verdict());
}

TimeRange LiveRun::runRange() const
{
    if (isRecording())
        return SessionComparison::runOf(*m_recording);
    return {m_startedMs, m_window.now()};
}

void LiveRun::addWriteUpActions()
{
    const auto source = [this] {
        return isRecording() ? QFileInfo(m_options.sessionPath).fileName()
                             : m_options.prometheus.baseUrl.toDisplayString(QUrl::RemoveUserInfo);
    };
    m_postExport =
        std::make_unique<PostExportAction>(m_mainWindow.get(), &m_store, &m_annotations, &m_poller, [this, source] {
            PostExportAction::RunInfo info{runRange(), source(), {}};
            // A scenario that ran: its title, and its verdict once it ended; a recording's as recorded.
            if (const SessionScenario *recorded = recordedScenario()) {
                info.scenario = recorded->title;
                info.verdict = ScenarioVerdict::fromAnnotationText(recorded->verdict);
            } else if (m_scenario && m_scenario->ran()) {
                info.scenario = m_scenario->runner().scenario().title;
                if (!m_scenario->runner().isRunning())
                    info.verdict = m_scenario->runner().verdict();
            }
            return info;
        });
    m_compareRuns = std::make_unique<ComparisonAction>(
        m_mainWindow.get(), &m_store, &m_annotations, &m_poller, &m_window, &m_comparison, [this] {
            ComparedRun run;
            run.title = isRecording() ? QFileInfo(m_options.sessionPath).completeBaseName() : tr("this run");
            run.store = &m_store;
            run.snapshot = m_poller.snapshot();
            for (const Annotation &annotation : m_annotations.annotations())
                if (!annotation.suggested)
                    run.annotations.push_back(annotation);
            run.range = runRange();
            run.zeroMs = run.range.startMs;
            run.steady = run.range;
            return run;
        });
}

const SessionScenario *LiveRun::recordedScenario() const
{
    if (!m_recording || m_recording->scenarios.empty())
        return nullptr;
    return &m_recording->scenarios.back();
}

void LiveRun::addEditingActions()
{
    m_editing = std::make_unique<DashboardEditing>(
        m_mainWindow->annotationEditor()->undoStack(), [this] { return m_poller.dashboard(); },
        [this](const DashboardDefinition &dashboard, const std::vector<KeyRename> &renames) {
            applyDashboard(dashboard, renames);
        });
    // A recording's dashboard has no file of its own: it is saved where the user says.
    m_dashboardSave = std::make_unique<DashboardSaveAction>(
        m_mainWindow.get(), m_editing.get(), [this] { return m_poller.dashboard(); },
        isRecording() ? QString() : m_options.dashboard);
    m_mainWindow->setCloseGuard([this] { return !m_onScreen || m_dashboardSave->mayClose(); });
    m_explore = std::make_unique<ExploreAction>(m_mainWindow.get(), &m_client, &m_window, m_mainWindow->dashboardView(),
                                                &m_annotations, m_editing.get(), isRecording());
    m_explore->setDashboard(m_poller.dashboard());
    m_panelEditing = std::make_unique<PanelEditingAction>(m_mainWindow.get(), m_mainWindow->dashboardView(),
                                                          m_editing.get(), [this] { return m_poller.dashboard(); });
}

void LiveRun::applyDashboard(const DashboardDefinition &dashboard, const std::vector<KeyRename> &renames)
{
    // Samples follow their panels first, so that the new panels find them under their keys.
    m_store.rename(renames);
    for (QString &key : m_seriesOrder) {
        for (const KeyRename &rename : renames) {
            if (const std::optional<QString> renamed = rename.applyTo(key)) {
                key = *renamed;
                break;
            }
        }
    }
    m_loaded.dashboard = dashboard;
    m_poller.setDashboard(dashboard);
    m_derivedSeries.setDashboard(dashboard);
    m_derivedSeries.recomputeAll();
    if (!isRecording())
        m_detectors.setDashboard(dashboard);
    m_recorder.recordDashboard(dashboard, m_window.windowMs());
    m_poller.bindStoredSeries(m_seriesOrder); // what is held, drawn by the new panels at once
    m_mainWindow->showDashboard({});
    m_explore->setDashboard(dashboard);
    if (m_panelEditing)
        m_panelEditing->dashboardChanged();
    if (m_poller.isRunning())
        m_poller.pollNow(); // the new queries at once, the others from their newest sample
}

bool LiveRun::exportAtScenarioEnd() const
{
    return !m_options.scenario.isEmpty() && !m_options.screenshotAfterGiven && m_options.exportOptions.isSet();
}
