// SPDX-License-Identifier: GPL-3.0-or-later
#include "selectors.h"

#include "kubejson.h"

#include <QRegularExpression>

namespace {

// Splits at commas outside parentheses.
QStringList splitRequirements(const QString &text)
{
    QStringList parts;
    QString current;
    int depth = 0;
    for (const QChar c : text) {
        if (c == QLatin1Char('('))
            ++depth;
        else if (c == QLatin1Char(')'))
            --depth;
        if (c == QLatin1Char(',') && depth == 0) {
            parts << current.trimmed();
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.trimmed().isEmpty() || !parts.isEmpty())
        parts << current.trimmed();
    return parts;
}

QString valueAsText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble());
    return QString();
}

} // namespace

std::optional<LabelSelector> LabelSelector::parse(const QString &text, QString *error)
{
    static const QRegularExpression setPattern(QStringLiteral(R"(^([A-Za-z0-9._/-]+)\s+(in|notin)\s*\(([^)]*)\)$)"));
    static const QRegularExpression comparePattern(
        QStringLiteral(R"(^([A-Za-z0-9._/-]+)\s*(==|!=|=)\s*([A-Za-z0-9._-]*)$)"));
    static const QRegularExpression existsPattern(QStringLiteral(R"(^(!?)([A-Za-z0-9._/-]+)$)"));
    LabelSelector selector;
    for (const QString &part : splitRequirements(text)) {
        Requirement requirement;
        QRegularExpressionMatch match;
        if ((match = setPattern.match(part)).hasMatch()) {
            requirement.key = match.captured(1);
            requirement.op = match.captured(2) == QLatin1String("in") ? Op::In : Op::NotIn;
            for (const QString &value : match.captured(3).split(QLatin1Char(',')))
                requirement.values << value.trimmed();
        } else if ((match = comparePattern.match(part)).hasMatch()) {
            requirement.key = match.captured(1);
            requirement.op = match.captured(2) == QLatin1String("!=") ? Op::NotEquals : Op::Equals;
            requirement.values << match.captured(3);
        } else if ((match = existsPattern.match(part)).hasMatch()) {
            requirement.key = match.captured(2);
            requirement.op = match.captured(1).isEmpty() ? Op::Exists : Op::DoesNotExist;
        } else {
            if (error)
                *error = QStringLiteral("unable to parse requirement: '%1'").arg(part);
            return std::nullopt;
        }
        selector.m_requirements << requirement;
    }
    return selector;
}

bool LabelSelector::matches(const QJsonObject &labels) const
{
    for (const Requirement &r : m_requirements) {
        const bool has = labels.contains(r.key);
        const QString value = labels.value(r.key).toString();
        bool ok = false;
        switch (r.op) {
        case Op::Equals:
            ok = has && value == r.values.value(0);
            break;
        case Op::NotEquals:
            ok = !has || value != r.values.value(0);
            break;
        case Op::In:
            ok = has && r.values.contains(value);
            break;
        case Op::NotIn:
            ok = !has || !r.values.contains(value);
            break;
        case Op::Exists:
            ok = has;
            break;
        case Op::DoesNotExist:
            ok = !has;
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

std::optional<FieldSelector> FieldSelector::parse(const QString &text, QString *error)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^([A-Za-z0-9._]+)\s*(==|!=|=)\s*(.*)$)"));
    FieldSelector selector;
    for (const QString &part : splitRequirements(text)) {
        const QRegularExpressionMatch match = pattern.match(part);
        if (!match.hasMatch()) {
            if (error)
                *error = QStringLiteral("invalid selector: '%1'; can't understand '%2'").arg(text, part);
            return std::nullopt;
        }
        selector.m_requirements << Requirement{match.captured(1), match.captured(2) != QLatin1String("!="),
                                               match.captured(3).trimmed()};
    }
    return selector;
}

bool FieldSelector::matches(const QJsonObject &object) const
{
    for (const Requirement &r : m_requirements) {
        const bool equal = valueAsText(KubeJson::at(object, r.path)) == r.value;
        if (equal != r.equals)
            return false;
    }
    return true;
}
