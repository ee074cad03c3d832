// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadscheduler.h"

#include "loadcontrol.h"
#include "loadcounters.h"

#include <QLoggingCategory>
#include <cmath>
#include <exception>

Q_LOGGING_CATEGORY(lcScheduler, "chaoscope.starter.scheduler")

namespace {

using Clock = RequestDispatcher::Clock;

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
}

} // namespace

LoadScheduler::LoadScheduler(LoadControl &control, LoadCounters &counters,
                             std::unique_ptr<RequestDispatcher> dispatcher, CpuQuota *cpu)
    : m_control(control), m_counters(counters), m_pool(std::move(dispatcher)), m_cpu(cpu)
{}

LoadScheduler::~LoadScheduler()
{
    stop();
}

void LoadScheduler::start()
{
    m_stopping = false;
    m_counters.heartbeatMs = steadyMs();
    m_counters.schedulerRunning = true;
    m_thread = std::thread([this] { run(); });
}

void LoadScheduler::stop()
{
    if (!m_thread.joinable())
        return;
    m_stopping = true;
    m_pool->wakeup();
    m_thread.join();
}

void LoadScheduler::wakeup()
{
    m_pool->wakeup();
}

void LoadScheduler::run() noexcept
{
    qCInfo(lcScheduler, "scheduler started");
    while (!m_stopping.load()) {
        try {
            iterate();
            m_counters.heartbeatMs = steadyMs();
        } catch (const std::bad_alloc &) {
            reportFailure("out of memory");
        } catch (const std::exception &e) {
            reportFailure(e.what());
        } catch (...) {
            reportFailure("unknown exception");
        }
    }
    m_counters.schedulerRunning = false;
    qCInfo(lcScheduler, "scheduler stopped");
}

void LoadScheduler::iterate()
{
    const LoadSettings settings = m_control.settings();
    const Clock::time_point now = Clock::now();
    const double rate = settings.paused ? 0.0 : settings.rate;

    qint64 due = m_budget.take(now, rate);
    if (m_cpu) {
        m_throttledTicks = rate > 0 ? m_throttledTicks + due : 0;
        // A throttled starter falls behind; what is more than a second late is not sent.
        const auto cap =
            static_cast<qint64>(std::ceil(rate * std::chrono::duration<double>(TickBudget::maxCatchUp).count()));
        if (m_throttledTicks > cap) {
            m_throttleLostTicks += m_throttledTicks - cap;
            m_throttledTicks = cap;
        }
        due = m_cpu->grant(now, m_throttledTicks);
        m_throttledTicks -= due;
        if (m_throttleLostTicks - m_reportedThrottleLost >= std::max<qint64>(1, qint64(rate))) {
            qCWarning(lcScheduler,
                      "CPU-throttled (--cpu-limit %g cores, %g s per request): %lld tick(s) "
                      "more than %lld ms late were not sent",
                      m_cpu->cores(), m_cpu->secondsPerRequest(),
                      static_cast<long long>(m_throttleLostTicks - m_reportedThrottleLost),
                      static_cast<long long>(TickBudget::maxCatchUp.count()));
            m_reportedThrottleLost = m_throttleLostTicks;
        }
    }
    for (qint64 tick = 0; tick < due; ++tick) {
        if (settings.inflightLimit > 0 && m_pool->inflight() >= settings.inflightLimit) {
            // The open model's safety valve (seed 000): skip, count, never queue.
            m_counters.skipped += due - tick;
            break;
        }
        m_pool->submit(now);
    }
    if (m_budget.lostTicks() != m_reportedLostTicks) {
        qCWarning(lcScheduler, "the scheduler fell behind by more than %lld ms; %lld tick(s) not sent",
                  static_cast<long long>(TickBudget::maxCatchUp.count()),
                  static_cast<long long>(m_budget.lostTicks() - m_reportedLostTicks));
        m_reportedLostTicks = m_budget.lostTicks();
    }

    m_pool->pump();

    Clock::duration wait = std::min<Clock::duration>(maxPollInterval, m_budget.untilNext(rate));
    if (m_cpu && m_throttledTicks > 0)
        wait = std::min<Clock::duration>(wait, m_cpu->nextPeriod() - Clock::now());
    if (const auto deadline = m_pool->nextPendingDeadline())
        wait = std::min<Clock::duration>(wait, *deadline - Clock::now());
    // curl polls in whole milliseconds: round up so we do not spin just before a tick is due.
    auto waitMs = std::chrono::ceil<std::chrono::milliseconds>(wait);
    if (waitMs.count() < 0)
        waitMs = std::chrono::milliseconds(0);
    m_pool->poll(waitMs);
}

void LoadScheduler::reportFailure(const char *what) noexcept
{
    try {
        ++m_counters.schedulerErrors;
        ++m_failuresSinceLog;
        const auto now = Clock::now();
        if (!m_lastFailureLog || now - *m_lastFailureLog >= std::chrono::seconds(1)) {
            qCCritical(lcScheduler, "scheduler iteration failed (%lld failure(s) since the last report): %s",
                       static_cast<long long>(m_failuresSinceLog), what);
            m_failuresSinceLog = 0;
            m_lastFailureLog = now;
        }
        // A failure that repeats at once (curl_multi_poll broken) must not spin a core.
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } catch (...) {
        // Logging itself failed (out of memory): the failure count and the stale heartbeat
        // still tell the liveness probe.
    }
}
