// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtesteraction.h"

#include "loadtester/loadtestertext.h"

#include <QStringList>
#include <algorithm>
#include <set>

namespace {

// "300", "250…300" when the replicas disagree, empty when none is known.
QString formatBefore(const ActionReport &report)
{
    std::set<double> values;
    for (const ReplicaOutcome &outcome : report.replicas) {
        if (!outcome.before)
            continue;
        if (report.action.kind == LoadTesterAction::Kind::SetRate)
            values.insert(outcome.before->rate);
        else if (outcome.before->inflightLimit)
            values.insert(*outcome.before->inflightLimit);
    }
    if (values.empty())
        return {};
    const bool isLimit = report.action.kind == LoadTesterAction::Kind::SetInflightLimit;
    auto format = [isLimit](double value) {
        return isLimit ? LoadTesterText::limit(value) : LoadTesterText::number(value);
    };
    if (values.size() == 1)
        return format(*values.begin());
    return format(*values.begin()) + QStringLiteral("…") + format(*values.rbegin());
}

} // namespace

QString LoadTesterAction::describe() const
{
    switch (kind) {
    case Kind::SetRate:
        return QStringLiteral("set rate to %1").arg(LoadTesterText::number(value));
    case Kind::SetInflightLimit:
        return value == 0 ? QStringLiteral("remove the in-flight limit")
                          : QStringLiteral("set in-flight limit to %1").arg(LoadTesterText::number(value));
    case Kind::Pause:
        return QStringLiteral("pause the load");
    case Kind::Resume:
        return QStringLiteral("resume the load");
    }
    return {};
}

int ActionReport::confirmedCount() const
{
    return int(std::count_if(replicas.begin(), replicas.end(),
                             [](const ReplicaOutcome &outcome) { return outcome.confirmed; }));
}

QString ActionReport::failureSummary() const
{
    if (allConfirmed())
        return {};
    QString reason;
    for (const ReplicaOutcome &outcome : replicas) {
        if (outcome.error)
            reason = outcome.error->message;
        else if (!outcome.confirmed)
            reason = QStringLiteral("read back %1").arg(outcome.mismatch);
    }
    return QStringLiteral("%1 of %2 replicas confirmed; %3").arg(confirmedCount()).arg(replicas.size()).arg(reason);
}

QString ActionReport::summary(const LoadTesterCapabilities &capabilities) const
{
    const int total = int(replicas.size());
    const int confirmed = confirmedCount();
    const bool failed = confirmed < total;
    const QString label = capabilities.rateLabel.isEmpty() ? QStringLiteral("rate") : capabilities.rateLabel;

    // The change, "rate 300 → 500 /s"; a failure leaves out where it came from.
    QString change;
    QString inAll; // ", 1500 /s in all" for a value set on several replicas
    switch (action.kind) {
    case LoadTesterAction::Kind::SetRate:
    case LoadTesterAction::Kind::SetInflightLimit: {
        const bool isRate = action.kind == LoadTesterAction::Kind::SetRate;
        const QString name = isRate ? label : QStringLiteral("in-flight limit");
        const QString before = failed ? QString() : formatBefore(*this);
        const QString after = isRate ? LoadTesterText::withUnit(action.value, capabilities.rateUnit)
                                     : LoadTesterText::limit(action.value);
        change = before.isEmpty() ? QStringLiteral("%1 → %2").arg(name, after)
                                  : QStringLiteral("%1 %2 → %3").arg(name, before, after);
        // Every replica gets the value; the chart's set-point line is their sum. Saying both
        // keeps "rate 100 → 200" from reading as a contradiction of a line that goes 300 → 600.
        if (total > 1 && !failed) {
            change += QStringLiteral(" each");
            if (action.value > 0)
                inAll = QStringLiteral(", %1 in all")
                            .arg(isRate ? LoadTesterText::withUnit(action.value * total, capabilities.rateUnit)
                                        : LoadTesterText::number(action.value * total));
        }
        break;
    }
    case LoadTesterAction::Kind::Pause:
        change = QStringLiteral("pause");
        break;
    case LoadTesterAction::Kind::Resume:
        change = QStringLiteral("resume");
        break;
    }

    if (!failed) {
        const QString kind = capabilities.kind.isEmpty() ? QString() : capabilities.kind + QStringLiteral(", ");
        return QStringLiteral("%1 (%2%3/%4 %5%6)")
            .arg(change, kind)
            .arg(confirmed)
            .arg(total)
            .arg(total == 1 ? QStringLiteral("replica") : QStringLiteral("replicas"), inAll);
    }

    // The same reason from several replicas is said once.
    QStringList reasons;
    for (const ReplicaOutcome &outcome : replicas) {
        if (outcome.confirmed)
            continue;
        const QString reason = outcome.error                ? outcome.error->message
                               : outcome.mismatch.isEmpty() ? QStringLiteral("not confirmed")
                                                            : outcome.mismatch;
        if (!reasons.contains(reason))
            reasons << reason;
    }
    return QStringLiteral("%1 failed on %2 of %3 %4: %5")
        .arg(change)
        .arg(total - confirmed)
        .arg(total)
        .arg(total == 1 ? QStringLiteral("replica") : QStringLiteral("replicas"))
        .arg(reasons.join(QStringLiteral("; ")));
}
