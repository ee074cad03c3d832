// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "processdefinition.h"

#include <QString>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <unordered_map>
#include <vector>

// The engine's jobs, without HTTP: process instances walk through the steps of a
// ProcessDefinition, each step creates jobs (N of them for a multi-instance step), workers
// activate them, a job not completed before its deadline times out and is activatable again,
// and a completion from an activation that timed out is rejected.
//
// Two ways to a worker, as in Zeebe (seed 004, "Layer 1"): a job is *pushed* at the moment
// it is created to a worker that holds a stream for its type and has room (held jobs below
// the capacity it declared), and only otherwise becomes *activatable*, where polling finds
// it, oldest first. Nothing is ever pushed from the activatable pool: a backlog built while
// no worker was there is drained by polling alone, with whatever capacity the pushes leave.
//
// Time is injected (seconds on any monotonic clock), as in EngineModel.
class JobModel
{
public:
    struct ActivatedJob
    {
        quint64 key = 0;
        QString type;
        quint64 processInstanceKey = 0;
        quint64 activation = 0; // identifies this activation; a completion must name it
        double deadline = 0;    // on the model's clock
        QString worker;
    };
    struct Push
    {
        int stream = 0;
        ActivatedJob job;
    };
    enum class Completion
    {
        Accepted,
        NotFound, // no such job (completed already)
        TimedOut, // the job's activation is not this one any more (it timed out)
    };
    struct TypeCounters
    {
        quint64 created = 0;
        quint64 activated = 0; // by polling and by push
        quint64 pushed = 0;
        quint64 timedOut = 0;
        quint64 completed = 0;
        quint64 completionsRejected = 0;
        quint64 activationRequests = 0; // polls
        qint64 activatable = 0;         // waiting for a poll now
        qint64 activatedNow = 0;        // activated and not completed or timed out
        int streams = 0;                // open streams
    };
    struct Counters
    {
        quint64 instancesStarted = 0;
        quint64 instancesCompleted = 0;
        quint64 completionsRejectedNotFound = 0; // of a job no longer there (type unknown)
        std::map<QString, TypeCounters> types;   // every type of the definition
        qint64 activeInstances() const { return static_cast<qint64>(instancesStarted - instancesCompleted); }
    };

    explicit JobModel(ProcessDefinition definition);

    const ProcessDefinition &definition() const { return m_definition; }
    bool knowsType(const QString &type) const { return m_counters.types.count(type) > 0; }

    // A created process instance enters its first step: its jobs are created now.
    void startInstance(quint64 processInstanceKey, double now);

    // A worker's stream for one job type: jobs of that type are pushed to it while the
    // worker holds fewer than `capacity` jobs (pushed or polled, not yet completed).
    int openStream(const QString &type, const QString &worker, int capacity, double timeoutSeconds);
    void closeStream(int stream);
    // A push the transport could not deliver (the stream had closed): the job is activatable
    // again, as Zeebe's YIELD does.
    void yield(const ActivatedJob &job, double now);
    // Pushes made since the last call, in the order they were made.
    std::vector<Push> takePushes();

    // Polling: up to `max` activatable jobs of `type`, oldest first.
    std::vector<ActivatedJob> activate(const QString &type, const QString &worker, int max, double timeoutSeconds,
                                       double now);
    // `activation` empty: any activation (and an activatable job) may be completed.
    Completion complete(quint64 jobKey, std::optional<quint64> activation, double now);

    // Times out every activation whose deadline is not after `now`.
    void advance(double now);
    std::optional<double> nextDeadline() const;
    // Types that got activatable jobs since the last call: the long polls to answer.
    std::set<QString> takeNotifiedTypes();

    const Counters &counters() const { return m_counters; }

    static constexpr quint64 firstJobKey = (quint64(1) << 51) + 1; // Zeebe's partition 1

private:
    struct Job
    {
        QString type;
        quint64 instance = 0;
        int iteration = 0;
        quint64 activation = 0; // 0 = activatable
        double deadline = 0;
    };
    struct Deadline
    {
        double at;
        quint64 key;
        quint64 activation;
        bool operator>(const Deadline &other) const
        {
            return at != other.at ? at > other.at : activation > other.activation;
        }
    };
    struct Stream
    {
        QString type;
        QString worker;
        int capacity = 0;
        double timeout = 0;
    };
    struct Instance
    {
        int step = 0;
        int remaining = 0;          // iterations of the current step not done yet
        std::vector<int> positions; // per iteration: index into the step's job types
    };

    void enterStep(quint64 instanceKey, Instance &instance, double now);
    void createJob(const QString &type, quint64 instanceKey, int iteration, double now);
    ActivatedJob activateJob(quint64 key, Job &job, const QString &worker, double timeout, double now);
    void makeActivatable(quint64 key, Job &job);
    std::optional<int> pushTarget(const QString &type);
    bool hasStream(const QString &worker) const;
    void forgetOutstanding(quint64 activation);
    void jobCompleted(const Job &job, double now);

    ProcessDefinition m_definition;
    Counters m_counters;
    quint64 m_nextJobKey = firstJobKey;
    quint64 m_nextActivation = 1;
    int m_nextStream = 1;

    std::unordered_map<quint64, Job> m_jobs;
    std::map<QString, std::set<quint64>> m_activatable; // by type, oldest key first
    std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> m_deadlines;
    std::map<int, Stream> m_streams;
    std::map<QString, int> m_lastPushedStream; // round robin per type
    // Deliveries to workers with a stream that have not been answered by a completion yet:
    // what the worker holds, which is what decides whether a push fits.
    std::unordered_map<quint64, QString> m_outstanding; // activation -> worker
    std::map<QString, int> m_held;
    std::unordered_map<quint64, Instance> m_instances;
    std::vector<Push> m_pushes;
    std::set<QString> m_notified;
};
