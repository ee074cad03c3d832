// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobmetricswriter.h"

#include "prometheustextwriter.h"

namespace JobMetricsWriter {

QByteArray render(const JobModel::Counters &counters)
{
    PrometheusTextWriter w;
    using Labels = PrometheusTextWriter::Labels;
    const auto count = [](quint64 value) { return static_cast<qint64>(value); };

    w.family("zeebe_process_instance_creations_total", "counter",
             "Process instances created (the create call was processed).");
    w.sample("zeebe_process_instance_creations_total", count(counters.instancesStarted),
             {{"partition", "1"}, {"creation_mode", "CREATION_AT_DEFAULT_START_EVENT"}});
    w.family("zeebe_element_instance_events_total", "counter",
             "Element instance events; type PROCESS: process instances activated and completed.");
    w.sample("zeebe_element_instance_events_total", count(counters.instancesStarted),
             {{"action", "activated"}, {"type", "PROCESS"}, {"partition", "1"}});
    w.sample("zeebe_element_instance_events_total", count(counters.instancesCompleted),
             {{"action", "completed"}, {"type", "PROCESS"}, {"partition", "1"}});
    w.family("engine_process_instances_active", "gauge",
             "Process instances created and not completed yet (waiting for their jobs).");
    w.sample("engine_process_instances_active", counters.activeInstances());

    w.family("zeebe_job_events_total", "counter",
             "Job events by action: created, activated (polled or pushed), pushed, timed out, "
             "completed.");
    for (const auto &[type, c] : counters.types) {
        const QByteArray name = type.toUtf8();
        const auto labels = [&](const char *action) {
            return Labels{{"action", action}, {"partition", "1"}, {"type", name}, {"job_kind", "BPMN_ELEMENT"}};
        };
        w.sample("zeebe_job_events_total", count(c.created), labels("created"));
        w.sample("zeebe_job_events_total", count(c.activated), labels("activated"));
        w.sample("zeebe_job_events_total", count(c.pushed), labels("pushed"));
        w.sample("zeebe_job_events_total", count(c.timedOut), labels("timed out"));
        w.sample("zeebe_job_events_total", count(c.completed), labels("completed"));
    }

    quint64 rejected = counters.completionsRejectedNotFound;
    quint64 completeCommands = counters.completionsRejectedNotFound;
    quint64 timeOutCommands = 0;
    for (const auto &[type, c] : counters.types) {
        rejected += c.completionsRejected;
        completeCommands += c.completed + c.completionsRejected;
        timeOutCommands += c.timedOut;
    }
    w.family("zeebe_log_appender_record_appended_total", "counter",
             "Records appended to the log: JOB commands (COMPLETE, TIME_OUT) and the rejected "
             "ones. A rejected COMPLETE is work done for a job the worker no longer owned.");
    w.sample("zeebe_log_appender_record_appended_total", count(completeCommands),
             {{"partition", "1"}, {"recordType", "COMMAND"}, {"valueType", "JOB"}, {"intent", "COMPLETE"}});
    w.sample("zeebe_log_appender_record_appended_total", count(timeOutCommands),
             {{"partition", "1"}, {"recordType", "COMMAND"}, {"valueType", "JOB"}, {"intent", "TIME_OUT"}});
    w.sample("zeebe_log_appender_record_appended_total", count(rejected),
             {{"partition", "1"}, {"recordType", "COMMAND_REJECTION"}, {"valueType", "JOB"}, {"intent", "COMPLETE"}});

    w.family("zeebe_gateway_job_stream_push_total", "counter", "Jobs pushed to a worker's stream at their creation.");
    for (const auto &[type, c] : counters.types)
        w.sample("zeebe_gateway_job_stream_push_total", count(c.pushed), {{"type", type.toUtf8()}});
    w.family("zeebe_gateway_total_requests_total", "counter",
             "Job activation requests (polls); a live worker that stopped polling shows here.");
    for (const auto &[type, c] : counters.types)
        w.sample("zeebe_gateway_total_requests_total", count(c.activationRequests),
                 {{"requestType", "JOB_BATCH#ACTIVATE"}, {"type", type.toUtf8()}});

    w.family("engine_jobs_activatable", "gauge",
             "Jobs waiting to be polled (the backlog seed 004 could not see), by job type.");
    for (const auto &[type, c] : counters.types)
        w.sample("engine_jobs_activatable", c.activatable, {{"type", type.toUtf8()}});
    w.family("engine_jobs_activated", "gauge", "Jobs activated and neither completed nor timed out, by job type.");
    for (const auto &[type, c] : counters.types)
        w.sample("engine_jobs_activated", c.activatedNow, {{"type", type.toUtf8()}});
    w.family("engine_job_streams", "gauge", "Open job streams (workers that get pushes).");
    for (const auto &[type, c] : counters.types)
        w.sample("engine_job_streams", qint64(c.streams), {{"type", type.toUtf8()}});
    return w.text();
}

} // namespace JobMetricsWriter
