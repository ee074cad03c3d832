// SPDX-License-Identifier: GPL-3.0-or-later
#include "resourcequantity.h"

#include <QRegularExpression>
#include <array>
#include <cmath>
#include <limits>

namespace {

struct Suffix
{
    const char *text;
    double factor;
};

constexpr std::array<Suffix, 6> binarySuffixes{{{"Ei", 1152921504606846976.0},
                                                {"Pi", 1125899906842624.0},
                                                {"Ti", 1099511627776.0},
                                                {"Gi", 1073741824.0},
                                                {"Mi", 1048576.0},
                                                {"Ki", 1024.0}}};
constexpr std::array<Suffix, 10> decimalSuffixes{{{"E", 1e18},
                                                  {"P", 1e15},
                                                  {"T", 1e12},
                                                  {"G", 1e9},
                                                  {"M", 1e6},
                                                  {"k", 1e3},
                                                  {"", 1},
                                                  {"m", 1e-3},
                                                  {"u", 1e-6},
                                                  {"n", 1e-9}}};

bool isWhole(double value)
{
    return std::fabs(value - std::round(value)) < 1e-9 * std::max(1.0, std::fabs(value));
}

QString formatWhole(double value)
{
    return QString::number(static_cast<qint64>(std::llround(value)));
}

} // namespace

std::optional<ResourceQuantity> ResourceQuantity::parse(const QString &text, QString *error)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$)"));
    const QRegularExpressionMatch match = pattern.match(text);
    const auto fail = [&]() -> std::optional<ResourceQuantity> {
        if (error)
            *error = QStringLiteral("quantities must match the regular expression "
                                    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', got '%1'")
                         .arg(text);
        return std::nullopt;
    };
    if (!match.hasMatch())
        return fail();
    const double number = match.captured(1).toDouble();
    const QString suffix = match.captured(2);
    double factor = 1;
    Format format = Format::Decimal;
    if (suffix.size() == 2 && suffix.at(1) == QLatin1Char('i')) {
        format = Format::Binary;
        for (const Suffix &s : binarySuffixes)
            if (suffix == QLatin1String(s.text))
                factor = s.factor;
    } else if (!suffix.isEmpty() && (suffix.at(0) == QLatin1Char('e') || suffix.at(0) == 'E') && suffix.size() > 1) {
        factor = std::pow(10.0, suffix.mid(1).toInt());
    } else {
        for (const Suffix &s : decimalSuffixes)
            if (suffix == QLatin1String(s.text))
                factor = s.factor;
    }
    const double value = number * factor;
    if (!std::isfinite(value) || std::fabs(value) > 9.2e18)
        return fail();
    return ResourceQuantity(value, format);
}

qint64 ResourceQuantity::milliValue() const
{
    return static_cast<qint64>(std::ceil(m_value * 1000.0 - 1e-9));
}

qint64 ResourceQuantity::integerValue() const
{
    return static_cast<qint64>(std::ceil(m_value - 1e-9));
}

QString ResourceQuantity::canonical() const
{
    if (m_value == 0)
        return QStringLiteral("0");
    if (m_format == Format::Binary) {
        for (const Suffix &s : binarySuffixes)
            if (std::fabs(m_value) >= s.factor && isWhole(m_value / s.factor))
                return formatWhole(m_value / s.factor) + QLatin1String(s.text);
        if (isWhole(m_value))
            return formatWhole(m_value);
    }
    for (const Suffix &s : decimalSuffixes)
        if (std::fabs(m_value) >= s.factor && isWhole(m_value / s.factor))
            return formatWhole(m_value / s.factor) + QLatin1String(s.text);
    // Finer than a nanounit: the API server rounds up to one.
    return formatWhole(std::ceil(m_value * 1e9)) + QLatin1Char('n');
}
