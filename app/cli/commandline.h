// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "headless/exportoptions.h"
#include "kubernetes/kubeconfig.h"
#include "prometheus/prometheusclient.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <optional>

// What the command line asks for. Parsing never exits by itself (so it can be tested);
// main() prints help/version/errors and picks the exit code.
struct AppOptions
{
    PrometheusConnection prometheus;
    bool prometheusGiven = false;                          // else the last live run's may be used
    QString dashboard = QStringLiteral("prometheus-self"); // built-in name or file path
    bool dashboardGiven = false;
    QList<QUrl> adminUrls;                         // load tester replicas' admin endpoints
    QString adminKind = QStringLiteral("starter"); // starter | locust | k6
    bool adminKindGiven = false;                   // else the dashboard's kind wins
    QString adminToken;                            // read from --admin-token-file
    std::optional<qint64> windowMs;                // overrides the dashboard's
    std::optional<int> refreshMs;                  // overrides the dashboard's
    std::optional<qint64> retentionMs;             // history kept in memory; else 25 h
    qint64 scrapeIntervalMs = 1000;
    int detailPointsPerColumn = 8; // --detail; 0: raw (DashboardPoller::setDetailPointsPerColumn)
    // How this run authenticates to Prometheus, as arguments for another window it starts
    // (File ▸ Import Grafana dashboard): the credential files, user, headers, CA, --insecure.
    // Never a secret: those stay in their files and the environment the child inherits.
    QStringList connectionArguments;
    QString screenshotPath;   // headless: write this PNG, then exit
    QString screenshotDialog; // with it: the dialog this menu entry opens is shot instead
    QString scenario;         // built-in name or file: run it, then (headless) exit
    QString outputDir;        // where scenario screenshots go (relative paths)
    QString layoutPath;       // headless: also write where each panel's plot area is (JSON)
    qint64 screenshotAfterMs = 30'000;
    bool screenshotAfterGiven = false; // else a recording is shot as soon as it is shown
    QString recordPath;                // where to record the live run; empty = the default file
    bool record = true;                // --no-record switches recording off
    QString sessionPath;               // show this recording offline instead of a live run
    QSize windowSize{1600, 1000};
    QString uiTheme;             // --ui-theme: system, light or dark; empty = the remembered one
    ExportOptions exportOptions; // --export and its companions
    QString importGrafanaPath;   // --import-grafana: convert this Grafana dashboard, then exit
    QString importOutputPath;    // --output: where the converted dashboard is written
    // --kubernetes, --kubeconfig, --kube-context, --namespace: watch and steer this cluster
    // (the Cluster dock); resolved from the kubeconfig when the run starts.
    std::optional<KubeConfig::Request> kubernetes;
    bool showHelp = false;
    bool showVersion = false;
    QString helpText;
};

Result<AppOptions> parseCommandLine(const QStringList &arguments);
