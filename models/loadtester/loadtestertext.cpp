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

QString leftInState(const LoadTesterCapabilities &capabilities, const std::vector<LoadTesterStatus> &statuses)
{
    if (statuses.empty())
        return {};
    const LoadTesterStatus &first = statuses.front();
    const bool allPaused = std::all_of(statuses.begin(), statuses.end(), [](const auto &s) { return s.paused; });
    const bool allSame = std::all_of(statuses.begin(), statuses.end(), [&](const LoadTesterStatus &s) {
        return sameRate(s.rate, first.rate) && s.inflightLimit == first.inflightLimit;
    });
    QString text = QStringLiteral("%1 left %2")
                       .arg(capabilities.kind, allPaused ? QStringLiteral("paused") : QStringLiteral("running"));
    if (statuses.size() > 1)
        text += QStringLiteral(" on %1").arg(
            Format::counted(qint64(statuses.size()), QStringLiteral("replica"), QStringLiteral("replicas")));
    text += QStringLiteral(": %1 %2").arg(capabilities.rateLabel, withUnit(first.rate, capabilities.rateUnit));
    if (statuses.size() > 1)
        text += allSame ? QStringLiteral(" each") : QStringLiteral(" on the first");
    if (first.inflightLimit)
        text += QStringLiteral(", in-flight limit %1").arg(limit(*first.inflightLimit));
    return text;
}

bool sameRate(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

} // namespace LoadTesterText
