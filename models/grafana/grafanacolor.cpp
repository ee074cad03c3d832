// SPDX-License-Identifier: GPL-3.0-or-later
#include "grafana/grafanacolor.h"

#include <QHash>
#include <QRegularExpression>
#include <algorithm>

namespace GrafanaColor {

QString toHex(const QString &grafana)
{
    const QString name = grafana.trimmed().toLower();
    static const QRegularExpression longHex(QStringLiteral("^#[0-9a-f]{6}$"));
    static const QRegularExpression shortHex(QStringLiteral("^#([0-9a-f])([0-9a-f])([0-9a-f])$"));
    static const QRegularExpression rgb(
        QStringLiteral(R"(^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[0-9.]+\s*)?\)$)"));
    if (longHex.match(name).hasMatch())
        return name.toUpper();
    if (const QRegularExpressionMatch m = shortHex.match(name); m.hasMatch())
        return QStringLiteral("#%1%1%2%2%3%3").arg(m.captured(1), m.captured(2), m.captured(3)).toUpper();
    if (const QRegularExpressionMatch m = rgb.match(name); m.hasMatch()) {
        QString hex = QStringLiteral("#");
        for (int i = 1; i <= 3; ++i)
            hex += QStringLiteral("%1").arg(std::min(255, m.captured(i).toInt()), 2, 16, QLatin1Char('0'));
        return hex.toUpper();
    }
    // Grafana's palette (its "classic" theme colours), each hue in its five shades.
    static const QHash<QString, QString> named{
        {QStringLiteral("green"), QStringLiteral("#73BF69")},
        {QStringLiteral("dark-green"), QStringLiteral("#37872D")},
        {QStringLiteral("semi-dark-green"), QStringLiteral("#56A64B")},
        {QStringLiteral("light-green"), QStringLiteral("#96D98D")},
        {QStringLiteral("super-light-green"), QStringLiteral("#C8F2C2")},
        {QStringLiteral("red"), QStringLiteral("#F2495C")},
        {QStringLiteral("dark-red"), QStringLiteral("#C4162A")},
        {QStringLiteral("semi-dark-red"), QStringLiteral("#E02F44")},
        {QStringLiteral("light-red"), QStringLiteral("#FF7383")},
        {QStringLiteral("super-light-red"), QStringLiteral("#FFA6B0")},
        {QStringLiteral("yellow"), QStringLiteral("#FADE2A")},
        {QStringLiteral("dark-yellow"), QStringLiteral("#E0B400")},
        {QStringLiteral("semi-dark-yellow"), QStringLiteral("#F2CC0C")},
        {QStringLiteral("light-yellow"), QStringLiteral("#FFEE52")},
        {QStringLiteral("super-light-yellow"), QStringLiteral("#FFF899")},
        {QStringLiteral("orange"), QStringLiteral("#FF9830")},
        {QStringLiteral("dark-orange"), QStringLiteral("#FA6400")},
        {QStringLiteral("semi-dark-orange"), QStringLiteral("#FF780A")},
        {QStringLiteral("light-orange"), QStringLiteral("#FFB357")},
        {QStringLiteral("super-light-orange"), QStringLiteral("#FFCB7D")},
        {QStringLiteral("blue"), QStringLiteral("#5794F2")},
        {QStringLiteral("dark-blue"), QStringLiteral("#1F60C4")},
        {QStringLiteral("semi-dark-blue"), QStringLiteral("#3274D9")},
        {QStringLiteral("light-blue"), QStringLiteral("#8AB8FF")},
        {QStringLiteral("super-light-blue"), QStringLiteral("#C0D8FF")},
        {QStringLiteral("purple"), QStringLiteral("#B877D9")},
        {QStringLiteral("dark-purple"), QStringLiteral("#8F3BB8")},
        {QStringLiteral("semi-dark-purple"), QStringLiteral("#A352CC")},
        {QStringLiteral("light-purple"), QStringLiteral("#CA95E5")},
        {QStringLiteral("super-light-purple"), QStringLiteral("#DEB6F2")},
    };
    return named.value(name);
}

} // namespace GrafanaColor
