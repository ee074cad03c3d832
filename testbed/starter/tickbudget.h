// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <chrono>

// Exact tick accounting for a rate that may change at any time: the time since the last call
// earns rate × elapsed ticks, the whole ticks are due now and the fraction carries over. So
// 300/s sends 300 per second whatever the poll granularity of the loop.
class TickBudget
{
public:
    using Clock = std::chrono::steady_clock;

    // A loop that stalled longer than this does not fire the whole backlog at once: an open
    // model sends at the rate, not in bursts that make up for the scheduler's own hiccups.
    static constexpr std::chrono::milliseconds maxCatchUp{1000};

    // Ticks due at `now` for `ratePerSecond`. A non-positive rate earns nothing and drops the
    // carried fraction, so a resume starts afresh.
    qint64 take(Clock::time_point now, double ratePerSecond);
    // Stops earning (pause, rate 0): the next take() starts counting from its own `now`.
    void reset();

    // Time until the next tick is due at `ratePerSecond` (as of the last take()).
    Clock::duration untilNext(double ratePerSecond) const;
    // Ticks that were not sent because the loop fell behind by more than maxCatchUp.
    qint64 lostTicks() const { return m_lost; }

private:
    bool m_started = false;
    Clock::time_point m_last;
    double m_credit = 0; // fractional ticks earned and not yet due, in [0, 1)
    qint64 m_lost = 0;
};
