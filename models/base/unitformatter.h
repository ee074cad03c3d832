// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Formats a value for axes, legends and read-outs in the panel's unit: "1.25k ops/s",
// "12.3 ms", "1.5 GiB", "42 %". Non-finite values read "NaN", "+Inf", "-Inf"; a missing one "–".
namespace UnitFormatter {
QString format(double value, const QString &unit, int significantDigits = 3);
}
