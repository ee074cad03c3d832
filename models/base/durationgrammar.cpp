// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/durationgrammar.h"

#include <QRegularExpression>
#include <cmath>

namespace DurationGrammar {

qint64 parseMs(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return -1;

    static const QRegularExpression seconds(QStringLiteral("^[0-9]+(\\.[0-9]+)?$"));
    if (seconds.match(trimmed).hasMatch()) {
        const double value = trimmed.toDouble();
        if (value * 1000.0 > static_cast<double>(kMaxMs))
            return -1;
        return std::llround(value * 1000.0);
    }

    // Prometheus' own grammar: each unit at most once, largest first.
    static const QRegularExpression units(
        QStringLiteral("^(?:([0-9]+)y)?(?:([0-9]+)w)?(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?"
                       "(?:([0-9]+)ms)?$"));
    static constexpr qint64 unitMs[] = {
        365ll * 24 * 3600 * 1000, 7ll * 24 * 3600 * 1000, 24ll * 3600 * 1000, 3600ll * 1000, 60ll * 1000, 1000, 1};
    const QRegularExpressionMatch match = units.match(trimmed);
    if (!match.hasMatch())
        return -1;
    qint64 total = 0;
    for (int group = 1; group <= 7; ++group) {
        const QStringView digits = match.capturedView(group);
        if (digits.isEmpty())
            continue;
        if (digits.size() > 15)
            return -1;
        const qint64 count = digits.toLongLong();
        const qint64 factor = unitMs[group - 1];
        if (count > (kMaxMs - total) / factor)
            return -1;
        total += count * factor;
    }
    return total;
}

} // namespace DurationGrammar
