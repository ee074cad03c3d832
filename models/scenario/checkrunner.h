// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "prometheus/prometheustypes.h"
#include "scenario/scenario.h"
#include "scenario/scenarioverdict.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>
#include <optional>
#include <vector>

class AnnotationModel;
class ClusterController;
class LoadTesterController;
class PrometheusClient;
struct ActionReport;

// Judges a scenario's expectations and guards while it runs: one instant query per check each
// interval (a check whose last query has not answered is skipped, never queued), fed to its
// CheckTracker. A guard that trips is annotated with its reason and acts once, through the
// same controllers as the buttons; a guard that cannot act says so on the timelines.
class CheckRunner : public QObject
{
    Q_OBJECT
public:
    enum class GuardState
    {
        Armed,
        Acting,     // tripped; its action is in flight (or waits for another action to end)
        Acted,      // tripped and its action was confirmed
        CouldNotAct // tripped and the action was refused: loud in the dock and on the timelines
    };

    CheckRunner(LoadTesterController *controller, AnnotationModel *annotations, PrometheusClient *prometheus,
                QObject *parent = nullptr);

    void setCluster(ClusterController *cluster) { m_cluster = cluster; }
    // Where a check on a dashboard series ("series": "pending", a formula's too) reads its
    // value each round: the newest values of that series' store series, fresh ones only.
    // Unset, or nothing fresh: the round is a gap for it.
    using SeriesValues = std::function<std::vector<double>(const QString &seriesId)>;
    void setSeriesValues(SeriesValues source) { m_seriesValues = std::move(source); }
    void setIntervalMs(int ms) { m_poll.setInterval(ms); }

    void start(const Scenario &scenario); // the run's clock starts now
    void stop();                          // no more queries; the trackers keep their results
    bool isRunning() const { return m_poll.isActive(); }
    void setPhase(const QString &phase) { m_phase = phase; }
    QString phase() const { return m_phase; }

    const std::vector<CheckTracker> &expectations() const { return m_expectations; }
    const std::vector<CheckTracker> &guards() const { return m_guardTrackers; }
    GuardState guardState(int guard) const { return m_guardStates[std::size_t(guard)]; }
    QString guardMessage(int guard) const { return m_guardMessages[std::size_t(guard)]; }
    bool isGuardActing() const;
    // The verdict's lines: expectations first, then guards.
    std::vector<ScenarioVerdict::CheckLine> verdictLines() const;

signals:
    void evaluated(); // a round of answers arrived: the dock refreshes
    void guardTripped(int guard, const QString &reason);
    void guardFinished(int guard, bool acted, const QString &message);

private:
    void evaluate();
    void judge(CheckTracker &tracker, std::optional<double> value, int guard, qint64 atMs, const QString &phase);
    void trip(int guard);
    void act(int guard);
    void onActionFinished(const ActionReport &report);
    void finishGuard(int guard, bool acted, const QString &message);

    LoadTesterController *m_controller;
    AnnotationModel *m_annotations;
    PrometheusClient *m_prometheus;
    ClusterController *m_cluster = nullptr;
    SeriesValues m_seriesValues;
    Scenario m_scenario;
    QElapsedTimer m_clock;
    QTimer m_poll;
    QString m_phase;
    std::vector<CheckTracker> m_expectations;
    std::vector<CheckTracker> m_guardTrackers;
    std::vector<GuardState> m_guardStates;
    std::vector<QString> m_guardMessages;
    std::vector<bool> m_inFlight; // per check: expectations, then guards
    int m_awaitingActionOf = -1;  // the guard whose load tester action is in flight
    int m_round = 0;              // advanced by start(): answers of an earlier run are dropped
};
