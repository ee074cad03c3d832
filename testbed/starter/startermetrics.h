// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

class CpuQuota;
class LatencyHistogram;
class MemoryLimit;
class LoadControl;
struct LoadCounters;

// GET /metrics of the starter (docs/metrics.md). Names follow the HTTP client metrics of
// seed 000, so a dashboard made for the testbed reads like one made for the real starter.
//
// http_client_pool_available is the pool size minus the leased connections, i.e. the
// connections a pending request could get at once; curl does not tell how many of those are
// open and idle right now, and idle-but-closed ones get reopened on lease.
class StarterMetrics
{
public:
    // `cpu` and `memory` may be null (no limit): their series are left out, as cAdvisor
    // leaves out the CFS counters of a container without a CPU limit.
    StarterMetrics(const LoadControl &control, const LoadCounters &counters, const LatencyHistogram &histogram,
                   int poolSize, const CpuQuota *cpu = nullptr, const MemoryLimit *memory = nullptr);

    QByteArray render() const;

private:
    const LoadControl &m_control;
    const LoadCounters &m_counters;
    const LatencyHistogram &m_histogram;
    const int m_poolSize;
    const CpuQuota *m_cpu;
    const MemoryLimit *m_memory;
};
