// SPDX-License-Identifier: GPL-3.0-or-later
#include "workermetrics.h"

#include "jobworker.h"
#include "prometheustextwriter.h"

namespace WorkerMetrics {

QByteArray render(const JobWorker &worker)
{
    const JobWorker::Counters &c = worker.counters();
    const WorkerSettings &s = worker.settings();
    const QByteArray type = s.jobType.toUtf8();
    PrometheusTextWriter w;

    w.family("camunda_client_worker_job_activated_total", "counter", "Jobs this worker received, pushed or polled.");
    w.sample("camunda_client_worker_job_activated_total", c.pushed + c.polled, {{"type", type}});
    w.family("camunda_client_worker_job_handled_total", "counter",
             "Jobs whose handler returned, whether the engine then accepted the completion or "
             "not.");
    w.sample("camunda_client_worker_job_handled_total", c.handled, {{"type", type}});

    w.family("worker_jobs_received_total", "counter", "Jobs received, by how they came.");
    w.sample("worker_jobs_received_total", c.pushed, {{"type", type}, {"source", "push"}});
    w.sample("worker_jobs_received_total", c.polled, {{"type", type}, {"source", "poll"}});
    w.family("worker_completions_total", "counter",
             "Completions sent: accepted, rejected (the job had timed out or was done already), "
             "failed (no answer).");
    w.sample("worker_completions_total", c.completionsAccepted, {{"type", type}, {"outcome", "accepted"}});
    w.sample("worker_completions_total", c.completionsRejected, {{"type", type}, {"outcome", "rejected"}});
    w.sample("worker_completions_total", c.completionsFailed, {{"type", type}, {"outcome", "failed"}});
    w.family("worker_polls_total", "counter", "Activation requests sent (polls).");
    w.sample("worker_polls_total", c.polls, {{"type", type}});
    w.family("worker_stream_connected", "gauge", "1 while the job stream is open.");
    w.sample("worker_stream_connected", qint64(c.streamConnected ? 1 : 0), {{"type", type}});

    w.family("worker_jobs_held", "gauge", "Jobs received and not handled yet (the fill level).");
    w.sample("worker_jobs_held", qint64(c.held), {{"type", type}});
    w.family("worker_threads_busy", "gauge", "Handlers running now.");
    w.sample("worker_threads_busy", qint64(c.busy), {{"type", type}});
    w.family("worker_capacity", "gauge", "Most jobs held at once (maxJobsActive).");
    w.sample("worker_capacity", qint64(s.capacity), {{"type", type}});
    w.family("worker_threads", "gauge", "Jobs handled at once.");
    w.sample("worker_threads", qint64(s.threads), {{"type", type}});
    w.family("worker_handler_duration_seconds", "gauge", "Time one job's handler takes.");
    w.sample("worker_handler_duration_seconds", s.handlerSeconds, {{"type", type}});
    w.family("worker_job_timeout_seconds", "gauge", "Job timeout asked for on activation.");
    w.sample("worker_job_timeout_seconds", s.timeoutSeconds, {{"type", type}});
    return w.text();
}

} // namespace WorkerMetrics
