// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

// The rules of the control panel that are worth testing without it: step buttons and when a
// change is big enough to ask "are you sure?" first.
namespace SteeringPolicy {

enum class Step
{
    Half,
    MinusTenPercent,
    PlusTenPercent,
    Double
};

// The value a step button proposes from the current one: a whole number (limits and users
// always, rates from 10 up: 165 + 10 % is 182, not 181.5), below 10 a rate keeps one
// decimal; never below 0; a step from 0 up starts at 1.
double stepped(double current, Step step, bool wholeNumbers);

// The in-flight limit a step button proposes: a whole number, never below 1, because 0 would
// mean "no limit" — the opposite of a step down. nullopt when the limit is unlimited (0):
// there is nothing to take a tenth of, the user types a number instead.
std::optional<int> steppedLimit(int current, Step step);

// Why a change needs confirmation, or nullopt when it does not: a change to 0 (stops the
// load), or by more than ×2 either way. `unlimitedIsZero` for in-flight limits, where 0
// means "no limit" rather than "nothing". The reason names the change it asks about:
// `what` ("rate") and `unit` (" /s", after each number): "rate 150 → 400 /s: more than twice
// the rate in force." A question that does not say which change it asks about is answered
// by reflex.
std::optional<QString> confirmationReason(const QString &what, double from, double to, bool unlimitedIsZero = false,
                                          const QString &unit = {});

} // namespace SteeringPolicy
