// SPDX-License-Identifier: GPL-3.0-or-later
#include "startermetrics.h"

#include "cpuquota.h"
#include "latencyhistogram.h"
#include "loadcontrol.h"
#include "loadcounters.h"
#include "memorylimit.h"
#include "processstats.h"
#include "prometheustextwriter.h"

StarterMetrics::StarterMetrics(const LoadControl &control, const LoadCounters &counters,
                               const LatencyHistogram &histogram, int poolSize, const CpuQuota *cpu,
                               const MemoryLimit *memory)
    : m_control(control), m_counters(counters), m_histogram(histogram), m_poolSize(poolSize), m_cpu(cpu),
      m_memory(memory)
{}

QByteArray StarterMetrics::render() const
{
    const LoadSettings settings = m_control.settings();
    const qint64 pending = m_counters.pending.load();
    const qint64 leased = m_counters.leased.load();
    PrometheusTextWriter w;

    w.family("starter_requests_sent_total", "counter", "Requests handed to the HTTP client.");
    w.sample("starter_requests_sent_total", m_counters.sent.load());
    w.family("starter_requests_received_total", "counter",
             "Answers received: success = 2xx, failure = any other status, deadline or connection "
             "error.");
    w.sample("starter_requests_received_total", m_counters.succeeded.load(), {{"outcome", "success"}});
    w.sample("starter_requests_received_total", m_counters.failed.load(), {{"outcome", "failure"}});
    w.family("starter_requests_skipped_total", "counter",
             "Scheduler ticks skipped because the in-flight limit was reached.");
    w.sample("starter_requests_skipped_total", m_counters.skipped.load());
    w.family("starter_requests_dropped_total", "counter",
             "Scheduler ticks refused because the pending FIFO was full (--max-pending).");
    w.sample("starter_requests_dropped_total", m_counters.dropped.load());
    w.family("starter_requests_inflight", "gauge", "Sent and not yet answered (pending + leased).");
    w.sample("starter_requests_inflight", pending + leased);
    w.family("starter_rate", "gauge", "Configured requests per second (0 sends nothing).");
    w.sample("starter_rate", settings.rate);
    w.family("starter_inflight_limit", "gauge", "Configured in-flight limit (0 = unlimited).");
    w.sample("starter_inflight_limit", qint64(settings.inflightLimit));
    w.family("starter_paused", "gauge", "1 while paused on purpose.");
    w.sample("starter_paused", qint64(settings.paused ? 1 : 0));
    w.family("starter_scheduler_errors_total", "counter",
             "Failures caught inside the scheduler loop (each one is logged).");
    w.sample("starter_scheduler_errors_total", m_counters.schedulerErrors.load());

    w.family("http_client_pool_leased", "gauge", "Connections carrying a request.");
    w.sample("http_client_pool_leased", leased);
    w.family("http_client_pool_pending", "gauge", "Requests waiting for a connection.");
    w.sample("http_client_pool_pending", pending);
    w.family("http_client_pool_available", "gauge", "Connections free for a request (pool size - leased).");
    w.sample("http_client_pool_available", std::max<qint64>(0, m_poolSize - leased));
    w.family("http_client_pool_max", "gauge", "Pool size.");
    w.sample("http_client_pool_max", qint64(m_poolSize));

    const QByteArray histogram = "http_client_request_seconds";
    w.family(histogram, "histogram",
             "Time from scheduling to answer; status 599 = no HTTP answer (deadline, connection "
             "error).");
    const QList<double> &bounds = m_histogram.upperBounds();
    for (const auto &[status, series] : m_histogram.snapshot()) {
        const QByteArray statusLabel = QByteArray::number(status);
        quint64 cumulative = 0;
        for (qsizetype i = 0; i <= bounds.size(); ++i) {
            cumulative += series.bucketCounts[static_cast<std::size_t>(i)];
            const QByteArray le =
                i < bounds.size() ? PrometheusTextWriter::formatValue(bounds.at(i)) : QByteArray("+Inf");
            w.sample(histogram + "_bucket", qint64(cumulative),
                     {{"method", "POST"}, {"status", statusLabel}, {"le", le}});
        }
        w.sample(histogram + "_sum", series.sum, {{"method", "POST"}, {"status", statusLabel}});
        w.sample(histogram + "_count", qint64(series.count), {{"method", "POST"}, {"status", statusLabel}});
    }

    if (m_memory && m_memory->isEnabled()) {
        w.family("starter_memory_used_bytes", "gauge",
                 "Memory the requests in flight hold in the model of seed 000's heap "
                 "(--request-memory each).");
        w.sample("starter_memory_used_bytes", m_memory->usedBytes(pending + leased));
        w.family("starter_memory_limit_bytes", "gauge",
                 "--memory-limit: above it the starter exits with 137 (OOMKilled).");
        w.sample("starter_memory_limit_bytes", m_memory->limitBytes());
    }
    if (m_cpu) {
        w.family("container_cpu_cfs_periods_total", "counter",
                 "CFS periods (100 ms) in which the scheduler had requests to send.");
        w.sample("container_cpu_cfs_periods_total", m_cpu->periods());
        w.family("container_cpu_cfs_throttled_periods_total", "counter",
                 "Periods in which the CPU quota ran out before the scheduler's work did.");
        w.sample("container_cpu_cfs_throttled_periods_total", m_cpu->throttledPeriods());
        w.family("container_cpu_cfs_throttled_seconds_total", "counter",
                 "Time the scheduler waited for the next period's quota.");
        w.sample("container_cpu_cfs_throttled_seconds_total", m_cpu->throttledSeconds());
        w.family("starter_cpu_limit_cores", "gauge", "--cpu-limit.");
        w.sample("starter_cpu_limit_cores", m_cpu->cores());
        w.family("starter_cpu_limited_rate", "gauge",
                 "Most requests per second the CPU limit lets through (cores / "
                 "--cpu-per-request).");
        w.sample("starter_cpu_limited_rate", m_cpu->requestsPerSecond());
    }

    w.family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    w.sample("process_resident_memory_bytes", ProcessStats::residentMemoryBytes());
    w.family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.");
    w.sample("process_cpu_seconds_total", ProcessStats::cpuSeconds());
    return w.text();
}
