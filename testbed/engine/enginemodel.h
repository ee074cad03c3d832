// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineconfig.h"

#include <QtGlobal>
#include <deque>
#include <optional>
#include <queue>
#include <random>
#include <vector>

// The engine without HTTP: a bounded queue in front of W workers, and an exporter that drains
// the records each completed instance appends at a limited rate (seed 003's write path).
//
// Time is injected (seconds on any monotonic clock) so that tests can drive it without
// waiting. Every call that takes `now` first runs the model up to `now`; instances that
// completed on the way are collected and handed out by takeCompleted(), so no completion is
// lost whichever call happened to pass its finishing time.
class EngineModel
{
public:
    enum class Admission
    {
        Accepted,        // taken into the queue (or straight to an idle worker)
        QueueFull,       // 503: the queue is at its bound and no worker is idle
        BacklogTooLarge, // 429: flow control, the exporter backlog is over the acceptable one
    };

    struct SubmitResult
    {
        Admission admission = Admission::Accepted;
        quint64 key = 0; // the process instance key when accepted
    };

    // Cumulative counts and current levels, as /metrics shows them.
    struct Counters
    {
        quint64 accepted = 0;
        quint64 rejectedQueueFull = 0;
        quint64 rejectedBacklog = 0;
        quint64 created = 0; // a worker started the instance
        quint64 completed = 0;
        quint64 recordsAppended = 0;
        quint64 recordsExported = 0;
        qint64 queueLength = 0;
        int workersBusy = 0;
        int workers = 0;
        quint64 backlog() const { return recordsAppended - recordsExported; }
    };

    explicit EngineModel(const EngineConfig &config, quint64 seed = 1);

    SubmitResult submit(double now);

    // Runs completions and the exporter up to `now`.
    void advance(double now);
    // Keys of the instances completed since the last call, in completion order.
    std::vector<quint64> takeCompleted();
    // When the next busy worker finishes; empty when none is busy.
    std::optional<double> nextCompletionTime() const;

    // Runtime changes. Fewer workers: busy ones finish what they hold, then stop. More:
    // idle ones pick up queued instances at once. A new service time applies to instances
    // started from now on.
    void setWorkers(int workers, double now);
    void setServiceTime(double seconds, double now);
    void setExportRate(double recordsPerSecond, double now);
    void setAcceptableBacklog(qint64 records, double now);

    const EngineConfig &config() const { return m_config; }
    Counters counters() const;

private:
    struct InService
    {
        double finishAt;
        quint64 key;
        bool operator>(const InService &other) const
        {
            return finishAt != other.finishAt ? finishAt > other.finishAt : key > other.key;
        }
    };

    void drainExporterTo(double time);
    void startWaitingWork(double time);
    double drawServiceTime();

    EngineConfig m_config;
    std::mt19937_64 m_random;
    double m_now = 0;
    bool m_started = false;
    quint64 m_nextKey = 1;

    std::deque<quint64> m_queue;
    std::priority_queue<InService, std::vector<InService>, std::greater<>> m_inService;
    std::vector<quint64> m_completed;

    Counters m_counters;
    // Exported records as a real number: a rate of 5000/s over 0.3 ms is 1.5 records, and
    // rounding each step would drift.
    double m_exported = 0;
};
