// SPDX-License-Identifier: GPL-3.0-or-later
// Chaoscope: watch and steer a load test while it runs.
#include "annotationmodel.h"
#include "actionannotator.h"
#include "annotationdock.h"
#include "appsettings.h"
#include "commandline.h"
#include "dashboardloader.h"
#include "dashboardpoller.h"
#include "derivedseriesupdater.h"
#include "detectorrunner.h"
#include "exportrunner.h"
#include "grafanaimport.h"
#include "dashboardopenaction.h"
#include "grafanaimportaction.h"
#include "headlessrunner.h"
#include "heaptrimmer.h"
#include "loadtesterconnector.h"
#include "loadtesterhttp.h"
#include "loadtestercontroller.h"
#include "loadtesterseries.h"
#include "loadtesterwatch.h"
#include "mainwindow.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "scenariorunner.h"
#include "screenshot.h"
#include "sessioncontrols.h"
#include "sessioncomparison.h"
#include "sessionopening.h"
#include "sessionrecorder.h"
#include "sessionreplay.h"
#include "sessionsaver.h"
#include "timewindow.h"
#include "uitheme.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>

#include <cstdio>
#include <memory>
#include <optional>

namespace {

// Qt takes "-session <id>" (and "--session") for X11 session management and removes it
// before QApplication::arguments() is read; Chaoscope's --session names a recording. So it
// is taken out of argv before Qt sees it and handed to the parser afterwards.
QStringList takeSessionArguments(int &argc, char **argv)
{
    QStringList taken;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if ((arg == "--session" || arg == "-session") && i + 1 < argc) {
            taken << QStringLiteral("--session") << QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        if (arg.startsWith("--session=")) {
            taken << QString::fromLocal8Bit(arg);
            continue;
        }
        argv[kept++] = argv[i];
    }
    argc = kept;
    argv[argc] = nullptr;
    return taken;
}

std::optional<int> answerHelpOrVersion(int argc, char **argv, const QStringList &sessionArguments)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const Result<AppOptions> parsed = parseCommandLine(arguments + sessionArguments);
    if (!parsed)
        return std::nullopt; // QApplication may take some of them (-style, …); decided below
    if (parsed->showHelp) {
        std::printf("%s", qPrintable(parsed->helpText));
        return 0;
    }
    if (parsed->showVersion) {
        std::printf("chaoscope %s\n", CHAOSCOPE_VERSION);
        return 0;
    }
    // A file conversion for scripts: no window, so no display either.
    if (!parsed->importGrafanaPath.isEmpty())
        return GrafanaImport::runCommand(parsed->importGrafanaPath, parsed->importOutputPath);
    return std::nullopt;
}

} // namespace

int main(int argc, char *argv[])
{
    const QStringList sessionArguments = takeSessionArguments(argc, argv);
    // --help and --version answer before QApplication exists: they need no display (the man
    // page is generated from --help on a build machine without one).
    if (const std::optional<int> exitCode = answerHelpOrVersion(argc, argv, sessionArguments))
        return *exitCode;
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Chaoscope"));
    QApplication::setOrganizationName(QStringLiteral("Chaoscope"));
    QApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_VERSION));

    const Result<AppOptions> parsed = parseCommandLine(QApplication::arguments() + sessionArguments);
    if (!parsed) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(parsed.error().message));
        return 2;
    }
    AppOptions options = parsed.value();
    if (options.showHelp) {
        std::printf("%s", qPrintable(options.helpText));
        return 0;
    }
    if (options.showVersion) {
        std::printf("chaoscope %s\n", CHAOSCOPE_VERSION);
        return 0;
    }
    if (!options.importGrafanaPath.isEmpty())
        return GrafanaImport::runCommand(options.importGrafanaPath, options.importOutputPath);

    // TLS as the command line says, for Prometheus (its connection) and every admin endpoint.
    LoadTesterHttp::setDefaultTls(options.prometheus.tls);
    if (!options.prometheus.tls.verifyPeer)
        std::fprintf(stderr, "chaoscope: warning: TLS certificate verification is off (--insecure); use --ca-file "
                             "for a private CA\n");

    const bool onScreen = QGuiApplication::platformName() != QLatin1String("offscreen")
                          && QGuiApplication::platformName() != QLatin1String("minimal");
    // The colour theme: --ui-theme, else (on screen) the one last chosen in View ▸ Theme.
    const QString themeName = !options.uiTheme.isEmpty() ? options.uiTheme : onScreen ? AppSettings::theme() : QString();
    if (const std::optional<UiTheme::Choice> theme = UiTheme::choiceFromName(themeName))
        UiTheme::instance()->apply(*theme);

    // Started from the desktop without arguments: the source and dashboard of the last live
    // run, not the defaults. Headless runs (scripts, tests) are never changed by settings.
    if (onScreen && options.sessionPath.isEmpty()) {
        if (!options.prometheusGiven && !AppSettings::lastPrometheusUrl().isEmpty())
            options.prometheus.baseUrl = QUrl(AppSettings::lastPrometheusUrl());
        if (!options.dashboardGiven && !AppSettings::lastDashboard().isEmpty())
            options.dashboard = AppSettings::lastDashboard();
    }

    PrometheusClient client(options.prometheus);
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller(&client, &store, &window);
    poller.setScrapeIntervalMs(options.scrapeIntervalMs);
    AnnotationModel annotations;

    DashboardLoader::LoadResult loaded;
    std::shared_ptr<const SessionContents> recording;
    std::optional<TimeRange> lastView; // a recording that ended zoomed in opens zoomed in
    QStringList seriesOrder;           // ... with its series in the order (and colours) they had live
    if (!options.sessionPath.isEmpty()) {
        // A recording shown offline: its dashboard, samples and annotations instead of a live run.
        SessionOpening::Options opening;
        opening.showProgress = onScreen;
        Result<SessionContents> read = SessionOpening::read(options.sessionPath, opening);
        if (!read && read.error().kind == Error::Kind::Cancelled) {
            std::fprintf(stderr, "chaoscope: %s\n", qPrintable(read.error().message));
            return 0; // the user's choice: nothing went wrong
        }
        if (!read) {
            std::fprintf(stderr, "chaoscope: %s\n", qPrintable(read.error().message));
            if (onScreen)
                QMessageBox::critical(nullptr, QStringLiteral("Chaoscope"), read.error().message);
            return 2;
        }
        recording = std::make_shared<const SessionContents>(std::move(read).value());
        if (const QString problems = recording->describeProblems(); !problems.isEmpty())
            std::fprintf(stderr, "chaoscope: %s: %s\n", qPrintable(options.sessionPath), qPrintable(problems));
        const SessionReplay::Loaded replay = SessionReplay::load(*recording, &store, &annotations);
        loaded.dashboard = replay.dashboard;
        loaded.issues = replay.issues;
        loaded.usable = true;
        loaded.dashboard.windowMs = replay.windowMs;
        loaded.dashboard.loadTester = {}; // nothing is steered offline
        // "Now" is the end of the recording, so the window shows the run as it was last seen live.
        const qint64 end = replay.nowMs > 0 ? replay.nowMs : QDateTime::currentMSecsSinceEpoch();
        window.setClock([end] { return end; });
        lastView = replay.zoomed;
        seriesOrder = replay.seriesOrder;
        if (!options.exportOptions.compareSessionPath.isEmpty()) {
            const Result<SessionComparison::Second> second = SessionComparison::addSecondRecording(
                options.exportOptions.compareSessionPath, *recording, replay.dashboard, &store, &annotations);
            if (!second) {
                std::fprintf(stderr, "chaoscope: %s\n", qPrintable(second.error().message));
                return 2;
            }
            options.exportOptions.compare = second->compareRanges;
            if (options.exportOptions.compareTitles.isEmpty()) // which run is which, until named
                options.exportOptions.compareTitles = {QFileInfo(options.sessionPath).completeBaseName(),
                                                       QFileInfo(options.exportOptions.compareSessionPath).completeBaseName()};
        }
    } else {
        // A broken dashboard file does not stop the app: what could be read is shown, with the
        // problems listed above the panels.
        loaded = DashboardLoader::load(options.dashboard);
        for (const DashboardIssue &issue : loaded.issues)
            std::fprintf(stderr, "chaoscope: dashboard %s: %s\n", qPrintable(options.dashboard), qPrintable(issue.toString()));
    }
    if (options.windowMs)
        loaded.dashboard.windowMs = *options.windowMs;
    if (options.refreshMs)
        loaded.dashboard.refreshSeconds = qMax(1, *options.refreshMs / 1000);
    window.setWindowMs(loaded.dashboard.windowMs);
    if (options.sessionPath.isEmpty()) {
        // Memory is bounded by the retention (the session file keeps everything); it never
        // hides part of the live window, also not after the user widens it.
        const qint64 retentionMs = options.retentionMs.value_or(store.retentionMs());
        const auto keepWindowInMemory = [&store, &window, retentionMs] {
            const qint64 wanted = std::max(retentionMs, window.windowMs());
            if (store.retentionMs() != wanted) // rangeChanged fires on every live tick
                store.setRetentionMs(wanted);
        };
        keepWindowInMemory();
        QObject::connect(&window, &TimeWindow::rangeChanged, &store, keepWindowInMemory);
    }
    poller.setDashboard(loaded.dashboard);
    // Formulas over other series ("pending / rate") follow their inputs in the store.
    DerivedSeriesUpdater derivedSeries(&store);
    derivedSeries.setDashboard(loaded.dashboard);
    derivedSeries.recomputeAll(); // a recording's inputs are already in the store
    // The dashboard's detectors suggest annotations, drawn dimmed until accepted or dismissed.
    // Live runs only: a recording keeps the suggestions it was saved with, and opening one
    // must not write new ones into it.
    DetectorRunner detectorRunner(&store, &annotations);
    if (!recording)
        detectorRunner.setDashboard(loaded.dashboard);
    if (options.refreshMs)
        poller.setRefreshMs(*options.refreshMs);

    HeapTrimmer heapTrimmer(&poller); // a day's history parsed leaves heap behind
    MainWindow mainWindow(&client, &store, &window, &poller, &annotations);
    // Steering: one controller for all replicas of the load tester (from the command line or
    // the dashboard's "loadTester"); every action it applies lands on the timelines as an
    // annotation, and its status values are recorded as series a panel can draw.
    LoadTesterController controller;
    const LoadTesterPlan plan = LoadTesterPlan::resolve(
        {options.adminKindGiven ? options.adminKind : QString(), options.adminUrls, options.adminToken},
        loaded.dashboard.loadTester, [](const QString &name) { return qEnvironmentVariable(qPrintable(name)); });
    for (const QString &problem : plan.problems)
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(problem));
    LoadTesterConnector connector(&controller, &client, plan);
    QObject::connect(&connector, &LoadTesterConnector::problem, &mainWindow, [](const QString &message) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(message));
    });
    LoadTesterSeriesRecorder loadTesterSeries(&controller, &store);
    ActionAnnotator annotator(&controller, &annotations);
    LoadTesterWatch loadTesterWatch(&controller, &annotations); // changes from outside, restarts, silence
    if (plan.isSet())
        mainWindow.setLoadTester(&controller, &loadTesterWatch);
    connector.start();
    mainWindow.resize(options.windowSize);
    // Headless runs and screenshots are pictures of the dashboard; the annotation list is for
    // someone at the screen (View ▸ Annotations brings it back).
    if (!options.screenshotPath.isEmpty() || !onScreen)
        mainWindow.annotationDock()->hide();

    // Sessions: every live run is recorded (unless --no-record); a recording shown offline
    // takes annotation edits into its own file.
    SessionRecorder recorder(&store, &annotations);
    SessionSaver saver(&annotations);
    SessionControls sessionControls(&mainWindow, &window, &recorder, &saver);
    GrafanaImportAction grafanaImport(&mainWindow, options.prometheus.baseUrl, options.connectionArguments);
    DashboardOpenAction dashboardOpen(&mainWindow, options.prometheus.baseUrl, options.connectionArguments); // first in File
    if (recording) {
        recorder.appendOnFirstEdit(options.sessionPath, recording->validEnd);
        saver.setRecording(recording, options.sessionPath);
        sessionControls.setOffline(options.sessionPath, recording->describeProblems());
    } else if (options.record) {
        const QString path = options.recordPath.isEmpty()
                                 ? SessionRecorder::defaultPath(options.dashboard, QDateTime::currentMSecsSinceEpoch())
                                 : options.recordPath;
        if (const std::optional<Error> error = recorder.start(path, {options.dashboard, options.prometheus.baseUrl},
                                                               loaded.dashboard, window.windowMs())) {
            std::fprintf(stderr, "chaoscope: not recording: %s\n", qPrintable(error->message));
            // A recording asked for by name is the point of the run; the default one is not
            // worth more than the dashboard: run without it, and say so.
            if (!options.recordPath.isEmpty())
                return 2;
            sessionControls.setNotRecording(error->message);
        } else {
            std::fprintf(stderr, "chaoscope: recording to %s\n", qPrintable(recorder.path()));
            if (onScreen)
                AppSettings::addRecentSession(recorder.path());
            recorder.setLoadTester(&controller);
            // What value a $variable had when: a reopened recording shows the last one.
            QObject::connect(&poller, &DashboardPoller::variableChanged, &recorder, &SessionRecorder::recordVariable);
            saver.setLive(&recorder);
            // The picture last seen, for the recording to reopen on.
            QObject::connect(&app, &QCoreApplication::aboutToQuit, &recorder,
                             [&] { recorder.recordView(window.range(), window.isLive()); });
            // The offline view opens on the window last shown live.
            QObject::connect(&window, &TimeWindow::rangeChanged, &recorder, [&, shown = window.windowMs()]() mutable {
                if (window.windowMs() == shown)
                    return;
                shown = window.windowMs();
                recorder.recordDashboard(poller.dashboard(), shown);
            });
        }
    } else {
        sessionControls.setNotRecording(QStringLiteral("--no-record"));
    }

    mainWindow.showDashboard(loaded.issues);
    if (recording) {
        if (lastView)
            window.showRange(*lastView);
        poller.bindStoredSeries(seriesOrder);
        const QFileInfo file(options.sessionPath);
        const QString title = loaded.dashboard.title.isEmpty() ? QStringLiteral("Untitled dashboard") : loaded.dashboard.title;
        mainWindow.setWindowTitle(QStringLiteral("%1 — recording %2 — Chaoscope").arg(title, file.fileName()));
        const QString problems = recording->shortProblems(); // the whole story went to stderr
        mainWindow.showOffline(QStringLiteral("Offline: recording of %1%2%3")
                                   .arg(recording->sourceUrl.isEmpty() ? QStringLiteral("a run") : recording->sourceUrl.toHtmlEscaped(),
                                        problems.isEmpty() ? QString() : QStringLiteral(" · <span style='color:#B03A00'>"),
                                        problems.isEmpty() ? QString() : problems.toHtmlEscaped() + QStringLiteral("</span>")));
    }
    // On a screen the window comes back as it was left; headless pictures keep --size.
    if (onScreen && options.screenshotPath.isEmpty())
        mainWindow.restoreLayout();
    if (recording)
        AppSettings::addRecentSession(options.sessionPath);
    else if (onScreen && loaded.usable)
        AppSettings::rememberLiveRun(options.prometheus.baseUrl.toString(QUrl::RemoveUserInfo), options.dashboard);
    mainWindow.show();
    if (!recording)
        poller.start();

    // A scenario: loaded before anything runs (a broken one is not started half-way).
    ScenarioRunner scenarioRunner(&controller, &annotations, &client);
    const bool headlessPlatform = QGuiApplication::platformName() == QLatin1String("offscreen")
                                  || QGuiApplication::platformName() == QLatin1String("minimal");
    if (!options.scenario.isEmpty()) {
        const ScenarioLoader::LoadResult scenario = ScenarioLoader::load(options.scenario);
        if (!scenario.usable) {
            for (const DashboardIssue &issue : scenario.issues)
                std::fprintf(stderr, "chaoscope: scenario %s: %s\n", qPrintable(options.scenario), qPrintable(issue.toString()));
            return 2;
        }
        const QDir outputDir(options.outputDir);
        QObject::connect(&scenarioRunner, &ScenarioRunner::screenshotRequested, &mainWindow,
                         [&scenarioRunner, &mainWindow, outputDir](const QString &file) {
                             const Result<QString> saved = saveScreenshot(&mainWindow, outputDir.filePath(file));
                             if (saved)
                                 std::printf("screenshot: %s\n", qPrintable(saved.value()));
                             std::fflush(stdout);
                             scenarioRunner.screenshotTaken(saved.ok(), saved ? QString() : saved.error().message);
                         });
        QObject::connect(&scenarioRunner, &ScenarioRunner::stepFinished, &app,
                         [&](int index, bool ok, const QString &message) {
                             const ScenarioStep &step = scenarioRunner.scenario().steps[std::size_t(index)];
                             std::fprintf(stderr, "chaoscope: scenario step %d (%s): %s%s%s\n", index + 1,
                                          qPrintable(step.describe()), ok ? "ok" : "FAILED",
                                          message.isEmpty() ? "" : ": ", qPrintable(message));
                         });
        QObject::connect(&scenarioRunner, &ScenarioRunner::finished, &app, [&](bool ok, const QString &message) {
            std::fprintf(stderr, "chaoscope: scenario %s: %s\n", ok ? "finished" : "FAILED", qPrintable(message));
            if (headlessPlatform && options.screenshotPath.isEmpty() && !options.exportOptions.isSet())
                QCoreApplication::exit(ok ? 0 : 1);
        });
        scenarioRunner.start(scenario.scenario);
        mainWindow.showScenario(&scenarioRunner);
    }

    HeadlessRunner *headless = nullptr;
    if (!options.screenshotPath.isEmpty()) {
        // A recording is shot as soon as it is drawn, unless --after says otherwise.
        const qint64 afterMs = recording && !options.screenshotAfterGiven ? 500 : options.screenshotAfterMs;
        headless = new HeadlessRunner(&mainWindow, &poller, &client, options.screenshotPath, afterMs, &app);
        headless->setOffline(recording != nullptr);
        headless->setDashboardView(mainWindow.dashboardView());
        if (!options.layoutPath.isEmpty())
            headless->setLayoutPath(options.layoutPath, mainWindow.dashboardView());
        headless->setDialogEntry(options.screenshotDialog);
        headless->start();
    }
    if (options.exportOptions.isSet()) {
        // Drawn from the store, not the window: a recording is written at once.
        const qint64 afterMs = recording && !options.screenshotAfterGiven ? 0 : options.screenshotAfterMs;
        // The caption's source: the recording(s), or the Prometheus of a live run.
        QString source = options.prometheus.baseUrl.toDisplayString(QUrl::RemoveUserInfo);
        if (recording) {
            source = QFileInfo(options.sessionPath).fileName();
            if (!options.exportOptions.compareSessionPath.isEmpty())
                source += QStringLiteral(", ") + QFileInfo(options.exportOptions.compareSessionPath).fileName();
        }
        const ExportRunner::Context context{&poller, recording ? nullptr : &client, &store, &annotations, &window,
                                            source, recording != nullptr};
        (new ExportRunner(context, options.exportOptions, afterMs, &app))->start();
    }
    return QApplication::exec();
}
