// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpuquota.h"

#include <cmath>

CpuQuota::CpuQuota(double cores, double secondsPerRequest)
    : m_cores(cores), m_cost(secondsPerRequest > 0 ? secondsPerRequest : 0.001)
{}

qint64 CpuQuota::grant(Clock::time_point now, qint64 wanted)
{
    if (wanted <= 0)
        return 0;
    const double quota = m_cores * std::chrono::duration<double>(period).count();
    if (!m_started || now >= m_periodStart + period) {
        if (!m_started) {
            m_periodStart = now;
            m_started = true;
        } else {
            // Periods are aligned to the first one; idle periods in between count nowhere.
            const auto elapsed = now - m_periodStart;
            m_periodStart += (elapsed / period) * period;
        }
        m_budget = quota;
        m_countedPeriod = false;
        m_throttledPeriod = false;
    }
    if (!m_countedPeriod) {
        m_countedPeriod = true;
        ++m_periods;
    }
    // A small epsilon: 250m × 100 ms / 1 ms is 25 requests, not 24 after rounding.
    const auto fits = static_cast<qint64>(std::floor(m_budget / m_cost + 1e-9));
    const qint64 granted = std::min(wanted, std::max<qint64>(0, fits));
    m_budget -= double(granted) * m_cost;
    if (granted < wanted && !m_throttledPeriod) {
        m_throttledPeriod = true;
        ++m_throttledPeriods;
        m_throttledNs += std::chrono::duration_cast<std::chrono::nanoseconds>(nextPeriod() - now).count();
    }
    return granted;
}
