// SPDX-License-Identifier: GPL-3.0-or-later
#include "starteroptions.h"

#include "resourcequantity.h"

#include <cmath>
#include <limits>

namespace {

const QCommandLineOption portOption(QStringLiteral("port"),
                                    QStringLiteral("Admin and metrics port (default 9600; 0 = the OS picks)."),
                                    QStringLiteral("port"), QStringLiteral("9600"));
const QCommandLineOption bindOption(QStringLiteral("bind"),
                                    QStringLiteral("Address to listen on (default 127.0.0.1). A non-loopback "
                                                   "address needs --admin-token-file."),
                                    QStringLiteral("address"), QStringLiteral("127.0.0.1"));
const QCommandLineOption targetOption(QStringLiteral("target"),
                                      QStringLiteral("Base URL of the system under test; requests go to "
                                                     "POST <target>/v2/process-instances."),
                                      QStringLiteral("url"), QStringLiteral("http://127.0.0.1:8080"));
const QCommandLineOption rateOption(QStringLiteral("rate"),
                                    QStringLiteral("Requests per second (default 300; 0 sends nothing)."),
                                    QStringLiteral("per-second"), QStringLiteral("300"));
const QCommandLineOption inflightOption(QStringLiteral("inflight-limit"),
                                        QStringLiteral("Most requests in flight; a tick beyond it is skipped "
                                                       "(default 0 = unlimited)."),
                                        QStringLiteral("n"), QStringLiteral("0"));
const QCommandLineOption poolOption(QStringLiteral("pool-size"),
                                    QStringLiteral("Keep-alive connections to the target (default 100)."),
                                    QStringLiteral("n"), QStringLiteral("100"));
const QCommandLineOption deadlineOption(QStringLiteral("deadline"),
                                        QStringLiteral("Seconds from scheduling after which a request fails "
                                                       "as status 599 (default 5)."),
                                        QStringLiteral("seconds"), QStringLiteral("5"));
const QCommandLineOption tokenOption(QStringLiteral("admin-token-file"),
                                     QStringLiteral("File holding the bearer token every /admin/* request "
                                                    "must carry."),
                                     QStringLiteral("file"));
const QCommandLineOption maxRateOption(QStringLiteral("max-rate"),
                                       QStringLiteral("Highest rate the admin API accepts (default 100000)."),
                                       QStringLiteral("per-second"), QStringLiteral("100000"));
const QCommandLineOption maxPendingOption(QStringLiteral("max-pending"),
                                          QStringLiteral("Hard cap of the FIFO of requests waiting for a "
                                                         "connection; beyond it ticks are dropped "
                                                         "(default 100000)."),
                                          QStringLiteral("n"), QStringLiteral("100000"));
const QCommandLineOption instanceOption(QStringLiteral("instance"),
                                        QStringLiteral("Stable name of this replica (default hostname:port)."),
                                        QStringLiteral("name"));

const QCommandLineOption memoryLimitOption(QStringLiteral("memory-limit"),
                                           QStringLiteral("Exit with 137, as the OOM killer would, when the requests "
                                                          "in flight hold more than this (bytes, or 256Mi, 1G; "
                                                          "default 0 = no limit). See --request-memory."),
                                           QStringLiteral("bytes"), QStringLiteral("0"));
const QCommandLineOption requestMemoryOption(QStringLiteral("request-memory"),
                                             QStringLiteral("Memory one request in flight holds, as in seed 000's Java "
                                                            "starter (default 6Ki)."),
                                             QStringLiteral("bytes"), QStringLiteral("6Ki"));
const QCommandLineOption cpuLimitOption(QStringLiteral("cpu-limit"),
                                        QStringLiteral("CPU cores the scheduler may use (2, 0.5, 250m; default 0 = "
                                                       "no limit): each 100 ms period lets through cores x 100 ms / "
                                                       "--cpu-per-request requests, the rest waits (CFS throttling)."),
                                        QStringLiteral("cores"), QStringLiteral("0"));
const QCommandLineOption cpuPerRequestOption(QStringLiteral("cpu-per-request"),
                                             QStringLiteral("CPU seconds scheduling one request costs under "
                                                            "--cpu-limit (default 0.001)."),
                                             QStringLiteral("seconds"), QStringLiteral("0.001"));

bool toNumber(const QString &text, double *value)
{
    bool ok = false;
    *value = text.trimmed().toDouble(&ok);
    return ok && std::isfinite(*value);
}

} // namespace

StarterOptionsParser::StarterOptionsParser()
    : m_reader(QStringLiteral("Chaoscope's reference load generator: an open workload model with an in-flight "
                              "limit, steerable through the admin API of docs/admin-api.md."),
               {portOption, bindOption, targetOption, rateOption, inflightOption, poolOption, deadlineOption,
                tokenOption, maxRateOption, maxPendingOption, instanceOption, memoryLimitOption, requestMemoryOption,
                cpuLimitOption, cpuPerRequestOption})
{}

StarterOptionsParser::Outcome StarterOptionsParser::parse(const QStringList &arguments)
{
    m_options = StarterOptions{};
    const Outcome outcome = m_reader.start(arguments);
    if (outcome != Outcome::Run)
        return outcome;
    return read() ? Outcome::Run : Outcome::Invalid;
}

bool StarterOptionsParser::read()
{
    StarterOptions &o = m_options;
    qint64 integer = 0;
    double number = 0;

    if (!m_reader.port(portOption, &o.port) || !m_reader.address(bindOption, &o.bind))
        return false;

    o.target = QUrl(m_reader.value(targetOption), QUrl::StrictMode);
    const QString scheme = o.target.scheme();
    if (!o.target.isValid() || o.target.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return m_reader.fail(
            QStringLiteral("--target must be an http(s) URL, not '%1'").arg(m_reader.value(targetOption)));

    if (!toNumber(m_reader.value(maxRateOption), &number) || number <= 0)
        return m_reader.fail(
            QStringLiteral("--max-rate must be a positive number, not '%1'").arg(m_reader.value(maxRateOption)));
    o.maxRate = number;

    if (!toNumber(m_reader.value(rateOption), &number) || number < 0 || number > o.maxRate)
        return m_reader.fail(QStringLiteral("--rate must be a number from 0 to --max-rate (%1), not '%2'")
                                 .arg(o.maxRate)
                                 .arg(m_reader.value(rateOption)));
    o.rate = number;

    if (!m_reader.integer(inflightOption, 0, std::numeric_limits<qint32>::max(), &integer))
        return m_reader.fail(QStringLiteral("--inflight-limit must be an integer >= 0 (0 = unlimited), not '%1'")
                                 .arg(m_reader.value(inflightOption)));
    o.inflightLimit = static_cast<qint32>(integer);

    if (!m_reader.integer(poolOption, 1, 10000, &o.poolSize))
        return false;

    if (!toNumber(m_reader.value(deadlineOption), &number) || number < 0.001 || number > 86400)
        return m_reader.fail(
            QStringLiteral("--deadline must be 0.001..86400 seconds, not '%1'").arg(m_reader.value(deadlineOption)));
    o.deadlineSeconds = number;

    if (!m_reader.integer(maxPendingOption, 1, std::numeric_limits<qint32>::max(), &integer))
        return m_reader.fail(
            QStringLiteral("--max-pending must be an integer >= 1, not '%1'").arg(m_reader.value(maxPendingOption)));
    o.maxPending = integer;

    if (m_reader.isSet(tokenOption)) {
        QString error;
        if (!BearerToken::load(m_reader.value(tokenOption), &o.token, &error))
            return m_reader.fail(error);
    }
    // Seed 000's lesson applies to the steering wheel too: an unauthenticated admin API on
    // a reachable address would let anyone on the network drive the load.
    if (!o.bind.isLoopback() && !o.token.isEnabled())
        return m_reader.fail(QStringLiteral("refusing to listen on the non-loopback address %1 without "
                                            "--admin-token-file")
                                 .arg(o.bind.toString()));

    o.instance = m_reader.value(instanceOption).trimmed();

    const auto quantity = [this](const QCommandLineOption &option, double min, double max, double *out) -> bool {
        QString error;
        const std::optional<ResourceQuantity> q = ResourceQuantity::parse(m_reader.value(option).trimmed(), &error);
        if (!q || q->value() < min || q->value() > max)
            return m_reader.fail(
                QStringLiteral("--%1 must be a quantity from %2 to %3, not '%4'%5")
                    .arg(option.names().constFirst())
                    .arg(min)
                    .arg(max)
                    .arg(m_reader.value(option), error.isEmpty() ? QString() : QStringLiteral(": ") + error));
        *out = q->value();
        return true;
    };
    double memory = 0;
    double requestMemory = 0;
    if (!quantity(memoryLimitOption, 0, 1e15, &memory) || !quantity(requestMemoryOption, 1, 1e9, &requestMemory) ||
        !quantity(cpuLimitOption, 0, 1024, &o.cpuLimitCores))
        return false;
    o.memoryLimitBytes = static_cast<qint64>(std::ceil(memory));
    o.requestMemoryBytes = static_cast<qint64>(std::ceil(requestMemory));
    if (!toNumber(m_reader.value(cpuPerRequestOption), &number) || number < 1e-6 || number > 10)
        return m_reader.fail(QStringLiteral("--cpu-per-request must be 0.000001..10 seconds, not '%1'")
                                 .arg(m_reader.value(cpuPerRequestOption)));
    o.cpuSecondsPerRequest = number;
    return true;
}
