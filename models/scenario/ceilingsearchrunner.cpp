// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/ceilingsearchrunner.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "base/whenfinished.h"
#include "loadtester/loadtestercontroller.h"
#include "prometheus/prometheusclient.h"

#include <QDateTime>
#include <cmath>

namespace {

enum class Combine
{
    Sum, // rates and counts of several series add up
    Max, // a latency is as bad as the worst series
};

std::optional<double> valueOf(const Result<PromQueryResult> &result, Combine combine)
{
    if (!result)
        return std::nullopt; // a gap, not a zero: a Prometheus hiccup must not fail a stair
    std::optional<double> value;
    for (const PromSeries &series : result->series) {
        if (series.values.empty() || !std::isfinite(series.values.back()))
            continue;
        const double v = series.values.back();
        value = !value ? v : combine == Combine::Sum ? *value + v : std::max(*value, v);
    }
    return value;
}

constexpr int kSampleIntervalMs = 1000;
constexpr double kQuietPending = 10;        // "drained": at most this many requests wait
constexpr int kQuietSamplesNeeded = 3;      // for this many samples in a row
constexpr qint64 kLongestDrainMs = 120'000; // then the search starts anyway

} // namespace

CeilingSearchRunner::CeilingSearchRunner(LoadTesterController *controller, AnnotationModel *annotations,
                                         PrometheusClient *prometheus, QObject *parent)
    : QObject(parent), m_controller(controller), m_annotations(annotations), m_prometheus(prometheus),
      m_setter(controller)
{
    m_sampleTimer.setInterval(kSampleIntervalMs);
    connect(&m_sampleTimer, &QTimer::timeout, this, &CeilingSearchRunner::sample);
    m_phaseTimer.setSingleShot(true);
    m_drainPoll.setInterval(kSampleIntervalMs);
    connect(&m_drainPoll, &QTimer::timeout, this, &CeilingSearchRunner::pollDrain);
}

QString CeilingSearchRunner::rateUnit() const
{
    return m_controller->capabilities().rateUnit;
}

void CeilingSearchRunner::start(const CeilingSearchPlan &plan)
{
    stop();
    m_plan = plan;
    m_stairs = CeilingStairs(plan);
    m_abortReason.clear();
    m_running = true;
    ++m_round;
    drain();
}

void CeilingSearchRunner::drain()
{
    // A search often starts on a system already overloaded (the run before it, a load left
    // on): the first stair must not be judged on that queue. At the lowest stair, it waits
    // until pending has been low for a few seconds — or long enough, and says so.
    if (m_plan.pendingQuery.isEmpty()) {
        nextStair();
        return;
    }
    m_drainStartMs = QDateTime::currentMSecsSinceEpoch();
    const int round = m_round;
    m_setter.set(m_plan.from, [this, round](bool ok, const QString &message) {
        if (round != m_round)
            return;
        if (!ok) {
            abort(tr("%1 could not be set: %2").arg(Format::value(m_plan.from, rateUnit()), message));
            return;
        }
        m_stairClock.start();
        m_quietSamples = 0;
        m_drainPoll.start();
    });
}

void CeilingSearchRunner::pollDrain()
{
    const int round = m_round;
    whenFinished(
        m_prometheus->instantQuery(m_plan.pendingQuery), this, [this, round](const Result<PromQueryResult> &result) {
            if (round != m_round || !m_drainPoll.isActive())
                return;
            const std::optional<double> pending = valueOf(result, Combine::Sum);
            m_quietSamples = pending && *pending <= kQuietPending ? m_quietSamples + 1 : 0;
            const bool timedOut = m_stairClock.elapsed() > kLongestDrainMs;
            if (m_quietSamples < kQuietSamplesNeeded && !timedOut)
                return;
            m_drainPoll.stop();
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            // Only worth a mark when there was something to wait for.
            if (timedOut || now - m_drainStartMs > qint64(2) * kSampleIntervalMs * kQuietSamplesNeeded) {
                Annotation wait;
                wait.timeMs = m_drainStartMs;
                wait.endMs = now;
                wait.text = timedOut
                                ? tr("pending still above %1 after %2 at %3: the search starts anyway")
                                      .arg(kQuietPending)
                                      .arg(Format::duration(kLongestDrainMs), Format::value(m_plan.from, rateUnit()))
                                : tr("wait for the queue to drain at %1").arg(Format::value(m_plan.from, rateUnit()));
                wait.tags = {QStringLiteral("ceiling")};
                wait.source = Annotation::Source::Scenario;
                m_annotations->add(wait);
            }
            nextStair();
        });
}

void CeilingSearchRunner::stop()
{
    if (!m_running)
        return;
    ++m_round;
    m_running = false;
    m_setter.cancel();
    m_sampleTimer.stop();
    m_drainPoll.stop();
    m_phaseTimer.stop();
    m_phaseTimer.disconnect(this);
}

void CeilingSearchRunner::nextStair()
{
    const CeilingStairs::Next next = m_stairs.next();
    if (next.done) {
        conclude();
        return;
    }
    if (!m_stairs.lastFailed()) {
        startStair(next);
        return;
    }
    // The stair that failed left queues behind it (the client's pool, the server's queue): a
    // short rest at a low rate drains them, so the next stair is judged on its own load.
    const double recoveryRate = std::min(m_plan.from, m_stairs.result().ceiling.value_or(m_plan.from) / 2);
    const qint64 startMs = QDateTime::currentMSecsSinceEpoch();
    const int round = m_round;
    m_setter.set(recoveryRate, [this, next, round, startMs, recoveryRate](bool ok, const QString &message) {
        if (round != m_round)
            return;
        if (!ok) {
            abort(tr("%1 could not be set: %2").arg(Format::value(recoveryRate, rateUnit()), message));
            return;
        }
        m_phaseTimer.disconnect(this);
        connect(&m_phaseTimer, &QTimer::timeout, this, [this, next, round, startMs, recoveryRate] {
            if (round != m_round)
                return;
            Annotation rest;
            rest.timeMs = startMs;
            rest.endMs = QDateTime::currentMSecsSinceEpoch();
            rest.text = tr("recover at %1").arg(Format::value(recoveryRate, rateUnit()));
            rest.tags = {QStringLiteral("ceiling")};
            rest.source = Annotation::Source::Scenario;
            m_annotations->add(rest);
            startStair(next);
        });
        m_phaseTimer.start(int(std::max<qint64>(m_plan.settleMs, 1000)));
    });
}

void CeilingSearchRunner::startStair(const CeilingStairs::Next &next)
{
    m_current = next;
    m_samples = {};
    m_stairStartMs = QDateTime::currentMSecsSinceEpoch();
    const int round = m_round;
    m_setter.set(next.rate, [this, round](bool ok, const QString &message) {
        if (round != m_round)
            return;
        if (!ok) {
            abort(tr("%1 could not be set: %2").arg(Format::value(m_current.rate, rateUnit()), message));
            return;
        }
        m_stairClock.start();
        m_sampleTimer.start();
    });
}

void CeilingSearchRunner::abort(const QString &reason)
{
    // The load tester refused a stair: the search cannot go on, and says why, loudly.
    Annotation failure;
    failure.timeMs = QDateTime::currentMSecsSinceEpoch();
    failure.text = tr("ceiling search stopped: %1").arg(reason);
    failure.tags = {QStringLiteral("ceiling")};
    failure.source = Annotation::Source::Scenario;
    failure.failed = true;
    m_annotations->add(failure);
    m_abortReason = reason;
    m_running = false;
    emit finished(m_stairs.result());
}

void CeilingSearchRunner::sample()
{
    if (m_stairClock.elapsed() >= m_plan.everyMs) {
        judge();
        return;
    }
    if (m_stairClock.elapsed() < m_plan.settleMs)
        return;
    const int round = m_round;
    const auto ask = [this, round](const QString &query, std::vector<double> *into, Combine combine) {
        if (query.isEmpty())
            return;
        whenFinished(m_prometheus->instantQuery(query), this,
                     [this, round, into, combine](const Result<PromQueryResult> &result) {
                         if (round != m_round || !m_sampleTimer.isActive())
                             return; // the stair was judged while this was out
                         if (const std::optional<double> value = valueOf(result, combine))
                             into->push_back(*value);
                     });
    };
    ask(m_plan.sentQuery, &m_samples.sent, Combine::Sum);
    ask(m_plan.completedQuery, &m_samples.completed, Combine::Sum);
    ask(m_plan.pendingQuery, &m_samples.pending, Combine::Sum);
    ask(m_plan.latencyQuery, &m_samples.latencySeconds, Combine::Max);
}

void CeilingSearchRunner::judge()
{
    m_sampleTimer.stop();
    ++m_round; // answers still out belong to this stair: they are too late to count
    StairResult stair = judgeStair(m_plan, m_current.rate, m_samples);
    stair.role = m_current.role;
    stair.startMs = m_stairStartMs;
    stair.endMs = QDateTime::currentMSecsSinceEpoch();
    Annotation region;
    region.timeMs = stair.startMs;
    region.endMs = stair.endMs;
    region.text = tr("stair %1").arg(stair.describe(rateUnit()));
    region.tags = {QStringLiteral("ceiling")};
    region.source = Annotation::Source::Scenario;
    region.failed = !stair.held;
    m_annotations->add(region);
    m_stairs.record(stair);
    emit stairFinished(stair);
    nextStair();
}

void CeilingSearchRunner::conclude()
{
    const auto finish = [this](std::optional<double> computed) {
        CeilingResult result = m_stairs.result();
        result.computed = computed;
        Annotation annotation;
        annotation.timeMs = QDateTime::currentMSecsSinceEpoch();
        annotation.text = tr("ceiling search: %1").arg(result.summary(rateUnit()));
        annotation.tags = {QStringLiteral("ceiling")};
        annotation.source = Annotation::Source::Scenario;
        annotation.failed = !result.found();
        m_annotations->add(annotation);
        m_running = false;
        emit finished(result);
    };
    const double leaveAt = m_stairs.result().ceiling.value_or(m_plan.from);
    const int round = m_round;
    m_setter.set(leaveAt, [this, round, finish](bool, const QString &) {
        if (round != m_round)
            return;
        if (m_plan.computedQuery.isEmpty()) {
            finish(std::nullopt);
            return;
        }
        whenFinished(m_prometheus->instantQuery(m_plan.computedQuery), this,
                     [this, round, finish](const Result<PromQueryResult> &result) {
                         if (round == m_round)
                             finish(valueOf(result, Combine::Sum));
                     });
    });
}
