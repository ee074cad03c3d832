// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobmodel.h"

#include <algorithm>

JobModel::JobModel(ProcessDefinition definition) : m_definition(std::move(definition))
{
    for (const QString &type : m_definition.jobTypes())
        m_counters.types[type];
}

void JobModel::startInstance(quint64 processInstanceKey, double now)
{
    if (m_definition.isEmpty())
        return;
    ++m_counters.instancesStarted;
    Instance &instance = m_instances[processInstanceKey];
    instance.step = 0;
    enterStep(processInstanceKey, instance, now);
}

void JobModel::enterStep(quint64 instanceKey, Instance &instance, double now)
{
    const ProcessStep &step = m_definition.steps.at(instance.step);
    instance.remaining = step.multiplicity;
    instance.positions.assign(static_cast<std::size_t>(step.multiplicity), 0);
    for (int iteration = 0; iteration < step.multiplicity; ++iteration)
        createJob(step.jobTypes.constFirst(), instanceKey, iteration, now);
}

void JobModel::createJob(const QString &type, quint64 instanceKey, int iteration, double now)
{
    const quint64 key = m_nextJobKey++;
    Job &job = m_jobs[key];
    job.type = type;
    job.instance = instanceKey;
    job.iteration = iteration;
    TypeCounters &counters = m_counters.types[type];
    ++counters.created;
    // BpmnJobActivationBehavior#publishWork: a live stream with room gets it at once.
    if (const std::optional<int> stream = pushTarget(type)) {
        const Stream &target = m_streams.at(*stream);
        ActivatedJob activated = activateJob(key, job, target.worker, target.timeout, now);
        ++counters.pushed;
        m_pushes.push_back({*stream, std::move(activated)});
        return;
    }
    makeActivatable(key, job);
}

std::optional<int> JobModel::pushTarget(const QString &type)
{
    // Zeebe shuffles the streams of a type; round robin is as fair and reproducible.
    const int last = m_lastPushedStream.count(type) ? m_lastPushedStream.at(type) : 0;
    std::optional<int> first;
    for (const auto &[id, stream] : m_streams) {
        if (stream.type != type)
            continue;
        const auto held = m_held.find(stream.worker);
        if (held != m_held.end() && held->second >= stream.capacity)
            continue;
        if (id > last) {
            m_lastPushedStream[type] = id;
            return id;
        }
        if (!first)
            first = id;
    }
    if (first)
        m_lastPushedStream[type] = *first;
    return first;
}

JobModel::ActivatedJob JobModel::activateJob(quint64 key, Job &job, const QString &worker, double timeout, double now)
{
    job.activation = m_nextActivation++;
    job.deadline = now + timeout;
    m_deadlines.push({job.deadline, key, job.activation});
    TypeCounters &counters = m_counters.types[job.type];
    ++counters.activated;
    ++counters.activatedNow;
    if (hasStream(worker)) {
        m_outstanding.emplace(job.activation, worker);
        ++m_held[worker];
    }
    return {key, job.type, job.instance, job.activation, job.deadline, worker};
}

void JobModel::makeActivatable(quint64 key, Job &job)
{
    job.activation = 0;
    m_activatable[job.type].insert(key);
    ++m_counters.types[job.type].activatable;
    m_notified.insert(job.type);
}

bool JobModel::hasStream(const QString &worker) const
{
    return std::any_of(m_streams.begin(), m_streams.end(),
                       [&](const auto &entry) { return entry.second.worker == worker; });
}

int JobModel::openStream(const QString &type, const QString &worker, int capacity, double timeoutSeconds)
{
    const int id = m_nextStream++;
    m_streams[id] = Stream{type, worker, std::max(1, capacity), timeoutSeconds};
    ++m_counters.types[type].streams;
    return id;
}

void JobModel::closeStream(int stream)
{
    const auto it = m_streams.find(stream);
    if (it == m_streams.end())
        return;
    const QString worker = it->second.worker;
    --m_counters.types[it->second.type].streams;
    m_streams.erase(it);
    if (hasStream(worker))
        return;
    // Nothing is pushed to this worker any more: what it held no longer decides anything.
    for (auto entry = m_outstanding.begin(); entry != m_outstanding.end();) {
        if (entry->second == worker)
            entry = m_outstanding.erase(entry);
        else
            ++entry;
    }
    m_held.erase(worker);
}

void JobModel::yield(const ActivatedJob &pushed, double)
{
    forgetOutstanding(pushed.activation);
    const auto it = m_jobs.find(pushed.key);
    if (it == m_jobs.end() || it->second.activation != pushed.activation)
        return;
    --m_counters.types[it->second.type].activatedNow;
    makeActivatable(pushed.key, it->second);
}

std::vector<JobModel::Push> JobModel::takePushes()
{
    std::vector<Push> pushes;
    pushes.swap(m_pushes);
    return pushes;
}

std::vector<JobModel::ActivatedJob> JobModel::activate(const QString &type, const QString &worker, int max,
                                                       double timeoutSeconds, double now)
{
    advance(now);
    std::vector<ActivatedJob> jobs;
    const auto counters = m_counters.types.find(type);
    if (counters == m_counters.types.end())
        return jobs;
    ++counters->second.activationRequests;
    std::set<quint64> &activatable = m_activatable[type];
    while (static_cast<int>(jobs.size()) < max && !activatable.empty()) {
        const quint64 key = *activatable.begin();
        activatable.erase(activatable.begin());
        --counters->second.activatable;
        jobs.push_back(activateJob(key, m_jobs.at(key), worker, timeoutSeconds, now));
    }
    return jobs;
}

JobModel::Completion JobModel::complete(quint64 jobKey, std::optional<quint64> activation, double now)
{
    advance(now);
    if (activation)
        forgetOutstanding(*activation);
    const auto it = m_jobs.find(jobKey);
    if (it == m_jobs.end()) {
        ++m_counters.completionsRejectedNotFound;
        return Completion::NotFound;
    }
    Job &job = it->second;
    TypeCounters &counters = m_counters.types[job.type];
    if (activation && job.activation != *activation) {
        ++counters.completionsRejected;
        return Completion::TimedOut;
    }
    if (job.activation == 0) {
        m_activatable[job.type].erase(jobKey);
        --counters.activatable;
    } else {
        --counters.activatedNow;
    }
    ++counters.completed;
    const Job done = job;
    m_jobs.erase(it);
    jobCompleted(done, now);
    return Completion::Accepted;
}

void JobModel::forgetOutstanding(quint64 activation)
{
    const auto it = m_outstanding.find(activation);
    if (it == m_outstanding.end())
        return;
    const auto held = m_held.find(it->second);
    if (held != m_held.end() && held->second > 0)
        --held->second;
    m_outstanding.erase(it);
}

void JobModel::jobCompleted(const Job &job, double now)
{
    const auto it = m_instances.find(job.instance);
    if (it == m_instances.end())
        return;
    Instance &instance = it->second;
    const ProcessStep &step = m_definition.steps.at(instance.step);
    int &position = instance.positions.at(static_cast<std::size_t>(job.iteration));
    ++position;
    if (position < step.jobTypes.size()) {
        createJob(step.jobTypes.at(position), job.instance, job.iteration, now);
        return;
    }
    if (--instance.remaining > 0)
        return;
    if (++instance.step < m_definition.steps.size()) {
        enterStep(job.instance, instance, now);
        return;
    }
    ++m_counters.instancesCompleted;
    m_instances.erase(it);
}

void JobModel::advance(double now)
{
    while (!m_deadlines.empty() && m_deadlines.top().at <= now) {
        const Deadline deadline = m_deadlines.top();
        m_deadlines.pop();
        const auto it = m_jobs.find(deadline.key);
        if (it == m_jobs.end() || it->second.activation != deadline.activation)
            continue; // completed, or yielded and activated again since
        // JobTimeOutProcessor: back to activatable, workers notified, nothing pushed.
        TypeCounters &counters = m_counters.types[it->second.type];
        ++counters.timedOut;
        --counters.activatedNow;
        makeActivatable(deadline.key, it->second);
    }
}

std::optional<double> JobModel::nextDeadline() const
{
    // Stale entries (completed jobs) only make the timer fire early once, never late.
    if (m_deadlines.empty())
        return std::nullopt;
    return m_deadlines.top().at;
}

std::set<QString> JobModel::takeNotifiedTypes()
{
    std::set<QString> types;
    types.swap(m_notified);
    return types;
}
