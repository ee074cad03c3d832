// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// How a scenario went, in one value: whether its steps succeeded and how each expectation and
// guard fared. The exit code of a headless run, the dock's last line and the verdict
// annotation (so the session keeps it) all read it.
struct ScenarioVerdict
{
    struct CheckLine
    {
        QString name;
        bool guard = false;
        bool critical = true;
        bool passed = true;
        QString outcome;           // "held · worst 4.21k at +1 min 12 s", "FAILED at …"
        QStringList failedPhases;  // where it failed ("" is the time before the first phase)
        QStringList phaseOutcomes; // "overload: FAILED · worst 6.1k at +2 min" per phase judged
        QString expected = {};     // what must hold: "sum(http_client_pool_pending) < 5 for 10s"
    };

    bool stepsSucceeded = true;
    QString stepsMessage; // "all 5 steps succeeded", "step 3 (set rate to 500) failed: …"
    std::vector<CheckLine> checks;

    static constexpr int kExitPassed = 0;
    static constexpr int kExitStepFailed = 1;
    static constexpr int kExitExpectationFailed = 4; // the run completed, what was expected did not hold

    bool expectationsHeld() const;
    bool passed() const { return stepsSucceeded && expectationsHeld(); }
    int exitCode() const;
    // "all 5 steps succeeded, 2 checks held";
    // "expectation failed: pending growth (phase overload)"; "step 3 (…) failed: …".
    QString summary() const;

    // The verdict as the text of its annotation, so a recording keeps it: the summary, then a
    // line per check ("✓ expectation no timeouts: held · worst 0 · expected: x ≤ 0 for 10 s").
    QString toAnnotationText() const;
    // Read back from such a text; nullopt when it is not one.
    static std::optional<ScenarioVerdict> fromAnnotationText(const QString &text);
};
