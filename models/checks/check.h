// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// What a run is expected to hold: "pending < 5,000", "timeouts/s ≤ 0.05". The condition says
// what is good, as a k6 threshold does; the check fails when it is broken without a break for
// longer than its `for` duration.
struct CheckCondition
{
    enum class Op
    {
        Below,   // <
        AtMost,  // <=
        Above,   // >
        AtLeast, // >=
    };

    Op op = Op::Below;
    double threshold = 0;

    bool holds(double value) const;
    // Whether `a` is further from holding than `b` ("worst value" of a phase): the largest
    // value for an upper bound, the smallest for a lower bound.
    bool isWorse(double a, double b) const;
    QString symbol() const;                      // "<", "≤", ">", "≥"
    QString brokenSymbol() const;                // the opposite, for a failure: "≥" for "<"
    QString describe(const QString &unit) const; // "< 5k"

    // "< 5000", "<=0.05", "> 180", "≥ 1e3"; nothing when it is not one of those.
    static std::optional<CheckCondition> parse(const QString &text);
};

// A steady-state check: a PromQL query (a query that returns several series is judged by its
// worst one) or a dashboard series, the condition its value must hold, for how long a break is tolerated, and the
// phases it applies in.
struct Check
{
    enum class Severity
    {
        Warning,  // reported, does not fail the verdict
        Critical, // fails the verdict
    };

    QString name;   // "pending growth": the verdict names it
    QString query;  // PromQL
    QString series; // or: the id of a dashboard series (a derived one too), judged from its samples
    CheckCondition condition;
    qint64 forMs = 0;
    Severity severity = Severity::Critical;
    QString unit;       // how its values read ("ms", "ops/s"); empty for plain numbers
    QStringList during; // phases (the texts of the scenario's annotate steps); empty: the whole run
    qint64 graceMs = 0; // not judged in the first graceMs of the run (warm-up)
    // Not judged in the first settleMs of each phase: after a change, what was queued drains or
    // fills (timeouts went on for ~11 s after an in-flight limit that fixed them). The verdict
    // says when it held ("held after 11 s").
    qint64 settleMs = 0;

    bool appliesIn(const QString &phase) const;
    const QString &subject() const { return query.isEmpty() ? series : query; } // what is judged
    // "pending growth: sum(http_client_pool_pending) < 5k for 10s"
    QString describe() const;
    static QString severityName(Severity severity);
};

// Judges one check sample by sample. Pure: the runner reads Prometheus and the clock, this
// only decides, so every edge (a break shorter than `for`, a gap in the data, a phase the
// check does not apply in) is tested without a server.
class CheckTracker
{
public:
    struct PhaseResult
    {
        QString phase;
        int samples = 0;
        std::optional<double> worst;
        qint64 worstAtMs = 0;
        bool failed = false;
        // Broken while the phase settled and holding since: how long after the phase began.
        std::optional<qint64> heldAfterMs;
    };

    explicit CheckTracker(Check check);

    // One evaluation at `timeMs` (ms since the run started) in `phase` ("" before the first
    // named one). `value` is nullopt when the query returned no sample: a gap neither holds
    // nor breaks, and it ends a break (as a Prometheus alert's pending state). Returns true
    // exactly once: on the sample that makes the check fail.
    bool observe(qint64 timeMs, std::optional<double> value, const QString &phase);

    const Check &check() const { return m_check; }
    bool failed() const { return m_failedAtMs.has_value(); }
    std::optional<qint64> failedAtMs() const { return m_failedAtMs; }
    double failedValue() const { return m_failedValue; }
    qint64 brokenSinceMs() const { return m_brokenSinceMs.value_or(-1); }
    bool isBroken() const { return m_brokenSinceMs.has_value(); }
    int samples() const { return m_samples; }
    std::optional<double> worst() const { return m_worst; }
    qint64 worstAtMs() const { return m_worstAtMs; }
    std::optional<double> last() const { return m_last; }
    const std::vector<PhaseResult> &phases() const { return m_phases; }

    // Whether the check passed the run: held (with at least one sample) or was not critical.
    bool passed() const;
    // For the dock, the log and the verdict: "held · worst 4.21k at +1 min 12 s",
    // "FAILED at +1 min 20 s: 5.21k ≥ 5k for 10 s", "no samples: the query returned nothing".
    QString outcome() const;
    // "pending 5.21k ≥ 5k for 10 s": the reason a guard gives when it acts.
    QString failureReason() const;

private:
    PhaseResult &phaseResult(const QString &phase);

    Check m_check;
    std::optional<qint64> m_brokenSinceMs;
    std::optional<qint64> m_failedAtMs;
    double m_failedValue = 0;
    int m_samples = 0;
    std::optional<double> m_worst;
    qint64 m_worstAtMs = 0;
    std::optional<double> m_last;
    std::vector<PhaseResult> m_phases;
    // The phase being observed, since when, and while it settles: whether it broke, since when
    // it holds.
    std::optional<QString> m_phase;
    qint64 m_phaseStartMs = 0;
    bool m_brokeWhileSettling = false;
    std::optional<qint64> m_holdingSinceMs;
};
