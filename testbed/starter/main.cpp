// SPDX-License-Identifier: GPL-3.0-or-later
// chaoscope-starter: wires the pieces together; the behaviour lives in chaoscope_starter_lib.
#include "adminapi.h"
#include "adminserver.h"
#include "cpuquota.h"
#include "latencyhistogram.h"
#include "loadcontrol.h"
#include "loadcounters.h"
#include "loadscheduler.h"
#include "memorylimit.h"
#include "requestpool.h"
#include "startermetrics.h"
#include "starteroptions.h"
#include "terminationsignalwatcher.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSysInfo>
#include <QTimer>
#include <cstdio>
#include <curl/curl.h>
#include <exception>
#include <memory>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcMain, "chaoscope.starter")

namespace {

constexpr int exitUsage = 2;
constexpr qint64 livenessMaxAgeMs = 2000;

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QByteArray requestUrl(const QUrl &target)
{
    QString base = target.toString(QUrl::FullyEncoded);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return (base + QStringLiteral("/v2/process-instances")).toUtf8();
}

QByteArray requestBody(const QString &instance)
{
    const QJsonObject variables{{QStringLiteral("starter"), instance}};
    return QJsonDocument(QJsonObject{{QStringLiteral("processDefinitionId"), QStringLiteral("chaoscope-benchmark")},
                                     {QStringLiteral("variables"), variables}})
        .toJson(QJsonDocument::Compact);
}

int run(QCoreApplication &app, const StarterOptions &options)
{
    LoadControl control(LoadSettings{options.rate, options.inflightLimit, false, 0});
    LoadCounters counters;
    LatencyHistogram histogram;
    std::unique_ptr<CpuQuota> cpu;
    if (options.cpuLimitCores > 0)
        cpu = std::make_unique<CpuQuota>(options.cpuLimitCores, options.cpuSecondsPerRequest);
    const MemoryLimit memory(options.memoryLimitBytes, options.requestMemoryBytes);
    StarterMetrics metrics(control, counters, histogram, options.poolSize, cpu.get(), &memory);
    AdminApi::Identity identity{options.instance, QDateTime::currentDateTimeUtc(), options.poolSize, options.maxRate};
    AdminApi api(control, counters, metrics, identity, options.token, [&counters](QString *reason) {
        return AdminApi::isLivenessFresh(counters, steadyMs(), livenessMaxAgeMs, reason);
    });

    AdminServer server(api);
    const quint16 port = server.listen(options.bind, options.port);
    if (port == 0) {
        qCCritical(lcMain, "cannot listen on %s port %u", qPrintable(options.bind.toString()), unsigned(options.port));
        return 1;
    }
    const QString instance = options.instance.isEmpty()
                                 ? QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(port)
                                 : options.instance;
    api.setInstance(instance);

    RequestPool::Options poolOptions;
    poolOptions.url = requestUrl(options.target);
    poolOptions.body = requestBody(instance);
    poolOptions.poolSize = options.poolSize;
    poolOptions.deadline = std::chrono::milliseconds(qRound64(options.deadlineSeconds * 1000));
    poolOptions.maxPending = options.maxPending;
    LoadScheduler scheduler(control, counters, std::make_unique<RequestPool>(poolOptions, counters, histogram),
                            cpu.get());
    control.setChangeListener([&scheduler] { scheduler.wakeup(); });
    scheduler.start();

    qCInfo(lcMain,
           "instance %s: POST %s at %g/s, in-flight limit %d, pool %d, deadline %g s, max pending "
           "%lld, "
           "admin token %s, cpu limit %g, memory limit %lld bytes",
           qPrintable(instance), poolOptions.url.constData(), options.rate, options.inflightLimit, options.poolSize,
           options.deadlineSeconds, static_cast<long long>(options.maxPending),
           options.token.isEnabled() ? "required" : "not required", options.cpuLimitCores,
           static_cast<long long>(options.memoryLimitBytes));
    const QString host = options.bind.protocol() == QAbstractSocket::IPv6Protocol
                             ? QStringLiteral("[%1]").arg(options.bind.toString())
                             : options.bind.toString();
    std::printf("listening on http://%s:%u\n", qPrintable(host), unsigned(port));
    std::fflush(stdout);

    // Seed 000 ended in an OutOfMemoryError that left a zombie; here the end is loud and
    // immediate, like the kernel's OOM killer: no clean-up, exit code 137.
    QTimer memoryWatch;
    if (memory.isEnabled()) {
        QObject::connect(&memoryWatch, &QTimer::timeout, &app, [&memory, &counters] {
            const qint64 inflight = counters.inflight();
            if (!memory.isExceeded(inflight))
                return;
            qCCritical(lcMain, "%s", qPrintable(memory.describe(inflight)));
            std::fflush(stderr);
            ::_exit(MemoryLimit::exitCode);
        });
        memoryWatch.start(50);
    }

    TerminationSignalWatcher signalWatcher;
    QObject::connect(&signalWatcher, &TerminationSignalWatcher::terminationRequested, &app, [&app](int number) {
        qCInfo(lcMain, "signal %d: shutting down", number);
        app.quit();
    });
    const int code = app.exec();

    control.setChangeListener({});
    scheduler.stop();
    qCInfo(lcMain, "stopped: sent %lld, succeeded %lld, failed %lld, skipped %lld, dropped %lld",
           static_cast<long long>(counters.sent.load()), static_cast<long long>(counters.succeeded.load()),
           static_cast<long long>(counters.failed.load()), static_cast<long long>(counters.skipped.load()),
           static_cast<long long>(counters.dropped.load()));
    return code;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("chaoscope-starter"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CHAOSCOPE_STARTER_VERSION));
    if (qEnvironmentVariableIsEmpty("QT_MESSAGE_PATTERN"))
        qSetMessagePattern(QStringLiteral("%{time yyyy-MM-ddThh:mm:ss.zzz} %{type} %{category}: %{message}"));

    StarterOptionsParser parser;
    switch (parser.parse(QCoreApplication::arguments())) {
    case StarterOptionsParser::Outcome::ShowHelp:
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    case StarterOptionsParser::Outcome::ShowVersion:
        std::printf("chaoscope-starter %s\n", CHAOSCOPE_STARTER_VERSION);
        return 0;
    case StarterOptionsParser::Outcome::Invalid:
        std::fprintf(stderr, "chaoscope-starter: %s\n", qPrintable(parser.errorText()));
        return exitUsage;
    case StarterOptionsParser::Outcome::Run:
        break;
    }

    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        std::fprintf(stderr, "chaoscope-starter: curl_global_init failed\n");
        return 1;
    }
    int code = 1;
    try {
        code = run(app, parser.options());
    } catch (const std::exception &e) {
        qCCritical(lcMain, "fatal: %s", e.what());
    }
    curl_global_cleanup();
    return code;
}
