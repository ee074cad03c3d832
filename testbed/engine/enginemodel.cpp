// SPDX-License-Identifier: GPL-3.0-or-later
#include "enginemodel.h"

#include <algorithm>
#include <cmath>

EngineModel::EngineModel(const EngineConfig &config, quint64 seed) : m_config(config), m_random(seed) {}

EngineModel::SubmitResult EngineModel::submit(double now)
{
    advance(now);
    if (m_config.acceptableBacklog > 0 && m_counters.backlog() > static_cast<quint64>(m_config.acceptableBacklog)) {
        ++m_counters.rejectedBacklog;
        return {Admission::BacklogTooLarge, 0};
    }
    const bool workerIdle = static_cast<qsizetype>(m_inService.size()) < m_config.workers;
    if (!workerIdle && static_cast<qint64>(m_queue.size()) >= m_config.queueCapacity) {
        ++m_counters.rejectedQueueFull;
        return {Admission::QueueFull, 0};
    }
    const quint64 key = m_nextKey++;
    ++m_counters.accepted;
    m_queue.push_back(key);
    startWaitingWork(m_now);
    return {Admission::Accepted, key};
}

void EngineModel::advance(double now)
{
    if (!m_started) {
        // The clock may start anywhere; nothing happened before the first call.
        m_now = now;
        m_started = true;
    }
    now = std::max(now, m_now);
    while (!m_inService.empty() && m_inService.top().finishAt <= now) {
        const InService done = m_inService.top();
        m_inService.pop();
        // The exporter must see the backlog as it was at each completion, not only at `now`,
        // or a late call would drain records that did not exist yet.
        drainExporterTo(done.finishAt);
        ++m_counters.completed;
        m_counters.recordsAppended += static_cast<quint64>(m_config.recordsPerInstance);
        m_completed.push_back(done.key);
        startWaitingWork(done.finishAt);
    }
    drainExporterTo(now);
}

std::vector<quint64> EngineModel::takeCompleted()
{
    std::vector<quint64> completed;
    completed.swap(m_completed);
    return completed;
}

std::optional<double> EngineModel::nextCompletionTime() const
{
    if (m_inService.empty())
        return std::nullopt;
    return m_inService.top().finishAt;
}

void EngineModel::setWorkers(int workers, double now)
{
    advance(now);
    m_config.workers = std::max(0, workers);
    startWaitingWork(m_now);
}

void EngineModel::setServiceTime(double seconds, double now)
{
    advance(now);
    m_config.serviceTimeSeconds = seconds;
}

void EngineModel::setExportRate(double recordsPerSecond, double now)
{
    advance(now); // what was exported so far was exported at the old rate
    m_config.exportRate = std::max(0.0, recordsPerSecond);
}

void EngineModel::setAcceptableBacklog(qint64 records, double now)
{
    advance(now);
    m_config.acceptableBacklog = std::max<qint64>(0, records);
}

EngineModel::Counters EngineModel::counters() const
{
    Counters counters = m_counters;
    counters.queueLength = static_cast<qint64>(m_queue.size());
    counters.workersBusy = static_cast<int>(m_inService.size());
    counters.workers = m_config.workers;
    return counters;
}

void EngineModel::drainExporterTo(double time)
{
    if (time <= m_now)
        return;
    const double appended = static_cast<double>(m_counters.recordsAppended);
    m_exported = std::min(appended, m_exported + m_config.exportRate * (time - m_now));
    m_counters.recordsExported = static_cast<quint64>(std::floor(m_exported));
    m_now = time;
}

void EngineModel::startWaitingWork(double time)
{
    while (!m_queue.empty() && static_cast<qsizetype>(m_inService.size()) < m_config.workers) {
        const quint64 key = m_queue.front();
        m_queue.pop_front();
        ++m_counters.created;
        m_inService.push({time + drawServiceTime(), key});
    }
}

double EngineModel::drawServiceTime()
{
    const double mean = m_config.serviceTimeSeconds;
    if (m_config.serviceDistribution == ServiceDistribution::Fixed)
        return mean;
    std::exponential_distribution<double> distribution(1.0 / mean);
    return distribution(m_random);
}
