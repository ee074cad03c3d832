// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadscheduler.h"

#include "loadcontrol.h"
#include "loadcounters.h"

#include <QLoggingCategory>
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
                             std::unique_ptr<RequestDispatcher> dispatcher)
    : m_control(control), m_counters(counters), m_pool(std::move(dispatcher))
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

    const qint64 due = m_budget.take(now, rate);
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
