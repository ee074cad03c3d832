// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/unitformatter.h"

#include <QLatin1String>
#include <array>
#include <cmath>

namespace UnitFormatter {
namespace {

QString number(double value, int digits)
{
    // %g-style with trailing zeros removed, but never in exponent form for everyday sizes.
    QString text = QString::number(value, 'g', digits);
    if (text.contains(QLatin1Char('e')))
        text = QString::number(value, 'f', std::abs(value) < 1 ? digits : 0);
    return text;
}

QString withSiPrefix(double value, const QString &unit, int digits)
{
    static const std::array<std::pair<double, const char *>, 4> prefixes{{
        {1e12, "T"},
        {1e9, "G"},
        {1e6, "M"},
        {1e3, "k"},
    }};
    const QString spacedUnit = unit.isEmpty() ? QString() : QLatin1Char(' ') + unit;
    const double magnitude = std::abs(value);
    for (const auto &[factor, prefix] : prefixes) {
        if (magnitude >= factor) // "1.25k ops/s"
            return number(value / factor, digits) + QLatin1String(prefix) + spacedUnit;
    }
    return number(value, digits) + spacedUnit;
}

QString seconds(double value, int digits)
{
    const double magnitude = std::abs(value);
    if (magnitude == 0)
        return QStringLiteral("0 s");
    if (magnitude < 1e-3)
        return number(value * 1e6, digits) + QStringLiteral(" µs");
    if (magnitude < 1)
        return number(value * 1e3, digits) + QStringLiteral(" ms");
    if (magnitude < 120)
        return number(value, digits) + QStringLiteral(" s");
    if (magnitude < 7200)
        return number(value / 60, digits) + QStringLiteral(" min");
    return number(value / 3600, digits) + QStringLiteral(" h");
}

QString bytes(double value, int digits)
{
    static const std::array<const char *, 6> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double scaled = value;
    std::size_t i = 0;
    while (std::abs(scaled) >= 1024 && i + 1 < units.size()) {
        scaled /= 1024;
        ++i;
    }
    return number(scaled, digits) + QLatin1Char(' ') + QLatin1String(units[i]);
}

} // namespace

QString format(double value, const QString &unit, int significantDigits)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    if (unit == QLatin1String("s"))
        return seconds(value, significantDigits);
    if (unit == QLatin1String("bytes"))
        return bytes(value, significantDigits);
    if (unit == QLatin1String("%"))
        return number(value, significantDigits) + QStringLiteral(" %");
    return withSiPrefix(value, unit, significantDigits);
}

} // namespace UnitFormatter
