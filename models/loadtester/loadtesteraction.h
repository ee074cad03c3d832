// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "loadtester/adapters/loadtesterstatus.h"

#include <QString>
#include <QUrl>
#include <optional>
#include <vector>

// The value types of steering: what was asked of the load tester and how each replica
// answered. Kept apart from the controller so that sessions, scenarios and reports can use
// them without a QObject.

// A change the user (or a scenario) asks of the load tester.
struct LoadTesterAction
{
    enum class Kind
    {
        SetRate,
        SetInflightLimit,
        Pause,
        Resume
    };
    Kind kind = Kind::SetRate;
    double value = 0; // rate or limit; unused for pause/resume
    // false for one step of a ramp, stairs or a ceiling search: the shape marks itself as one
    // region, not a mark per step. A step that fails is still annotated, loudly.
    bool annotated = true;

    QString describe() const; // "set rate to 500", "remove the in-flight limit", "pause the load"
};

// How one replica answered an action.
struct ReplicaOutcome
{
    QUrl endpoint;
    QString instance;
    std::optional<LoadTesterStatus> before; // last status read before the change, if any
    std::optional<LoadTesterStatus> after;  // status read back after the change
    std::optional<Error> error;             // the call failed
    bool confirmed = false;                 // read back and equal to what was asked
    QString mismatch;                       // when answered but not as asked: what came back
};

// The outcome of one action over all replicas.
struct ActionReport
{
    LoadTesterAction action;
    qint64 requestedAtMs = 0;
    qint64 finishedAtMs = 0;
    std::vector<ReplicaOutcome> replicas;

    int confirmedCount() const;
    bool allConfirmed() const { return confirmedCount() == int(replicas.size()); }
    // Annotation text: "rate 300 → 500 /s (Chaoscope starter, 3/3 replicas)", or when any
    // replica did not confirm "rate → 500 /s failed on 1 of 3 replicas: <reason>".
    QString summary(const LoadTesterCapabilities &capabilities) const;
    // Why it did not take everywhere, for a step or a guard that reports it:
    // "1 of 2 replicas confirmed; connection refused". Empty when all confirmed.
    QString failureSummary() const;
};
