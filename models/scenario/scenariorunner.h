// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/ceilingsearchrunner.h"
#include "scenario/checkrunner.h"
#include "scenario/loadshapeplayer.h"
#include "scenario/scenario.h"
#include "scenario/scenarioverdict.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class AnnotationModel;
class ClusterController;
class LoadTesterController;
class PrometheusClient;
struct ActionReport;

// Plays a scenario: waits for each step's time, applies it through the load tester
// controller (so it fans out and annotates itself like a button press), adds annotations,
// plays ramps and stairs, holds, searches the ceiling, waits for PromQL conditions, changes Kubernetes workloads
// through the cluster controller (read back, annotated) and waits for their rollouts, and asks the view for
// screenshots. A failed step stops the run unless it is marked continueOnError. Its expectations and guards are judged
// alongside by a CheckRunner; the run ends with a verdict.
class ScenarioRunner : public QObject
{
    Q_OBJECT
public:
    ScenarioRunner(LoadTesterController *controller, AnnotationModel *annotations, PrometheusClient *prometheus,
                   QObject *parent = nullptr);

    // The cluster the Kubernetes steps act on; without one they fail and say how to get one.
    void setCluster(ClusterController *cluster)
    {
        m_cluster = cluster;
        m_checks.setCluster(cluster);
    }
    void start(const Scenario &scenario);
    void stop(); // by the user: finishes with failure "stopped"
    bool isRunning() const { return m_running; }
    const Scenario &scenario() const { return m_scenario; }
    int currentStep() const { return m_index; }
    // Time until the current step starts (0 while it runs), for the countdown.
    qint64 msUntilCurrentStep() const;
    int failedSteps() const { return m_failures; }
    const CheckRunner &checks() const { return m_checks; }
    CheckRunner &checks() { return m_checks; }
    // Set when finished() is emitted.
    const ScenarioVerdict &verdict() const { return m_verdict; }
    const CeilingSearchRunner &ceilingSearch() const { return m_ceiling; }

    // The view answers screenshotRequested() with this.
    void screenshotTaken(bool ok, const QString &message);

signals:
    void started(); // a scenario (or a search from the dock) begins: its steps are known
    void stepStarted(int index);
    void stepFinished(int index, bool ok, const QString &message);
    void screenshotRequested(const QString &path);
    // A findCeiling step has its answer; the view draws the capacity curve (and headless writes
    // it to the plan's picture) before the next step runs.
    void ceilingFound(const CeilingResult &result, const CeilingSearchPlan &plan);
    void ceilingStairFinished(const StairResult &stair);
    // ok: the verdict passed; message: its summary.
    void finished(bool ok, const QString &message);

private:
    void scheduleStep();
    void runStep();
    void finishStep(bool ok, const QString &message);
    void onActionFinished(const ActionReport &report);
    void pollCondition();
    void changeWorkload(const ScenarioStep &step);
    void pollRollout();
    void onGuardTripped(int guard);
    void onGuardFinished(int guard);
    void halt();
    void onCeilingFound(const CeilingResult &result);
    void conclude(bool stepsSucceeded, const QString &message);

    LoadTesterController *m_controller;
    AnnotationModel *m_annotations;
    PrometheusClient *m_prometheus;
    ClusterController *m_cluster = nullptr;
    CheckRunner m_checks;
    LoadShapePlayer m_shape;
    CeilingSearchRunner m_ceiling;
    ScenarioVerdict m_verdict;
    Scenario m_scenario;
    QElapsedTimer m_clock;
    QTimer m_wait;
    QTimer m_conditionPoll;
    QTimer m_rolloutPoll;
    QTimer m_hold;
    qint64 m_stepDueMs = 0;
    qint64 m_conditionDeadlineMs = 0;
    QString m_lastConditionError;
    int m_index = -1;
    int m_failures = 0;
    int m_haltedByGuard = -1; // a guard that stopped the steps; the run ends once it has acted
    bool m_running = false;
    bool m_stepActive = false;
    bool m_awaitingAction = false;
    bool m_awaitingScreenshot = false;
    bool m_conditionQueryInFlight = false;
};
