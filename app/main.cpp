// SPDX-License-Identifier: GPL-3.0-or-later
// Chaoscope: watch and steer a load test while it runs.
#include "annotationmodel.h"
#include "commandline.h"
#include "dashboardloader.h"
#include "dashboardpoller.h"
#include "headlessrunner.h"
#include "mainwindow.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "timewindow.h"

#include <QApplication>

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
    mainWindow.setAdminUrl(options.adminUrl.toDisplayString());
    mainWindow.resize(options.windowSize);
    mainWindow.showDashboard(loaded.issues);
    mainWindow.show();
    poller.start();

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
