// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/steeringpolicy.h"

#include <cmath>

namespace SteeringPolicy {

double stepped(double current, Step step, bool wholeNumbers)
{
    double next = current;
    switch (step) {
    case Step::Half:
        next = current / 2;
        break;
    case Step::MinusTenPercent:
        next = current * 0.9;
        break;
    case Step::PlusTenPercent:
        next = current * 1.1;
        break;
    case Step::Double:
        next = current * 2;
        break;
    }
    if (current <= 0 && (step == Step::PlusTenPercent || step == Step::Double))
        next = 1;
    // 50 × 1.1 is 55.000000000000007 in binary: tidy to a millionth before rounding, or the
    // ceiling below would make +10 % of 50 a 56.
    next = std::max(0.0, std::round(next * 1e6) / 1e6);
    // A rate of tens or more is set and read as a whole number, as people type it.
    if (wholeNumbers || std::max(current, next) >= 10) {
        // Round away from the current value so that a step always changes something.
        const double rounded = next > current ? std::ceil(next) : std::floor(next);
        return std::max(0.0, rounded);
    }
    return std::round(next * 10) / 10;
}

std::optional<int> steppedLimit(int current, Step step)
{
    if (current <= 0)
        return std::nullopt;
    return std::max(1, int(stepped(current, step, true)));
}

std::optional<QString> confirmationReason(const QString &what, double from, double to, bool unlimitedIsZero,
                                          const QString &unit)
{
    const auto value = [&](double v) {
        return unlimitedIsZero && v == 0 ? QStringLiteral("unlimited") : QString::number(v, 'g', 6) + unit;
    };
    const QString change = QStringLiteral("%1 %2 → %3").arg(what, value(from), value(to));
    if (unlimitedIsZero) {
        if (to == 0 && from != 0)
            return change + QStringLiteral(": this removes the limit, and the load tester may queue without bound.");
        if (from == 0)
            return std::nullopt; // from unlimited to a limit is never a surprise
    } else if (to == 0 && from != 0) {
        return change + QStringLiteral(": this stops the load.");
    }
    if (from > 0 && to > 0 && to > from * 2)
        return change + QStringLiteral(": more than twice the %1 in force.").arg(what);
    if (from > 0 && to > 0 && to < from / 2)
        return change + QStringLiteral(": less than half the %1 in force.").arg(what);
    return std::nullopt;
}

} // namespace SteeringPolicy
