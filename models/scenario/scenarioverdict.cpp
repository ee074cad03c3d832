// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/scenarioverdict.h"

#include "base/format.h"

bool ScenarioVerdict::expectationsHeld() const
{
    for (const CheckLine &line : checks) {
        if (line.critical && !line.passed)
            return false;
    }
    return true;
}

int ScenarioVerdict::exitCode() const
{
    // A failed step is the bigger news: the run did not do what it meant to, so its checks say little.
    if (!stepsSucceeded)
        return kExitStepFailed;
    return expectationsHeld() ? kExitPassed : kExitExpectationFailed;
}

QString ScenarioVerdict::summary() const
{
    if (!stepsSucceeded)
        return stepsMessage;
    QStringList failed;
    for (const CheckLine &line : checks) {
        if (!line.critical || line.passed)
            continue;
        QStringList phases;
        for (const QString &phase : line.failedPhases)
            phases << (phase.isEmpty() ? QStringLiteral("before the first phase") : QStringLiteral("phase ") + phase);
        failed << (phases.isEmpty() ? line.name
                                    : QStringLiteral("%1 (%2)").arg(line.name, phases.join(QStringLiteral(", "))));
    }
    if (!failed.isEmpty())
        return QStringLiteral("%1 failed: %2")
            .arg(failed.size() == 1 ? QStringLiteral("expectation") : QStringLiteral("expectations"),
                 failed.join(QStringLiteral("; ")));
    if (checks.empty())
        return stepsMessage;
    return QStringLiteral("%1, %2 held")
        .arg(stepsMessage, Format::counted(qint64(checks.size()), QStringLiteral("check"), QStringLiteral("checks")));
}
