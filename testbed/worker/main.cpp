// SPDX-License-Identifier: GPL-3.0-or-later
// chaoscope-worker: a job worker for chaoscope-engine's process model (see testbed/README.md).
#include "jobworker.h"
#include "prometheustextwriter.h"
#include "terminationsignalwatcher.h"
#include "workermetrics.h"
#include "workeroptions.h"

#include <QCoreApplication>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonObject>
#include <QSysInfo>
#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("chaoscope-worker"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_WORKER_VERSION));

    WorkerOptionsParser parser;
    switch (parser.parse(QCoreApplication::arguments())) {
    case WorkerOptionsParser::Outcome::ShowHelp:
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    case WorkerOptionsParser::Outcome::ShowVersion:
        std::printf("chaoscope-worker %s\n", CHAOSCOPE_WORKER_VERSION);
        return 0;
    case WorkerOptionsParser::Outcome::Invalid:
        std::fprintf(stderr, "chaoscope-worker: %s\n(see --help)\n", qPrintable(parser.errorText()));
        return 2;
    case WorkerOptionsParser::Outcome::Run:
        break;
    }
    WorkerOptions options = parser.options();

    TerminationSignalWatcher terminationWatcher;
    QObject::connect(&terminationWatcher, &TerminationSignalWatcher::terminationRequested, &app,
                     [](int) { QCoreApplication::quit(); });

    QHttpServer server;
    const quint16 port = server.listen(options.bind, options.port);
    if (port == 0) {
        std::fprintf(stderr, "chaoscope-worker: cannot listen on %s:%u\n", qPrintable(options.bind.toString()),
                     unsigned(options.port));
        return 1;
    }
    if (options.settings.name.isEmpty())
        options.settings.name = QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(port);

    JobWorker worker(options.settings);
    server.route(QStringLiteral("/metrics"), QHttpServerRequest::Method::Get, [&worker] {
        return QHttpServerResponse(QByteArray(PrometheusTextWriter::contentType), WorkerMetrics::render(worker));
    });
    server.route(QStringLiteral("/health/liveness"), QHttpServerRequest::Method::Get, [] {
        return QHttpServerResponse(QJsonObject{{QStringLiteral("status"), QStringLiteral("UP")}});
    });

    const WorkerSettings &s = worker.settings();
    std::fprintf(stderr,
                 "chaoscope-worker: %s works on '%s' at %s: capacity %d, %d thread(s), handler "
                 "%g s, job timeout %g s, stream %s; ceiling %g jobs/s, a full worker meets its "
                 "deadlines below a capacity of %g\n",
                 qPrintable(s.name), qPrintable(s.jobType), qPrintable(s.engine.toString()), s.capacity, s.threads,
                 s.handlerSeconds, s.timeoutSeconds, s.stream ? "on" : "off", s.ceilingPerSecond(), s.safeCapacity());
    if (s.capacity >= s.safeCapacity())
        std::fprintf(stderr,
                     "chaoscope-worker: warning: capacity %d is not below threads x timeout / "
                     "handler duration = %g: the last job of a full worker misses its deadline\n",
                     s.capacity, s.safeCapacity());
    std::printf("listening on http://%s:%u\n", qPrintable(options.bind.toString()), unsigned(port));
    std::fflush(stdout);
    std::fflush(stderr);

    worker.start();
    const int code = QCoreApplication::exec();
    worker.stop();
    const JobWorker::Counters &c = worker.counters();
    std::fprintf(stderr,
                 "chaoscope-worker: stopped: received %lld (pushed %lld, polled %lld), handled "
                 "%lld, completions accepted %lld, rejected %lld, failed %lld\n",
                 static_cast<long long>(c.pushed + c.polled), static_cast<long long>(c.pushed),
                 static_cast<long long>(c.polled), static_cast<long long>(c.handled),
                 static_cast<long long>(c.completionsAccepted), static_cast<long long>(c.completionsRejected),
                 static_cast<long long>(c.completionsFailed));
    return code;
}
