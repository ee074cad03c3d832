// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "requestdispatcher.h"
#include "tickbudget.h"

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

class LoadControl;
struct LoadCounters;

// The open-model scheduler: on its own thread, it earns `rate` ticks per second, sends one
// request per tick unless the in-flight limit is reached (then the tick is skipped and
// counted, never queued), and drives the request pool in between.
//
// Seed 000's starter died silently when an Error escaped its scheduled task. Here every
// failure of an iteration is caught, counted and logged, and the loop goes on; the heartbeat
// only advances on an iteration that completed, so a loop that keeps failing shows up as a
// failing liveness probe instead of a quiet zombie.
class LoadScheduler
{
public:
    LoadScheduler(LoadControl &control, LoadCounters &counters, std::unique_ptr<RequestDispatcher> dispatcher);
    ~LoadScheduler(); // stops and joins
    LoadScheduler(const LoadScheduler &) = delete;
    LoadScheduler &operator=(const LoadScheduler &) = delete;

    void start();
    void stop();
    // Makes the loop look at the set-points now instead of at its next timeout.
    void wakeup();

    // How long the loop may sleep between iterations, so the heartbeat stays fresh and a
    // paused scheduler still proves it is alive.
    static constexpr std::chrono::milliseconds maxPollInterval{100};

private:
    void run() noexcept;
    void iterate();
    void reportFailure(const char *what) noexcept;

    LoadControl &m_control;
    LoadCounters &m_counters;
    std::unique_ptr<RequestDispatcher> m_pool;
    TickBudget m_budget;
    qint64 m_reportedLostTicks = 0;
    std::atomic<bool> m_stopping{false};
    std::thread m_thread;

    qint64 m_failuresSinceLog = 0;
    std::optional<RequestDispatcher::Clock::time_point> m_lastFailureLog;
};
