// SPDX-License-Identifier: GPL-3.0-or-later
// chaoscope-engine: the reference target of the testbed (see testbed/README.md).
#include "enginehttpserver.h"
#include "engineoptions.h"
#include "terminationsignalwatcher.h"

#include <QCoreApplication>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("chaoscope-engine"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_VERSION));

    const EngineOptions::Parsed parsed = EngineOptions::parse(QCoreApplication::arguments());
    switch (parsed.outcome) {
    case EngineOptions::Outcome::ShowHelp:
        std::fputs(qPrintable(parsed.text), stdout);
        return 0;
    case EngineOptions::Outcome::ShowVersion:
        std::printf("chaoscope-engine %s\n", CHAOSCOPE_VERSION);
        return 0;
    case EngineOptions::Outcome::Invalid:
        std::fprintf(stderr, "chaoscope-engine: %s\n(see --help)\n", qPrintable(parsed.text));
        return 2;
    case EngineOptions::Outcome::Run:
        break;
    }
    const EngineOptions &options = parsed.options;

    TerminationSignalWatcher terminationWatcher;
    QObject::connect(&terminationWatcher, &TerminationSignalWatcher::terminationRequested, &app,
                     [](int) { QCoreApplication::quit(); });

    EngineHttpServer server(options.config, options.seed, options.process);
    const quint16 port = server.listen(options.bindAddress, options.port);
    if (port == 0) {
        std::fprintf(stderr, "chaoscope-engine: cannot listen on %s:%u\n", qPrintable(options.bindAddress.toString()),
                     options.port);
        return 1;
    }
    const QString host = options.bindAddress.protocol() == QAbstractSocket::IPv6Protocol
                             ? QStringLiteral("[%1]").arg(options.bindAddress.toString())
                             : options.bindAddress.toString();
    // Scripts and tests read the port from this line: keep its shape, and flush it now
    // (stdout is a pipe there, fully buffered).
    std::printf("listening on http://%s:%u\n", qPrintable(host), port);
    std::fflush(stdout);
    if (!options.bindAddress.isLoopback()) {
        std::fprintf(stderr,
                     "chaoscope-engine: warning: listening on %s, a non-loopback address; "
                     "the admin API has no authentication\n",
                     qPrintable(options.bindAddress.toString()));
    }
    return QCoreApplication::exec();
}
