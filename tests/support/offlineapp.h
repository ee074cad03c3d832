// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotationmodel.h"
#include "fetching/dashboardpoller.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"
#include "window/mainwindow.h"

#include <memory>

// The app's window with what main() gives it — store, time window, annotations, a Prometheus
// client and a poller — for tests of the window itself. The client points at an address
// nobody listens on and the poller is never started, so nothing is sent. Two steps, so that
// a test can set the clock or the dashboard before the window is made.
struct OfflineApp
{
    OfflineApp()
    {
        PrometheusConnection connection;
        connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9"));
        client = std::make_unique<PrometheusClient>(connection);
        poller = std::make_unique<DashboardPoller>(client.get(), &store, &window);
    }

    MainWindow *makeWindow()
    {
        mainWindow = std::make_unique<MainWindow>(client.get(), &store, &window, poller.get(), &annotations);
        return mainWindow.get();
    }

    SampleStore store;
    TimeWindow window;
    AnnotationModel annotations;
    std::unique_ptr<PrometheusClient> client;
    std::unique_ptr<DashboardPoller> poller;
    std::unique_ptr<MainWindow> mainWindow; // last: goes first, before what it shows
};
