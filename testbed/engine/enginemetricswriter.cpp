// SPDX-License-Identifier: GPL-3.0-or-later
#include "enginemetricswriter.h"

#include <QLocale>
#include <cmath>

namespace {

QByteArray formatValue(double value)
{
    if (std::isnan(value))
        return QByteArrayLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    // Counters go up to 2^53 exactly as doubles; print them without an exponent so that
    // a reader sees "1234567", not "1.234567e+06".
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
        return QByteArray::number(static_cast<qint64>(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace

QByteArray EngineMetricsWriter::render(const EngineModel::Counters &counters, const EngineConfig &config,
                                       const ProcessStats &process)
{
    EngineMetricsWriter writer;
    auto count = [](quint64 value) { return static_cast<double>(value); };

    writer.family("engine_requests_total", "counter",
                  "Requests to create a process instance: accepted into the queue, or rejected "
                  "by backpressure (503, queue full) or flow control (429).");
    writer.sample("engine_requests_total", count(counters.accepted), R"(outcome="accepted")");
    writer.sample("engine_requests_total", count(counters.rejectedQueueFull + counters.rejectedBacklog),
                  R"(outcome="rejected")");

    writer.family("engine_requests_rejected_total", "counter",
                  "Rejected requests by reason: queue_full (503) or flow_control (429).");
    writer.sample("engine_requests_rejected_total", count(counters.rejectedQueueFull), R"(reason="queue_full")");
    writer.sample("engine_requests_rejected_total", count(counters.rejectedBacklog), R"(reason="flow_control")");

    writer.family("engine_process_instances_created_total", "counter", "Process instances a worker started.");
    writer.sample("engine_process_instances_created_total", count(counters.created));
    writer.family("engine_process_instances_completed_total", "counter", "Process instances completed and answered.");
    writer.sample("engine_process_instances_completed_total", count(counters.completed));

    writer.family("engine_queue_length", "gauge", "Accepted instances waiting for a worker.");
    writer.sample("engine_queue_length", static_cast<double>(counters.queueLength));
    writer.family("engine_workers_busy", "gauge", "Workers processing an instance now.");
    writer.sample("engine_workers_busy", counters.workersBusy);
    writer.family("engine_workers", "gauge", "Configured workers.");
    writer.sample("engine_workers", counters.workers);

    writer.family("engine_records_appended_total", "counter",
                  "Records appended to the exporter (records per instance on completion).");
    writer.sample("engine_records_appended_total", count(counters.recordsAppended));
    writer.family("engine_records_exported_total", "counter", "Records the exporter drained.");
    writer.sample("engine_records_exported_total", count(counters.recordsExported));
    writer.family("engine_exporter_backlog_records", "gauge", "Records appended but not exported yet.");
    writer.sample("engine_exporter_backlog_records", count(counters.backlog()));
    writer.family("engine_exporter_rate_limit", "gauge", "Exporter capacity in records per second.");
    writer.sample("engine_exporter_rate_limit", config.exportRate);
    writer.family("engine_acceptable_backlog_records", "gauge",
                  "Flow control: new instances get 429 while the backlog is over this (0 = off).");
    writer.sample("engine_acceptable_backlog_records", static_cast<double>(config.acceptableBacklog));
    writer.family("engine_service_time_seconds", "gauge",
                  "Configured time one worker needs for one instance (mean if exponential).");
    writer.sample("engine_service_time_seconds", config.serviceTimeSeconds);

    writer.family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.");
    writer.sample("process_cpu_seconds_total", process.cpuSeconds);
    writer.family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    writer.sample("process_resident_memory_bytes", static_cast<double>(process.residentBytes));
    return writer.m_text;
}

void EngineMetricsWriter::family(const char *name, const char *type, const char *help)
{
    m_text += "# HELP ";
    m_text += name;
    m_text += ' ';
    m_text += help; // our own constant strings: no backslash or newline to escape
    m_text += "\n# TYPE ";
    m_text += name;
    m_text += ' ';
    m_text += type;
    m_text += '\n';
}

void EngineMetricsWriter::sample(const char *name, double value, const QByteArray &labels)
{
    m_text += name;
    if (!labels.isEmpty()) {
        m_text += '{';
        m_text += labels;
        m_text += '}';
    }
    m_text += ' ';
    m_text += formatValue(value);
    m_text += '\n';
}
