// SPDX-License-Identifier: GPL-3.0-or-later
#include "workeroptions.h"

#include <QRegularExpression>
#include <cmath>

namespace {

const QCommandLineOption portOption(QStringLiteral("port"),
                                    QStringLiteral("Metrics port (default 9700; 0 = the OS picks)."),
                                    QStringLiteral("port"), QStringLiteral("9700"));
const QCommandLineOption bindOption(QStringLiteral("bind"), QStringLiteral("Address to listen on (default 127.0.0.1)."),
                                    QStringLiteral("address"), QStringLiteral("127.0.0.1"));
const QCommandLineOption engineOption(QStringLiteral("engine"),
                                      QStringLiteral("Base URL of chaoscope-engine (default "
                                                     "http://127.0.0.1:8080)."),
                                      QStringLiteral("url"), QStringLiteral("http://127.0.0.1:8080"));
const QCommandLineOption typeOption(QStringLiteral("job-type"), QStringLiteral("The job type to work on (required)."),
                                    QStringLiteral("type"));
const QCommandLineOption capacityOption(QStringLiteral("capacity"),
                                        QStringLiteral("Most jobs held at once, pushed or polled "
                                                       "(maxJobsActive; default 32)."),
                                        QStringLiteral("n"), QStringLiteral("32"));
const QCommandLineOption threadsOption(QStringLiteral("threads"), QStringLiteral("Jobs handled at once (default 10)."),
                                       QStringLiteral("n"), QStringLiteral("10"));
const QCommandLineOption handlerOption(QStringLiteral("handler-duration"),
                                       QStringLiteral("Time to handle one job: seconds, or with "
                                                      "ms/s/m (default 300ms)."),
                                       QStringLiteral("duration"), QStringLiteral("300ms"));
const QCommandLineOption timeoutOption(QStringLiteral("timeout"),
                                       QStringLiteral("Job timeout asked for on activation "
                                                      "(default 5m, the Java client's)."),
                                       QStringLiteral("duration"), QStringLiteral("5m"));
const QCommandLineOption streamOption(QStringLiteral("stream"),
                                      QStringLiteral("on (default): receive pushed jobs; off: "
                                                     "polling only."),
                                      QStringLiteral("on|off"), QStringLiteral("on"));
const QCommandLineOption pollIntervalOption(QStringLiteral("poll-interval"),
                                            QStringLiteral("Wait after an empty poll (default "
                                                           "100ms)."),
                                            QStringLiteral("duration"), QStringLiteral("100ms"));
const QCommandLineOption
    requestTimeoutOption(QStringLiteral("request-timeout"),
                         QStringLiteral("How long a poll waits for jobs at the engine (long polling; default 10s)."),
                         QStringLiteral("duration"), QStringLiteral("10s"));
const QCommandLineOption instanceOption(QStringLiteral("instance"),
                                        QStringLiteral("Worker name the engine sees (default "
                                                       "hostname:port)."),
                                        QStringLiteral("name"));

} // namespace

WorkerOptionsParser::WorkerOptionsParser()
    : m_reader(QStringLiteral("A job worker for chaoscope-engine, modelled on the Camunda Java client: it receives "
                              "pushed jobs on a stream and polls for the others, holds at most --capacity jobs, "
                              "handles --threads at a time for --handler-duration each, and completes them. Serves "
                              "/metrics and /health/liveness."),
               {portOption, bindOption, engineOption, typeOption, capacityOption, threadsOption, handlerOption,
                timeoutOption, streamOption, pollIntervalOption, requestTimeoutOption, instanceOption})
{}

std::optional<double> WorkerOptionsParser::parseDuration(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(ms|s|m)?\s*$)"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    double value = match.captured(1).toDouble();
    const QString unit = match.captured(2);
    if (unit == QLatin1String("ms"))
        value /= 1000;
    else if (unit == QLatin1String("m"))
        value *= 60;
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

WorkerOptionsParser::Outcome WorkerOptionsParser::parse(const QStringList &arguments)
{
    m_options = WorkerOptions{};
    const Outcome outcome = m_reader.start(arguments);
    if (outcome != Outcome::Run)
        return outcome;
    return read() ? Outcome::Run : Outcome::Invalid;
}

bool WorkerOptionsParser::read()
{
    WorkerOptions &o = m_options;
    WorkerSettings &s = o.settings;
    if (!m_reader.port(portOption, &o.port) || !m_reader.address(bindOption, &o.bind))
        return false;

    s.engine = QUrl(m_reader.value(engineOption).trimmed(), QUrl::StrictMode);
    if (!s.engine.isValid() || s.engine.host().isEmpty() || s.engine.scheme() != QLatin1String("http"))
        return m_reader.fail(
            QStringLiteral("--engine must be an http URL, not '%1'").arg(m_reader.value(engineOption)));

    s.jobType = m_reader.value(typeOption).trimmed();
    static const QRegularExpression typePattern(QStringLiteral("^[A-Za-z0-9_.-]+$"));
    if (!typePattern.match(s.jobType).hasMatch())
        return m_reader.fail(s.jobType.isEmpty() ? QStringLiteral("--job-type is required")
                                                 : QStringLiteral("--job-type must be letters, digits, '_', '-' "
                                                                  "or '.', not '%1'")
                                                       .arg(s.jobType));

    if (!m_reader.integer(capacityOption, 1, 10000, &s.capacity) ||
        !m_reader.integer(threadsOption, 1, 1000, &s.threads))
        return false;

    const auto duration = [this](const QCommandLineOption &option, double min, double max, double *out) -> bool {
        const std::optional<double> value = parseDuration(m_reader.value(option));
        if (!value || *value < min || *value > max)
            return m_reader.fail(QStringLiteral("--%1 must be a duration from %2 s to %3 s (e.g. 300ms, 1.8s), "
                                                "not '%4'")
                                     .arg(option.names().constFirst())
                                     .arg(min)
                                     .arg(max)
                                     .arg(m_reader.value(option)));
        *out = *value;
        return true;
    };
    if (!duration(handlerOption, 0.001, 3600, &s.handlerSeconds) ||
        !duration(timeoutOption, 0.001, 24 * 3600, &s.timeoutSeconds) ||
        !duration(pollIntervalOption, 0.001, 60, &s.pollIntervalSeconds) ||
        !duration(requestTimeoutOption, 0, 60, &s.requestTimeoutSeconds))
        return false;

    const QString stream = m_reader.value(streamOption).trimmed().toLower();
    if (stream == QLatin1String("on") || stream == QLatin1String("true"))
        s.stream = true;
    else if (stream == QLatin1String("off") || stream == QLatin1String("false"))
        s.stream = false;
    else
        return m_reader.fail(QStringLiteral("--stream must be on or off, not '%1'").arg(m_reader.value(streamOption)));

    s.name = m_reader.value(instanceOption).trimmed();
    return true;
}
