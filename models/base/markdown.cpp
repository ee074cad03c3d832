// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/markdown.h"

#include <QRegularExpression>

namespace Markdown {

QString cell(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    escaped.replace(QLatin1String("\r\n"), QStringLiteral(" "));
    escaped.replace(QLatin1Char('\n'), QLatin1Char(' '));
    escaped.replace(QLatin1Char('\r'), QLatin1Char(' '));
    return escaped.trimmed();
}

QString table(const QStringList &header, const std::vector<QStringList> &rows, const std::vector<bool> &rightAligned)
{
    const auto line = [&](const QStringList &fields) {
        QStringList cells;
        for (qsizetype i = 0; i < header.size(); ++i)
            cells << cell(fields.value(i));
        return QStringLiteral("| %1 |").arg(cells.join(QStringLiteral(" | ")));
    };
    QStringList rule;
    for (qsizetype i = 0; i < header.size(); ++i)
        rule << (std::size_t(i) < rightAligned.size() && rightAligned[std::size_t(i)] ? QStringLiteral("---:")
                                                                                      : QStringLiteral("---"));
    QStringList lines{line(header), QStringLiteral("| %1 |").arg(rule.join(QStringLiteral(" | ")))};
    for (const QStringList &row : rows)
        lines << line(row);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString plainLine(const QString &text)
{
    // A leading '#', '>', '-', '+', '*' or "1." would make a heading, quote or list of the
    // line; a backslash keeps it text. Emphasis and links inside stay as the user wrote them.
    QString simplified = text.simplified();
    static const QRegularExpression blockStart(QStringLiteral(R"(^([#>+*-]|\d+[.)]))"));
    if (blockStart.match(simplified).hasMatch())
        simplified.prepend(QLatin1Char('\\'));
    return simplified;
}

} // namespace Markdown
