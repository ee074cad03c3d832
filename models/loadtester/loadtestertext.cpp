// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtestertext.h"

#include "base/format.h"

#include <algorithm>
#include <cmath>

namespace LoadTesterText {

QString number(double value)
{
    return Format::number(value);
}

QString withUnit(double value, const QString &unit)
{
    return unit.isEmpty() ? number(value) : number(value) + QLatin1Char(' ') + unit;
}

QString limit(double limit)
{
    return limit == 0 ? QStringLiteral("unlimited") : number(limit);
}

bool sameRate(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

} // namespace LoadTesterText
