// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineoptions.h"

#include <QCommandLineParser>
#include <cmath>
#include <limits>

namespace {

// Reads a number option; on failure leaves a message naming the option and the bound.
class NumberReader
{
public:
    explicit NumberReader(const QCommandLineParser &parser) : m_parser(parser) {}

    double real(const QCommandLineOption &option, double fallback, double min, bool minExclusive, double max)
    {
        const QString name = option.names().constFirst();
        if (!m_error.isEmpty() || !m_parser.isSet(option))
            return fallback;
        bool ok = false;
        const double value = m_parser.value(option).toDouble(&ok);
        const bool tooSmall = minExclusive ? value <= min : value < min;
        if (!ok || !std::isfinite(value) || tooSmall || value > max) {
            m_error = QStringLiteral("--%1 must be a number %2 %3 and at most %4, got '%5'")
                          .arg(name, minExclusive ? QStringLiteral(">") : QStringLiteral(">="))
                          .arg(min)
                          .arg(max)
                          .arg(m_parser.value(option));
            return fallback;
        }
        return value;
    }

    qint64 integer(const QCommandLineOption &option, qint64 fallback, qint64 min, qint64 max)
    {
        const QString name = option.names().constFirst();
        if (!m_error.isEmpty() || !m_parser.isSet(option))
            return fallback;
        bool ok = false;
        const qint64 value = m_parser.value(option).toLongLong(&ok);
        if (!ok || value < min || value > max) {
            m_error = QStringLiteral("--%1 must be a whole number from %2 to %3, got '%4'")
                          .arg(name)
                          .arg(min)
                          .arg(max)
                          .arg(m_parser.value(option));
            return fallback;
        }
        return value;
    }

    QString error() const { return m_error; }

private:
    const QCommandLineParser &m_parser;
    QString m_error;
};

} // namespace

EngineOptions::Parsed EngineOptions::parse(const QStringList &arguments)
{
    const EngineConfig defaults;
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("A target with finite capacity for load tests, modelled on Camunda: POST "
                       "/v2/process-instances waits in a bounded queue for one of W workers; each completed "
                       "instance appends records to an exporter that drains at a limited rate. Serves "
                       "/metrics, /admin/config and /health/liveness."));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version."));
    const QCommandLineOption port(QStringLiteral("port"),
                                  QStringLiteral("TCP port to listen on (default 8080, where the "
                                                 "starter sends by default); 0 lets the OS pick one."),
                                  QStringLiteral("port"), QStringLiteral("8080"));
    const QCommandLineOption bind(QStringLiteral("bind"),
                                  QStringLiteral("Address to listen on (default 127.0.0.1). The "
                                                 "admin API has no authentication."),
                                  QStringLiteral("address"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption workers(
        QStringLiteral("workers"),
        QStringLiteral("Workers processing instances in parallel (default %1).").arg(defaults.workers),
        QStringLiteral("n"), QString::number(defaults.workers));
    const QCommandLineOption serviceTime(
        QStringLiteral("service-time"),
        QStringLiteral("Seconds one worker needs for one instance (default %1).").arg(defaults.serviceTimeSeconds),
        QStringLiteral("seconds"), QString::number(defaults.serviceTimeSeconds));
    const QCommandLineOption distribution(
        QStringLiteral("service-distribution"),
        QStringLiteral("fixed (default), or exponential with the service time as mean."),
        QStringLiteral("fixed|exponential"), QStringLiteral("fixed"));
    const QCommandLineOption queue(QStringLiteral("queue"),
                                   QStringLiteral("Instances that may wait for a worker; beyond "
                                                  "that new ones get 503 (default %1).")
                                       .arg(defaults.queueCapacity),
                                   QStringLiteral("n"), QString::number(defaults.queueCapacity));
    const QCommandLineOption records(
        QStringLiteral("records-per-instance"),
        QStringLiteral("Records appended to the exporter per completed instance (default %1).")
            .arg(defaults.recordsPerInstance),
        QStringLiteral("n"), QString::number(defaults.recordsPerInstance));
    const QCommandLineOption exportRate(
        QStringLiteral("export-rate"),
        QStringLiteral("Records per second the exporter drains (default %1).").arg(defaults.exportRate),
        QStringLiteral("records/s"), QString::number(defaults.exportRate));
    const QCommandLineOption backlog(
        QStringLiteral("acceptable-backlog"),
        QStringLiteral("Flow control: reject new instances with 429 while the exporter backlog "
                       "is over this many records; 0 = off (default)."),
        QStringLiteral("records"), QString::number(defaults.acceptableBacklog));
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Seed of the random service times (default 1)."), QStringLiteral("n"),
                                  QStringLiteral("1"));
    const QCommandLineOption process(
        QStringLiteral("process"),
        QStringLiteral("The steps of a process instance after its creation, each one a job for "
                       "chaoscope-worker: comma-separated steps, a step is 'type', 'type*N' (a "
                       "multi-instance step of N parallel jobs) or '[type type]*N' (N iterations "
                       "of a sequence). Without it, an instance is done when created."),
        QStringLiteral("steps"));
    parser.addOptions({help, version, port, bind, workers, serviceTime, distribution, queue, records, exportRate,
                       backlog, seed, process});

    Parsed result;
    if (!parser.parse(arguments)) {
        result.outcome = Outcome::Invalid;
        result.text = parser.errorText();
        return result;
    }
    if (parser.isSet(help)) {
        result.outcome = Outcome::ShowHelp;
        result.text = parser.helpText();
        return result;
    }
    if (parser.isSet(version)) {
        result.outcome = Outcome::ShowVersion;
        return result;
    }
    if (!parser.positionalArguments().isEmpty()) {
        result.outcome = Outcome::Invalid;
        result.text = QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst());
        return result;
    }

    EngineOptions &options = result.options;
    EngineConfig &config = options.config;
    NumberReader read(parser);
    options.port = static_cast<quint16>(read.integer(port, 8080, 0, 65535));
    config.workers = static_cast<int>(read.integer(workers, defaults.workers, 0, 100000));
    config.serviceTimeSeconds = read.real(serviceTime, defaults.serviceTimeSeconds, 0, true, 3600);
    config.queueCapacity = static_cast<int>(read.integer(queue, defaults.queueCapacity, 0, 10000000));
    config.recordsPerInstance = static_cast<int>(read.integer(records, defaults.recordsPerInstance, 0, 1000000));
    config.exportRate = read.real(exportRate, defaults.exportRate, 0, false, 1e9);
    config.acceptableBacklog =
        read.integer(backlog, defaults.acceptableBacklog, 0, std::numeric_limits<qint64>::max() / 2);
    options.seed = static_cast<quint64>(read.integer(seed, 1, 0, std::numeric_limits<qint64>::max()));
    QString error = read.error();

    const QString distributionName = parser.value(distribution);
    if (error.isEmpty()) {
        if (distributionName == QLatin1String("fixed"))
            config.serviceDistribution = ServiceDistribution::Fixed;
        else if (distributionName == QLatin1String("exponential"))
            config.serviceDistribution = ServiceDistribution::Exponential;
        else
            error =
                QStringLiteral("--service-distribution must be fixed or exponential, got '%1'").arg(distributionName);
    }
    if (error.isEmpty() && parser.isSet(process)) {
        QString processError;
        const std::optional<ProcessDefinition> definition =
            ProcessDefinition::parse(parser.value(process), &processError);
        if (definition)
            options.process = *definition;
        else
            error = QStringLiteral("--process: %1").arg(processError);
    }
    if (error.isEmpty() && !options.bindAddress.setAddress(parser.value(bind)))
        error = QStringLiteral("--bind must be an IP address, got '%1'").arg(parser.value(bind));

    if (!error.isEmpty()) {
        result.outcome = Outcome::Invalid;
        result.text = error;
    }
    return result;
}
