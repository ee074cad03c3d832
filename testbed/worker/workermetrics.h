// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

class JobWorker;

// The worker's /metrics: the Camunda Java client's two counters by their Prometheus names
// (camunda_client_worker_job_activated_total, ..._handled_total, label `type`), whose
// difference is the fill level seed 004 reads, and the testbed's own worker_* series.
namespace WorkerMetrics {

QByteArray render(const JobWorker &worker);

} // namespace WorkerMetrics
