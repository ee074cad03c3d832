// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/format.h"

#include <QDateTime>
#include <QLatin1String>
#include <QLocale>
#include <array>
#include <cmath>

namespace Format {
namespace {

QString plain(double value, int digits)
{
    // %g-style with trailing zeros removed, but never in exponent form for everyday sizes.
    QString text = QString::number(value, 'g', digits);
    if (text.contains(QLatin1Char('e')))
        text = QString::number(value, 'f', std::abs(value) < 1 ? digits : 0);
    return text;
}

// Whether a magnitude written with `digits` significant digits reads `limit` or more
// ("999.7" at 3 digits is "1000"): then the next larger unit writes it better ("1k").
bool roundsUpTo(double magnitude, double limit, int digits)
{
    return plain(magnitude, digits).toDouble() >= limit;
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
        if (magnitude >= factor || roundsUpTo(magnitude, factor, digits)) // "1.25k ops/s"
            return plain(value / factor, digits) + QLatin1String(prefix) + spacedUnit;
    }
    return plain(value, digits) + spacedUnit;
}

QString seconds(double value, int digits)
{
    const double magnitude = std::abs(value);
    if (magnitude == 0)
        return QStringLiteral("0 s");
    if (magnitude < 1e-3 && !roundsUpTo(magnitude * 1e6, 1000, digits))
        return plain(value * 1e6, digits) + QStringLiteral(" µs");
    if (magnitude < 1 && !roundsUpTo(magnitude * 1e3, 1000, digits))
        return plain(value * 1e3, digits) + QStringLiteral(" ms");
    if (magnitude < 120)
        return plain(value, digits) + QStringLiteral(" s");
    if (magnitude < 7200 && !roundsUpTo(magnitude / 60, 120, digits))
        return plain(value / 60, digits) + QStringLiteral(" min");
    return plain(value / 3600, digits) + QStringLiteral(" h");
}

QString binaryBytes(double value, int digits)
{
    static const std::array<const char *, 6> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double scaled = value;
    std::size_t i = 0;
    while (i + 1 < units.size() && roundsUpTo(std::abs(scaled), 1024, digits)) {
        scaled /= 1024;
        ++i;
    }
    return plain(scaled, digits) + QLatin1Char(' ') + QLatin1String(units[i]);
}

} // namespace

QString value(double value, const QString &unit, int significantDigits)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    if (unit == QLatin1String("s"))
        return seconds(value, significantDigits);
    if (unit == QLatin1String("bytes"))
        return binaryBytes(value, significantDigits);
    if (unit == QLatin1String("%"))
        return plain(value, significantDigits) + QStringLiteral(" %");
    return withSiPrefix(value, unit, significantDigits);
}

ValueParts valueParts(double number, const QString &unit, int significantDigits)
{
    const QString text = value(number, unit, significantDigits);
    const qsizetype space = text.indexOf(QLatin1Char(' '));
    if (space < 0)
        return {text, {}};
    return {text.left(space), text.mid(space + 1)};
}

QString clockRange(qint64 startMs, qint64 endMs, qint64 todayMs)
{
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(startMs);
    const QDateTime end = QDateTime::fromMSecsSinceEpoch(endMs);
    const QString clock = QStringLiteral("HH:mm:ss");
    const bool today = start.date() == QDateTime::fromMSecsSinceEpoch(todayMs).date();
    return (today ? start.toString(clock) : start.toString(QStringLiteral("yyyy-MM-dd ")) + start.toString(clock)) +
           QStringLiteral("–") + end.toString(clock);
}

QString duration(qint64 ms)
{
    ms = std::max<qint64>(ms, 0);
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 10'000 && ms % 1000 >= 100) { // "1.5 s": below ten seconds a tenth still matters
        const qint64 tenths = ms / 100;    // rounded down, as the whole seconds below
        return QStringLiteral("%1.%2 s").arg(tenths / 10).arg(tenths % 10);
    }
    const qint64 seconds = ms / 1000;
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 3600)
        return seconds % 60 ? QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60)
                            : QStringLiteral("%1 min").arg(seconds / 60);
    const qint64 minutes = seconds / 60;
    return minutes % 60 ? QStringLiteral("%1 h %2 min").arg(minutes / 60).arg(minutes % 60)
                        : QStringLiteral("%1 h").arg(minutes / 60);
}

QString compactDuration(qint64 ms)
{
    if (ms <= 0)
        return QStringLiteral("0s");
    struct Unit
    {
        const char *suffix;
        qint64 ms;
    };
    // The loaders' grammar takes each unit once, largest first; days and weeks are left to
    // hours so that "48h" reads as written.
    constexpr Unit kUnits[] = {{"h", 3'600'000}, {"m", 60'000}, {"s", 1000}, {"ms", 1}};
    QString text;
    for (const Unit &unit : kUnits) {
        if (ms >= unit.ms) {
            text += QString::number(ms / unit.ms) + QLatin1String(unit.suffix);
            ms %= unit.ms;
        }
    }
    return text;
}

QString bytes(qint64 bytes)
{
    return value(double(bytes), QStringLiteral("bytes"));
}

QString count(qint64 count)
{
    return QLocale(QLocale::English).toString(count);
}

QString counted(qint64 count, const QString &one, const QString &many)
{
    return Format::count(count) + QLatin1Char(' ') + (count == 1 ? one : many);
}

QString number(double value)
{
    if (!std::isfinite(value))
        return Format::value(value, QString());
    QString text = QString::number(value, 'g', 12);
    if (text.contains(QLatin1Char('e'))) // a set-point of 1e15 still reads as typed
        text = QString::number(value, 'f', std::abs(value) < 1 ? 12 : 0);
    return text;
}

} // namespace Format
