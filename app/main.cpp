// SPDX-License-Identifier: GPL-3.0-or-later
// Chaoscope: watch and steer a load test while it runs.
#include "annotationmodel.h"
#include "actionannotator.h"
#include "commandline.h"
#include "dashboardloader.h"
#include "dashboardpoller.h"
#include "headlessrunner.h"
#include "loadtestercontroller.h"
#include "mainwindow.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "scenariorunner.h"
#include "screenshot.h"
#include "timewindow.h"

#include <QApplication>
#include <QDir>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Chaoscope"));
    QApplication::setOrganizationName(QStringLiteral("Chaoscope"));
    QApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_VERSION));

    const Result<AppOptions> parsed = parseCommandLine(QApplication::arguments());
    if (!parsed) {
        std::fprintf(stderr, "chaoscope: %s\n", qPrintable(parsed.error().message));
        return 2;
    }
    const AppOptions &options = parsed.value();
    if (options.showHelp) {
        std::printf("%s", qPrintable(options.helpText));
        return 0;
    }
    if (options.showVersion) {
        std::printf("chaoscope %s\n", CHAOSCOPE_VERSION);
        return 0;
    }

    PrometheusClient client(options.prometheus);
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller(&client, &store, &window);
    poller.setScrapeIntervalMs(options.scrapeIntervalMs);

    // A broken dashboard file does not stop the app: what could be read is shown, with the
    // problems listed above the panels.
    DashboardLoader::LoadResult loaded = DashboardLoader::load(options.dashboard);
    for (const DashboardIssue &issue : loaded.issues)
        std::fprintf(stderr, "chaoscope: dashboard %s: %s\n", qPrintable(options.dashboard), qPrintable(issue.toString()));
    if (options.windowMs)
        loaded.dashboard.windowMs = *options.windowMs;
    if (options.refreshMs)
        loaded.dashboard.refreshSeconds = qMax(1, *options.refreshMs / 1000);
    window.setWindowMs(loaded.dashboard.windowMs);
    poller.setDashboard(loaded.dashboard);
    if (options.refreshMs)
        poller.setRefreshMs(*options.refreshMs);

    AnnotationModel annotations;
    MainWindow mainWindow(&client, &store, &window, &poller, &annotations);
    // Steering: one controller for all replicas of the load tester; every action it applies
    // lands on the timelines as an annotation.
    LoadTesterController controller;
    if (!options.adminUrls.isEmpty()) {
        std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
        for (const QUrl &url : options.adminUrls)
            replicas.push_back(makeLoadTesterAdapter(options.adminKind, url, options.adminToken));
        controller.setReplicas(std::move(replicas));
        controller.startPolling();
    }
    ActionAnnotator annotator(&controller, &annotations);
    if (!options.adminUrls.isEmpty())
        mainWindow.setLoadTester(&controller);
    mainWindow.resize(options.windowSize);
    mainWindow.showDashboard(loaded.issues);
    mainWindow.show();
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
            if (headlessPlatform && options.screenshotPath.isEmpty())
                QCoreApplication::exit(ok ? 0 : 1);
        });
        scenarioRunner.start(scenario.scenario);
        mainWindow.showScenario(&scenarioRunner);
    }

    HeadlessRunner *headless = nullptr;
    if (!options.screenshotPath.isEmpty()) {
        headless = new HeadlessRunner(&mainWindow, &poller, &client, options.screenshotPath,
                                      options.screenshotAfterMs, &app);
        if (!options.layoutPath.isEmpty())
            headless->setLayoutPath(options.layoutPath, mainWindow.dashboardView());
        headless->start();
    }
    return QApplication::exec();
}
