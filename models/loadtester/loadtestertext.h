// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// How load tester values are written in action summaries and annotations, so that "rate
// 300 → 500 /s" reads the same whoever writes it (ActionReport, LoadTesterWatch).
#include "loadtester/adapters/loadtesterstatus.h"

#include <vector>

namespace LoadTesterText {

QString number(double value);                        // "12.5", "500"
QString withUnit(double value, const QString &unit); // "500 /s", "12" without a unit
QString limit(double limit);                         // "unlimited" for 0, else the number
bool sameRate(double a, double b);                   // equal within 1e-9 relative

// What a load tester is left doing when Chaoscope quits, in one line: "Chaoscope starter
// left running: rate 400 /s, in-flight limit 20" ("… on 3 replicas: rate 100 /s each …",
// "left paused: …"). Empty without a status.
QString leftInState(const LoadTesterCapabilities &capabilities, const std::vector<LoadTesterStatus> &statuses);

} // namespace LoadTesterText
