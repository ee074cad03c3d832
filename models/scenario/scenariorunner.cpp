// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenariorunner.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "base/whenfinished.h"
#include "kubernetes/clustercontroller.h"
#include "loadtester/loadtestercontroller.h"
#include "prometheus/prometheusclient.h"

#include <QDateTime>

ScenarioRunner::ScenarioRunner(LoadTesterController *controller, AnnotationModel *annotations,
                               PrometheusClient *prometheus, QObject *parent)
    : QObject(parent), m_controller(controller), m_annotations(annotations), m_prometheus(prometheus),
      m_checks(controller, annotations, prometheus), m_shape(controller, annotations),
      m_ceiling(controller, annotations, prometheus)
{
    connect(&m_shape, &LoadShapePlayer::finished, this, &ScenarioRunner::finishStep);
    connect(&m_ceiling, &CeilingSearchRunner::finished, this, &ScenarioRunner::onCeilingFound);
    connect(&m_ceiling, &CeilingSearchRunner::stairFinished, this, &ScenarioRunner::ceilingStairFinished);
    m_hold.setSingleShot(true);
    connect(&m_hold, &QTimer::timeout, this, [this] { finishStep(true, QString()); });
    connect(&m_checks, &CheckRunner::guardTripped, this, &ScenarioRunner::onGuardTripped);
    connect(&m_checks, &CheckRunner::guardFinished, this, &ScenarioRunner::onGuardFinished);
    m_wait.setSingleShot(true);
    connect(&m_wait, &QTimer::timeout, this, &ScenarioRunner::runStep);
    m_conditionPoll.setInterval(1000);
    connect(&m_conditionPoll, &QTimer::timeout, this, &ScenarioRunner::pollCondition);
    // The rollout is known from the cluster's watches: looking costs nothing.
    m_rolloutPoll.setInterval(250);
    connect(&m_rolloutPoll, &QTimer::timeout, this, &ScenarioRunner::pollRollout);
    connect(m_controller, &LoadTesterController::actionFinished, this, &ScenarioRunner::onActionFinished);
}

void ScenarioRunner::start(const Scenario &scenario)
{
    m_scenario = scenario;
    m_index = 0;
    m_failures = 0;
    m_haltedByGuard = -1;
    m_verdict = {};
    m_running = true;
    m_clock.start();
    m_checks.start(scenario);
    emit started();
    scheduleStep();
}

void ScenarioRunner::stop()
{
    if (!m_running)
        return;
    halt();
    conclude(false, tr("stopped by the user at step %1").arg(m_index + 1));
}

void ScenarioRunner::halt()
{
    m_wait.stop();
    m_conditionPoll.stop();
    m_rolloutPoll.stop();
    m_hold.stop();
    m_shape.stop();
    m_ceiling.stop();
    m_running = false;
    m_stepActive = false;
    m_awaitingAction = false;
    m_awaitingScreenshot = false;
}

void ScenarioRunner::onGuardTripped(int guard)
{
    if (!m_running)
        return;
    const ScenarioGuard &tripped = m_scenario.guards[std::size_t(guard)];
    if (!tripped.stopsScenario) {
        // The steps go on, but not a step that steers the load by itself: a ramp's or a
        // search's next move would undo what the guard did. It ends there, cut short, not
        // failed: the guard's own verdict line says what went wrong.
        if (m_stepActive && (m_shape.isPlaying() || m_ceiling.isRunning())) {
            m_shape.stop();
            m_ceiling.stop();
            finishStep(true, tr("cut short by guard %1").arg(tripped.check.name));
        }
        return;
    }
    // No further step runs from now (the next one could raise the load again); the run ends
    // once the guard's own action has answered, so the verdict can say what it did.
    halt();
    m_haltedByGuard = guard;
}

void ScenarioRunner::onGuardFinished(int guard)
{
    if (guard != m_haltedByGuard)
        return;
    m_haltedByGuard = -1;
    conclude(m_failures == 0, tr("stopped by guard %1 at step %2 of %3")
                                  .arg(m_scenario.guards[std::size_t(guard)].check.name)
                                  .arg(m_index + 1)
                                  .arg(m_scenario.steps.size()));
}

void ScenarioRunner::conclude(bool stepsSucceeded, const QString &message)
{
    m_checks.stop();
    m_verdict = {};
    m_verdict.stepsSucceeded = stepsSucceeded;
    m_verdict.stepsMessage = message;
    m_verdict.checks = m_checks.verdictLines();
    if (!m_verdict.checks.empty()) {
        // On the timelines, so the session and every picture after it keep how the run went.
        Annotation annotation;
        annotation.timeMs = QDateTime::currentMSecsSinceEpoch();
        annotation.text = m_verdict.toAnnotationText(); // the summary, then a line per check
        annotation.tags = {QStringLiteral("verdict")};
        annotation.source = Annotation::Source::Scenario;
        annotation.failed = !m_verdict.passed();
        m_annotations->add(annotation);
    }
    emit finished(m_verdict.passed(), m_verdict.summary());
}

qint64 ScenarioRunner::msUntilCurrentStep() const
{
    if (!m_running || m_stepActive)
        return 0;
    return std::max<qint64>(0, m_stepDueMs - m_clock.elapsed());
}

void ScenarioRunner::scheduleStep()
{
    if (m_index >= int(m_scenario.steps.size())) {
        m_running = false;
        conclude(
            m_failures == 0,
            m_failures == 0
                ? tr("all %1 succeeded").arg(Format::counted(qint64(m_scenario.steps.size()), tr("step"), tr("steps")))
                : tr("%1 failed").arg(Format::counted(m_failures, tr("step"), tr("steps"))));
        return;
    }
    const ScenarioStep &step = m_scenario.steps[std::size_t(m_index)];
    m_stepDueMs = step.atMs ? *step.atMs : m_clock.elapsed() + step.afterMs;
    m_wait.start(int(std::max<qint64>(0, m_stepDueMs - m_clock.elapsed())));
}

void ScenarioRunner::runStep()
{
    if (!m_running)
        return;
    const ScenarioStep &step = m_scenario.steps[std::size_t(m_index)];
    m_stepActive = true;
    emit stepStarted(m_index);
    switch (step.kind) {
    case ScenarioStep::Kind::SetRate:
    case ScenarioStep::Kind::SetInflightLimit:
    case ScenarioStep::Kind::Pause:
    case ScenarioStep::Kind::Resume: {
        if (m_controller->replicaCount() == 0) {
            finishStep(false, tr("no load tester to steer (start Chaoscope with --admin URL)"));
            return;
        }
        m_awaitingAction = true;
        if (!m_controller->apply(step.loadTesterAction())) {
            m_awaitingAction = false;
            finishStep(false, tr("another change was still being applied"));
        }
        return;
    }
    case ScenarioStep::Kind::Annotate: {
        Annotation annotation;
        annotation.timeMs = QDateTime::currentMSecsSinceEpoch();
        annotation.text = step.text;
        annotation.tags = step.tags;
        annotation.source = Annotation::Source::Scenario;
        m_annotations->add(annotation);
        m_checks.setPhase(step.text); // an annotate step opens the phase checks may name
        finishStep(true, QString());
        return;
    }
    case ScenarioStep::Kind::WaitFor:
        m_conditionDeadlineMs = m_clock.elapsed() + step.timeoutMs;
        m_lastConditionError.clear();
        m_conditionPoll.start();
        pollCondition();
        return;
    case ScenarioStep::Kind::Screenshot:
        m_awaitingScreenshot = true;
        emit screenshotRequested(step.text);
        return;
    case ScenarioStep::Kind::ChangeWorkload:
        changeWorkload(step);
        return;
    case ScenarioStep::Kind::Shape:
    case ScenarioStep::Kind::FindCeiling:
        if (m_controller->replicaCount() == 0) {
            finishStep(false, tr("no load tester to steer (start Chaoscope with --admin URL)"));
            return;
        }
        if (step.kind == ScenarioStep::Kind::Shape)
            m_shape.start(step.shape);
        else
            m_ceiling.start(step.ceiling);
        return;
    case ScenarioStep::Kind::Hold: {
        Annotation region;
        region.timeMs = QDateTime::currentMSecsSinceEpoch();
        region.endMs = region.timeMs + step.holdMs;
        region.text = tr("hold for %1").arg(Format::compactDuration(step.holdMs));
        region.tags = {QStringLiteral("hold")};
        region.source = Annotation::Source::Scenario;
        m_annotations->add(region);
        m_hold.start(int(step.holdMs));
        return;
    }
    case ScenarioStep::Kind::WaitForRollout:
        if (!m_cluster) {
            finishStep(false, tr("no cluster to wait for (start Chaoscope with --kubernetes or --kubeconfig)"));
            return;
        }
        m_conditionDeadlineMs = m_clock.elapsed() + step.timeoutMs;
        m_rolloutPoll.start();
        pollRollout();
        return;
    }
}

void ScenarioRunner::changeWorkload(const ScenarioStep &step)
{
    if (!m_cluster) {
        finishStep(false, tr("no cluster to steer (start Chaoscope with --kubernetes or --kubeconfig)"));
        return;
    }
    WorkloadChange change = step.change;
    if (change.kind == WorkloadChange::Kind::Restart)
        change.restartedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    const int index = m_index;
    // The controller annotates the change and its rollout, as for the dock's buttons.
    whenFinished(m_cluster->change(change), this, [this, index](const Result<QString> &outcome) {
        if (!m_running || index != m_index)
            return;
        finishStep(outcome.ok(), outcome.ok() ? outcome.value() : outcome.error().message);
    });
}

void ScenarioRunner::pollRollout()
{
    if (!m_running || !m_cluster) {
        m_rolloutPoll.stop();
        return;
    }
    const ScenarioStep &step = m_scenario.steps[std::size_t(m_index)];
    const Result<bool> state = m_cluster->rolloutState(step.text);
    if (state.ok()) {
        m_rolloutPoll.stop();
        finishStep(true, QString());
        return;
    }
    if (m_clock.elapsed() > m_conditionDeadlineMs) {
        m_rolloutPoll.stop();
        finishStep(
            false,
            tr("not rolled out within %1: %2").arg(Format::compactDuration(step.timeoutMs), state.error().message));
    }
}

void ScenarioRunner::onActionFinished(const ActionReport &report)
{
    if (!m_awaitingAction)
        return; // a button press, not ours
    m_awaitingAction = false;
    finishStep(report.allConfirmed(), report.failureSummary());
}

void ScenarioRunner::pollCondition()
{
    if (m_conditionQueryInFlight)
        return;
    const ScenarioStep &step = m_scenario.steps[std::size_t(m_index)];
    if (m_clock.elapsed() > m_conditionDeadlineMs) {
        m_conditionPoll.stop();
        finishStep(false, m_lastConditionError.isEmpty()
                              ? tr("not met within the timeout")
                              : tr("not met within the timeout; last error: %1").arg(m_lastConditionError));
        return;
    }
    m_conditionQueryInFlight = true;
    const int index = m_index;
    // The condition is plain PromQL with a comparison ("pending > 1000"): it holds when the
    // query returns a sample, since a PromQL comparison filters out what does not match.
    whenFinished(m_prometheus->instantQuery(step.text), this, [this, index](const Result<PromQueryResult> &result) {
        m_conditionQueryInFlight = false;
        if (!m_running || index != m_index || !m_conditionPoll.isActive())
            return;
        if (!result) {
            m_lastConditionError = result.error().message;
            return;
        }
        for (const PromSeries &series : result->series) {
            if (!series.values.empty()) {
                m_conditionPoll.stop();
                finishStep(true, QString());
                return;
            }
        }
    });
}

void ScenarioRunner::onCeilingFound(const CeilingResult &result)
{
    if (!m_running)
        return;
    const ScenarioStep &step = m_scenario.steps[std::size_t(m_index)];
    emit ceilingFound(result, step.ceiling);
    const QString unit = m_controller->capabilities().rateUnit;
    if (!m_ceiling.abortReason().isEmpty())
        finishStep(false, tr("the search stopped: %1").arg(m_ceiling.abortReason()));
    else
        finishStep(result.found(), result.summary(unit));
}

void ScenarioRunner::screenshotTaken(bool ok, const QString &message)
{
    if (!m_awaitingScreenshot)
        return;
    m_awaitingScreenshot = false;
    finishStep(ok, message);
}

void ScenarioRunner::finishStep(bool ok, const QString &message)
{
    if (!m_running)
        return;
    const ScenarioStep &step = m_scenario.steps[std::size_t(m_index)];
    m_stepActive = false;
    emit stepFinished(m_index, ok, message);
    if (!ok) {
        ++m_failures;
        if (!step.continueOnError) {
            m_running = false;
            conclude(false, tr("step %1 (%2) failed: %3").arg(m_index + 1).arg(step.describe(), message));
            return;
        }
    }
    ++m_index;
    scheduleStep();
}
