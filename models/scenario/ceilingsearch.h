// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <optional>
#include <vector>

// "What is the ceiling?" answered by measurement: the rate is raised in stairs while the
// system keeps up, the first stair where it does not is bracketed from below, the last good
// stair is confirmed, and each stair's evidence is kept for the capacity curve. Value types and
// the pure decisions; CeilingSearchRunner drives the load tester and asks Prometheus.

// {"findCeiling": {"from": 50, "step": 50, "until": 2000, "every": "30s", "settle": "10s",
//   "tolerance": 0.05, "latencyBelow": "500ms", "resolution": 0.05, "picture": "capacity.png",
//   "sent": "…", "completed": "…", "pending": "…", "latency": "…", "computed": "…"}}
struct CeilingSearchPlan
{
    double from = 50;
    double step = 50;
    double until = 2000;
    qint64 everyMs = 30'000;  // each stair, settling included
    qint64 settleMs = 10'000; // the first part of a stair is not judged: queues fill or drain
    double tolerance = 0.05;  // completed/s within 5 % of sent/s, sent/s within 5 % of the rate
    std::optional<double> latencyBelowSeconds;
    // Between the last stair that held and the first that did not, the search goes on halving
    // until the gap is at most this share of the good one.
    double resolution = 0.05;
    QString picture = QStringLiteral("capacity-curve.png"); // headless: written to --output-dir

    // What is measured, PromQL; the defaults are the Chaoscope starter's own metrics.
    QString sentQuery = QStringLiteral("sum(rate(starter_requests_sent_total[5s]))");
    QString completedQuery = QStringLiteral("sum(rate(starter_requests_received_total{outcome=\"success\"}[5s]))");
    QString pendingQuery = QStringLiteral("sum(http_client_pool_pending)");
    QString latencyQuery = QStringLiteral(
        "histogram_quantile(0.99, sum by (le) (rate(http_client_request_seconds_bucket{status!=\"599\"}[5s])))");
    // A ceiling the dashboard computes (its pool_ceiling, worker_ceiling), drawn next to the
    // measured one; empty for none.
    QString computedQuery;

    QString describe() const; // "find the ceiling from 50 /s in steps of 50 (every 30s)"
    QString problem() const;  // in words, or empty
};

// What one stair saw once it had settled: means over its judged part, pending's change.
struct StairSamples
{
    std::vector<double> sent;
    std::vector<double> completed;
    std::vector<double> latencySeconds;
    std::vector<double> pending;
};

struct StairResult
{
    enum class Role
    {
        Climb,   // the next stair up
        Refine,  // between the last good and the first bad
        Confirm, // the last good one again, after the search
    };

    Role role = Role::Climb;
    double rate = 0;
    qint64 startMs = 0; // UTC ms, the stair's whole time, settling included
    qint64 endMs = 0;
    std::optional<double> sent;      // mean /s
    std::optional<double> completed; // mean /s
    std::optional<double> latencySeconds;
    std::optional<double> pendingGrowth; // last − first
    bool held = false;
    QString reason; // why it did not hold: "completed 81 % of sent", "pending grew by 980"

    // "250 /s FAILED: completed 81 % of sent · completed 203 /s (81 %) · p99 2 s · pending +980",
    // "200 /s (confirm) held · completed 200 /s (100 %) · p99 25 ms · pending +0"
    QString describe(const QString &rateUnit) const;
};

// Judges one stair: it holds when every measure was seen, the load tester sent what was asked
// (within the tolerance), completed/s follows sent/s, pending did not grow by more than the
// tolerance of a second's load per judged 10 s, and the latency is below the limit when given.
StairResult judgeStair(const CeilingSearchPlan &plan, double rate, const StairSamples &samples);

struct CeilingResult
{
    std::vector<StairResult> stairs; // in the order they ran
    std::optional<double> ceiling;   // the highest rate that held (and was confirmed, if so)
    bool confirmed = false;
    bool reachedUntil = false;           // every stair held: the ceiling is above "until"
    std::optional<double> bestCompleted; // the most completed/s any stair saw
    std::optional<double> computed;      // the dashboard's own ceiling, when asked for

    bool found() const { return ceiling.has_value(); }
    // "ceiling 200 /s, confirmed; the system completed at most 203 /s (computed: 200 /s)",
    // "no stair held: 50 /s already failed (completed 40 % of sent)",
    // "at least 2000 /s: every stair up to \"until\" held".
    QString summary(const QString &rateUnit) const;
};

// The search's decisions, apart from time and the network: which rate comes next, and what
// has been found.
class CeilingStairs
{
public:
    explicit CeilingStairs(const CeilingSearchPlan &plan) : m_plan(plan) {}

    struct Next
    {
        bool done = false;
        double rate = 0;
        StairResult::Role role = StairResult::Role::Climb;
    };
    Next next() const;
    void record(const StairResult &stair);
    bool lastFailed() const { return !m_result.stairs.empty() && !m_result.stairs.back().held; }
    const CeilingResult &result() const { return m_result; }

private:
    CeilingSearchPlan m_plan;
    CeilingResult m_result;
    std::optional<double> m_lastGood;
    std::optional<double> m_firstBad;
    int m_failedConfirms = 0;
};
