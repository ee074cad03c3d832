// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "checks/check.h"
#include "dashboard/dashboarddefinition.h"
#include "kubernetes/workloadchange.h"
#include "loadtester/loadtesteraction.h"
#include "scenario/ceilingsearch.h"
#include "scenario/loadshape.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>
#include <vector>

// A timed script of actions: "at +2m set rate 500; at +12m set limit 5000; at +20m take a
// screenshot". Runs in the app and headless.
//
// File format:
// {
//   "title": "seed 000: starter collapse and the in-flight fix",
//   "steps": [
//     {"at": "+30s", "setRate": 40},
//     {"at": "+1m", "screenshot": "below-ceiling.png"},
//     {"setInflightLimit": 20},                       // no "at": right after the previous step
//     {"after": "10s", "annotate": "limit in place", "tags": ["fix"]},
//     {"waitFor": "sum(http_client_pool_pending) > 100", "timeout": "2m"},
//     {"pause": true}, {"resume": true},
//     {"at": "+4m", "screenshot": "recovered.png", "continueOnError": true},
//     // Kubernetes (with --kubernetes / --kubeconfig): each read back like a button press
//     {"scale": {"workload": "worker", "replicas": 0}},
//     {"setResources": {"workload": "starter", "limits": {"cpu": "500m"}, "requests": {"memory": "256Mi"}}},
//     {"setEnv": {"workload": "starter", "env": {"RATE": "40"}}},   // "container" names one of several
//     {"restart": "starter"},                                       // as kubectl rollout restart
//     {"waitForRollout": "starter", "timeout": "2m"},
//     // Load shapes, each marked as regions, not a mark per move (see LoadShape):
//     {"ramp": {"from": 100, "to": 500, "over": "2m"}},
//     {"stairs": {"from": 100, "step": 50, "every": "1m", "until": 500}},
//     {"hold": "5m"},                                               // keep the load as it is
//     {"findCeiling": {"from": 50, "step": 50, "every": "30s"}}     // see CeilingSearchPlan
//   ],
//   "expect": [{"name": "pending growth", "query": "sum(http_client_pool_pending)", "holds": "< 5000",
//               "for": "10s", "during": ["limit in place"], "severity": "critical", "unit": "", "after": "30s"}],
//   "guards": [{"name": "pending cap", "query": "…", "holds": "< 8000", "then": {"pause": true}}]
// }
// "at" is measured from the scenario's start, "after" from the end of the previous step.
struct ScenarioStep
{
    enum class Kind
    {
        SetRate,
        SetInflightLimit,
        Pause,
        Resume,
        Annotate,
        WaitFor,
        Screenshot,
        ChangeWorkload, // scale, setResources, setEnv, restart
        WaitForRollout,
        Shape, // ramp, stairs
        Hold,
        FindCeiling,
    };

    Kind kind = Kind::Annotate;
    std::optional<qint64> atMs; // offset from the start
    qint64 afterMs = 0;         // delay after the previous step (when no "at")
    double value = 0;           // rate or limit
    QString text;               // annotation text, PromQL condition, screenshot file, or workload
    WorkloadChange change;      // ChangeWorkload (a restart's time stamp is set when it runs)
    QStringList tags;
    qint64 timeoutMs = 5 * 60'000LL; // waitFor, waitForRollout
    qint64 holdMs = 0;
    LoadShape shape;
    CeilingSearchPlan ceiling;
    bool continueOnError = false;

    QString describe() const; // "set rate to 500", "wait for pending > 1000 (at most 5m)"
    // The load tester action of a SetRate, SetInflightLimit, Pause or Resume step.
    LoadTesterAction loadTesterAction() const;
};

// A check with an action: when it fails, the guard acts once (pauses the load, sets the rate or
// the in-flight limit, scales a workload), says why on the timelines, and stops the scenario
// unless told to go on. A critical guard that trips fails the verdict, as an expectation.
struct ScenarioGuard
{
    Check check;
    std::optional<ScenarioStep> action; // nullopt: {"stop": true}, only stops the scenario
    bool stopsScenario = true;          // "continueScenario": true keeps the steps going

    QString describeAction() const; // "pause", "set rate to 50", "stop the scenario"
};

struct Scenario
{
    QString title;
    std::vector<ScenarioStep> steps;
    std::vector<Check> expectations; // "expect": judged over the run, they make the verdict
    std::vector<ScenarioGuard> guards;

    // The phases checks may name in "during": the texts of the annotate steps, in order.
    QStringList phaseNames() const;
};

namespace ScenarioLoader {

struct LoadResult
{
    Scenario scenario;
    QList<DashboardIssue> issues; // same located form as dashboards: steps[3].at: …
    bool usable = false;          // a scenario with any error is not run: its timing matters
};

LoadResult fromJson(const QByteArray &json);
LoadResult load(const QString &nameOrPath); // built-in (":/scenarios/<name>.json") or file
QStringList builtinNames();

} // namespace ScenarioLoader
