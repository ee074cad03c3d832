// SPDX-License-Identifier: GPL-3.0-or-later
#include "tickbudget.h"

#include <cmath>

qint64 TickBudget::take(Clock::time_point now, double ratePerSecond)
{
    if (!(ratePerSecond > 0) || !std::isfinite(ratePerSecond)) {
        reset();
        return 0;
    }
    if (!m_started) {
        m_started = true;
        m_last = now;
        m_credit = 0;
        return 0;
    }
    if (now <= m_last)
        return 0;
    auto elapsed = now - m_last;
    m_last = now;
    if (elapsed > maxCatchUp) {
        m_lost += static_cast<qint64>(
            std::floor(ratePerSecond * std::chrono::duration<double>(elapsed - maxCatchUp).count()));
        elapsed = maxCatchUp;
    }
    m_credit += ratePerSecond * std::chrono::duration<double>(elapsed).count();
    const double due = std::floor(m_credit);
    m_credit -= due;
    return static_cast<qint64>(due);
}

void TickBudget::reset()
{
    m_started = false;
    m_credit = 0;
}

TickBudget::Clock::duration TickBudget::untilNext(double ratePerSecond) const
{
    if (!(ratePerSecond > 0) || !std::isfinite(ratePerSecond))
        return std::chrono::duration_cast<Clock::duration>(maxCatchUp);
    const double seconds = (1.0 - m_credit) / ratePerSecond;
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}
