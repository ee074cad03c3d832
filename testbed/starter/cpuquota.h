// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <atomic>
#include <chrono>

// A CPU limit as the kernel's CFS bandwidth control applies it, for the one thing the
// starter spends CPU on in this model: scheduling requests. Every period (100 ms, the
// kernel's default cfs_period_us) grants `cores × period` of CPU time; each request costs
// `secondsPerRequest` of it. A period in which the scheduler wanted more than that is a
// throttled period: what does not fit waits for the next one, so a starter with too little
// CPU sends less than its rate and its requests start late (seed 000: 250 millicores).
//
// The counters are cAdvisor's container_cpu_cfs_periods_total (periods in which the
// scheduler had work) and container_cpu_cfs_throttled_periods_total. Written by the
// scheduler thread, read by the metrics thread.
class CpuQuota
{
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds period{100};

    CpuQuota(double cores, double secondsPerRequest);

    // How many of `wanted` requests the quota lets through at `now` (all when unlimited).
    qint64 grant(Clock::time_point now, qint64 wanted);
    // When the next period starts (and new quota with it), as of the last grant().
    Clock::time_point nextPeriod() const { return m_periodStart + period; }

    double cores() const { return m_cores; }
    double secondsPerRequest() const { return m_cost; }
    // Requests one period lets through (cores × period / cost).
    double requestsPerSecond() const { return m_cores / m_cost; }

    qint64 periods() const { return m_periods.load(); }
    qint64 throttledPeriods() const { return m_throttledPeriods.load(); }
    double throttledSeconds() const { return double(m_throttledNs.load()) / 1e9; }

private:
    double m_cores;
    double m_cost;
    bool m_started = false;
    Clock::time_point m_periodStart;
    double m_budget = 0; // CPU seconds left in the current period
    bool m_countedPeriod = false;
    bool m_throttledPeriod = false;

    std::atomic<qint64> m_periods{0};
    std::atomic<qint64> m_throttledPeriods{0};
    std::atomic<qint64> m_throttledNs{0};
};
