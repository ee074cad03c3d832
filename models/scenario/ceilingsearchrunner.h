// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario/ceilingsearch.h"
#include "scenario/ratesetter.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class AnnotationModel;
class LoadTesterController;
class PrometheusClient;

// Runs a ceiling search: it first waits, at the lowest stair, for a queue left from before to
// drain; then each stair sets the rate (quietly), lets it settle, samples the
// measures once a second, and is judged; a stair that failed is followed by a short recovery
// at a low rate, so the next one does not start on the last one's queue. Each stair is marked
// as a region with its evidence ("stair 250 /s FAILED: completed 81 % of sent · …"); the result
// is one annotation ("ceiling 200 /s, confirmed …", tag ceiling). The load is left at the
// ceiling found (or at the lowest stair).
class CeilingSearchRunner : public QObject
{
    Q_OBJECT
public:
    CeilingSearchRunner(LoadTesterController *controller, AnnotationModel *annotations, PrometheusClient *prometheus,
                        QObject *parent = nullptr);

    void start(const CeilingSearchPlan &plan);
    void stop();
    bool isRunning() const { return m_running; }
    const CeilingResult &result() const { return m_stairs.result(); }
    const CeilingSearchPlan &plan() const { return m_plan; }
    // Why the search stopped before it could decide (the load tester refused a stair); empty
    // when it ran to its end.
    const QString &abortReason() const { return m_abortReason; }
    QString rateUnit() const; // the load tester's: "/s", "users", "VUs"

signals:
    void stairFinished(const StairResult &stair);
    void finished(const CeilingResult &result);

private:
    void drain();
    void pollDrain();
    void nextStair();
    void startStair(const CeilingStairs::Next &next);
    void sample();
    void judge();
    void conclude();
    void abort(const QString &reason);

    LoadTesterController *m_controller;
    AnnotationModel *m_annotations;
    PrometheusClient *m_prometheus;
    RateSetter m_setter;
    CeilingSearchPlan m_plan;
    CeilingStairs m_stairs{CeilingSearchPlan{}};
    CeilingStairs::Next m_current;
    StairSamples m_samples;
    QElapsedTimer m_stairClock;
    QTimer m_sampleTimer;
    QTimer m_phaseTimer;
    QTimer m_drainPoll;
    qint64 m_drainStartMs = 0;
    int m_quietSamples = 0;
    qint64 m_stairStartMs = 0;
    int m_round = 0; // answers of an earlier stair or search are dropped
    QString m_abortReason;
    bool m_running = false;
};
