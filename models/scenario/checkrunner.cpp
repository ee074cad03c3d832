// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/checkrunner.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "base/whenfinished.h"
#include "kubernetes/clustercontroller.h"
#include "loadtester/loadtestercontroller.h"
#include "prometheus/prometheusclient.h"

#include <QDateTime>
#include <cmath>

namespace {

// A query may return several series ("pending per replica"): the check is as good as the worst.
std::optional<double> worstValue(const std::vector<double> &values, const CheckCondition &condition)
{
    std::optional<double> worst;
    for (const double value : values) {
        if (std::isfinite(value) && (!worst || condition.isWorse(value, *worst)))
            worst = value;
    }
    return worst;
}

std::vector<double> newestValues(const PromQueryResult &result)
{
    std::vector<double> values;
    for (const PromSeries &series : result.series) {
        if (!series.values.empty())
            values.push_back(series.values.back());
    }
    return values;
}

} // namespace

CheckRunner::CheckRunner(LoadTesterController *controller, AnnotationModel *annotations, PrometheusClient *prometheus,
                         QObject *parent)
    : QObject(parent), m_controller(controller), m_annotations(annotations), m_prometheus(prometheus)
{
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &CheckRunner::evaluate);
    connect(m_controller, &LoadTesterController::actionFinished, this, &CheckRunner::onActionFinished);
}

void CheckRunner::start(const Scenario &scenario)
{
    m_scenario = scenario;
    ++m_round;
    m_phase.clear();
    m_awaitingActionOf = -1;
    m_expectations.clear();
    m_guardTrackers.clear();
    for (const Check &check : scenario.expectations)
        m_expectations.emplace_back(check);
    for (const ScenarioGuard &guard : scenario.guards)
        m_guardTrackers.emplace_back(guard.check);
    m_guardStates.assign(scenario.guards.size(), GuardState::Armed);
    m_guardMessages.assign(scenario.guards.size(), QString());
    m_inFlight.assign(m_expectations.size() + m_guardTrackers.size(), false);
    m_clock.start();
    if (m_inFlight.empty())
        return;
    m_poll.start();
    evaluate();
}

void CheckRunner::stop()
{
    m_poll.stop();
}

bool CheckRunner::isGuardActing() const
{
    for (const GuardState state : m_guardStates) {
        if (state == GuardState::Acting)
            return true;
    }
    return false;
}

void CheckRunner::evaluate()
{
    const int expectations = int(m_expectations.size());
    for (int i = 0; i < int(m_inFlight.size()); ++i) {
        if (m_inFlight[std::size_t(i)])
            continue; // a slow Prometheus gets one query per check, not a queue of them
        const int guard = i < expectations ? -1 : i - expectations;
        CheckTracker &tracker = guard < 0 ? m_expectations[std::size_t(i)] : m_guardTrackers[std::size_t(guard)];
        if (tracker.check().query.isEmpty()) { // a dashboard series: read from the store, now
            judge(tracker,
                  worstValue(m_seriesValues ? m_seriesValues(tracker.check().series) : std::vector<double>{},
                             tracker.check().condition),
                  guard, m_clock.elapsed(), m_phase);
            emit evaluated();
            continue;
        }
        m_inFlight[std::size_t(i)] = true;
        const int round = m_round;
        // Judged in the phase and at the time it was asked: Prometheus evaluates it then.
        const qint64 askedAtMs = m_clock.elapsed();
        whenFinished(m_prometheus->instantQuery(tracker.check().query), this,
                     [this, i, guard, round, askedAtMs, phase = m_phase](const Result<PromQueryResult> &result) {
                         if (round != m_round)
                             return;
                         m_inFlight[std::size_t(i)] = false;
                         if (!m_poll.isActive())
                             return; // the run ended while the query was out
                         CheckTracker &judged =
                             guard < 0 ? m_expectations[std::size_t(i)] : m_guardTrackers[std::size_t(guard)];
                         // A failed query is a gap, not a failure: a Prometheus hiccup must not
                         // pause the load.
                         judge(judged,
                               result ? worstValue(newestValues(result.value()), judged.check().condition)
                                      : std::optional<double>(),
                               guard, askedAtMs, phase);
                         emit evaluated();
                     });
    }
}

void CheckRunner::judge(CheckTracker &tracker, std::optional<double> value, int guard, qint64 atMs,
                        const QString &phase)
{
    if (tracker.observe(atMs, value, phase) && guard >= 0)
        trip(guard);
}

void CheckRunner::trip(int guard)
{
    const ScenarioGuard &definition = m_scenario.guards[std::size_t(guard)];
    const QString reason = m_guardTrackers[std::size_t(guard)].failureReason();
    Annotation annotation;
    annotation.timeMs = QDateTime::currentMSecsSinceEpoch();
    annotation.text = QStringLiteral("guard: %1 → %2").arg(reason, definition.describeAction());
    annotation.tags = {QStringLiteral("guard")};
    annotation.source = Annotation::Source::Scenario;
    m_annotations->add(annotation);
    m_guardStates[std::size_t(guard)] = GuardState::Acting;
    m_guardMessages[std::size_t(guard)] = reason;
    emit guardTripped(guard, reason);
    act(guard);
}

void CheckRunner::act(int guard)
{
    const ScenarioGuard &definition = m_scenario.guards[std::size_t(guard)];
    if (!definition.action) {
        finishGuard(guard, true, QStringLiteral("stopped the scenario"));
        return;
    }
    const ScenarioStep &step = *definition.action;
    if (step.kind == ScenarioStep::Kind::ChangeWorkload) {
        if (!m_cluster) {
            finishGuard(guard, false, tr("no cluster to steer (start Chaoscope with --kubernetes or --kubeconfig)"));
            return;
        }
        const int round = m_round;
        whenFinished(m_cluster->change(step.change), this, [this, guard, round](const Result<QString> &outcome) {
            if (round == m_round)
                finishGuard(guard, outcome.ok(), outcome.ok() ? outcome.value() : outcome.error().message);
        });
        return;
    }
    if (m_controller->replicaCount() == 0) {
        finishGuard(guard, false, tr("no load tester to steer (start Chaoscope with --admin URL)"));
        return;
    }
    if (m_awaitingActionOf >= 0 || !m_controller->apply(step.loadTesterAction())) {
        // Another change is in flight (a step's, a button's): try again once it has answered.
        QTimer::singleShot(200, this, [this, guard, round = m_round] {
            if (round == m_round && m_guardStates[std::size_t(guard)] == GuardState::Acting)
                act(guard);
        });
        return;
    }
    m_awaitingActionOf = guard;
}

void CheckRunner::onActionFinished(const ActionReport &report)
{
    if (m_awaitingActionOf < 0)
        return; // a step's or a button's action
    const int guard = m_awaitingActionOf;
    m_awaitingActionOf = -1;
    finishGuard(guard, report.allConfirmed(), report.failureSummary());
}

void CheckRunner::finishGuard(int guard, bool acted, const QString &message)
{
    const ScenarioGuard &definition = m_scenario.guards[std::size_t(guard)];
    m_guardStates[std::size_t(guard)] = acted ? GuardState::Acted : GuardState::CouldNotAct;
    if (!acted) {
        // The worst case of a guard: it saw the run go bad and could not stop it. Said where
        // everyone looks, the timelines, as a failed mark.
        Annotation annotation;
        annotation.timeMs = QDateTime::currentMSecsSinceEpoch();
        annotation.text = QStringLiteral("guard %1 could not %2: %3")
                              .arg(definition.check.name, definition.describeAction(), message);
        annotation.tags = {QStringLiteral("guard")};
        annotation.source = Annotation::Source::Scenario;
        annotation.failed = true;
        m_annotations->add(annotation);
        m_guardMessages[std::size_t(guard)] = tr("could not act: %1").arg(message);
    } else {
        m_guardMessages[std::size_t(guard)] =
            QStringLiteral("%1 → %2").arg(m_guardMessages[std::size_t(guard)], definition.describeAction());
    }
    emit guardFinished(guard, acted, message);
}

std::vector<ScenarioVerdict::CheckLine> CheckRunner::verdictLines() const
{
    std::vector<ScenarioVerdict::CheckLine> lines;
    const auto lineOf = [](const CheckTracker &tracker, bool guard) {
        ScenarioVerdict::CheckLine line;
        line.name = tracker.check().name;
        line.expected = tracker.check().describe().mid(tracker.check().name.size() + 2); // without "name: "
        line.guard = guard;
        line.critical = tracker.check().severity == Check::Severity::Critical;
        line.passed = tracker.passed();
        line.outcome = tracker.outcome();
        for (const CheckTracker::PhaseResult &phase : tracker.phases()) {
            if (phase.failed)
                line.failedPhases << phase.phase;
            if (!phase.worst)
                continue;
            const QString held = phase.heldAfterMs
                                     ? QStringLiteral("held after %1").arg(Format::duration(*phase.heldAfterMs))
                                     : QStringLiteral("held");
            line.phaseOutcomes << QStringLiteral("%1: %2 · worst %3 at +%4")
                                      .arg(phase.phase.isEmpty() ? QStringLiteral("before the first phase")
                                                                 : phase.phase,
                                           phase.failed ? QStringLiteral("FAILED") : held,
                                           Format::value(*phase.worst, tracker.check().unit),
                                           Format::duration(phase.worstAtMs));
        }
        return line;
    };
    for (const CheckTracker &tracker : m_expectations)
        lines.push_back(lineOf(tracker, false));
    for (const CheckTracker &tracker : m_guardTrackers)
        lines.push_back(lineOf(tracker, true));
    return lines;
}
