// SPDX-License-Identifier: GPL-3.0-or-later
// chaoscope-cluster: a small Kubernetes API for the testbed's processes (testbed/README.md).
#include "cluster.h"
#include "clusteroptions.h"
#include "terminationsignalwatcher.h"

#include <QCoreApplication>
#include <QDir>
#include <QTimer>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("chaoscope-cluster"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_CLUSTER_VERSION));

    ClusterOptionsParser parser;
    switch (parser.parse(QCoreApplication::arguments())) {
    case ClusterOptionsParser::Outcome::ShowHelp:
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    case ClusterOptionsParser::Outcome::ShowVersion:
        std::printf("chaoscope-cluster %s\n", CHAOSCOPE_CLUSTER_VERSION);
        return 0;
    case ClusterOptionsParser::Outcome::Invalid:
        std::fprintf(stderr, "chaoscope-cluster: %s\n(see --help)\n", qPrintable(parser.errorText()));
        return 2;
    case ClusterOptionsParser::Outcome::Run:
        break;
    }
    const ClusterOptions &options = parser.options();
    QString error;
    std::optional<ClusterConfig> config = ClusterConfig::load(options.configFile, &error);
    if (!config) {
        std::fprintf(stderr, "chaoscope-cluster: %s\n", qPrintable(error));
        return 2;
    }
    TokenAuthenticator tokens;
    if (!options.tokenFile.isEmpty()) {
        std::optional<TokenAuthenticator> loaded = TokenAuthenticator::load(options.tokenFile, &error);
        if (!loaded) {
            std::fprintf(stderr, "chaoscope-cluster: %s\n", qPrintable(error));
            return 2;
        }
        tokens = *loaded;
    }
    if (!options.logDir.isEmpty() && !QDir().mkpath(options.logDir)) {
        std::fprintf(stderr, "chaoscope-cluster: cannot create --log-dir %s\n", qPrintable(options.logDir));
        return 2;
    }

    // The images' programs: --bin-dir, then the build tree (testbed/<program>/), then next to
    // this binary (an installed testbed), then $PATH.
    const QString here = QCoreApplication::applicationDirPath();
    QStringList binaryDirs;
    if (!options.binDir.isEmpty())
        binaryDirs << options.binDir;
    for (const char *sibling : {"starter", "worker", "engine"})
        binaryDirs << QDir(here).filePath(QStringLiteral("../") + QLatin1String(sibling));
    binaryDirs << here;

    Cluster cluster(*config, options, tokens, binaryDirs);
    if (!cluster.start(&error)) {
        std::fprintf(stderr, "chaoscope-cluster: %s\n", qPrintable(error));
        return 1;
    }
    QObject::connect(&cluster, &Cluster::stopped, &app, [] { QCoreApplication::quit(); });

    int signalCount = 0;
    TerminationSignalWatcher terminationWatcher;
    QObject::connect(&terminationWatcher, &TerminationSignalWatcher::terminationRequested, &app,
                     [&cluster, &signalCount](int) {
                         if (++signalCount == 1) {
                             cluster.shutdown(10);
                             return;
                         }
                         // A second Ctrl-C: no more waiting.
                         cluster.killAll();
                         QCoreApplication::exit(130);
                     });

    // Scripts and tests read the port from this line; with TLS it says https.
    std::printf("listening on %s://127.0.0.1:%u\n", options.tlsCertFile.isEmpty() ? "http" : "https",
                unsigned(cluster.port()));
    std::printf("metrics on http://127.0.0.1:%u/metrics\n", unsigned(cluster.metricsPort()));
    std::fflush(stdout);
    return QCoreApplication::exec();
}
