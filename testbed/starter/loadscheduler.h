// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cpuquota.h"
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
    // `cpu` (may be null: unlimited) caps what each 100 ms period may schedule; the ticks it
    // holds back are sent in the next periods, at most a second's worth of them.
    LoadScheduler(LoadControl &control, LoadCounters &counters, std::unique_ptr<RequestDispatcher> dispatcher,
                  CpuQuota *cpu = nullptr);
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
    CpuQuota *m_cpu = nullptr;
    qint64 m_throttledTicks = 0; // due, held back by the CPU quota
    qint64 m_throttleLostTicks = 0;
    qint64 m_reportedThrottleLost = 0;
    std::atomic<bool> m_stopping{false};
    std::thread m_thread;

    qint64 m_failuresSinceLog = 0;
    std::optional<RequestDispatcher::Clock::time_point> m_lastFailureLog;
};
