// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/legendformatter.h"

#include <QRegularExpression>
#include <QStringList>

namespace LegendFormatter {

QString format(const QString &legendTemplate, const QMap<QString, QString> &labels)
{
    if (!legendTemplate.isEmpty()) {
        static const QRegularExpression placeholder(QStringLiteral(R"(\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\})"));
        QString out;
        qsizetype last = 0;
        for (auto it = placeholder.globalMatch(legendTemplate); it.hasNext();) {
            const auto match = it.next();
            out += legendTemplate.mid(last, match.capturedStart() - last);
            out += labels.value(match.captured(1));
            last = match.capturedEnd();
        }
        out += legendTemplate.mid(last);
        return out.trimmed();
    }
    QStringList parts;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        if (it.key() != QLatin1String("__name__"))
            parts << QStringLiteral("%1=\"%2\"").arg(it.key(), it.value());
    }
    const QString name = labels.value(QStringLiteral("__name__"));
    if (parts.isEmpty())
        return name.isEmpty() ? QStringLiteral("value") : name;
    return name + QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

} // namespace LegendFormatter
