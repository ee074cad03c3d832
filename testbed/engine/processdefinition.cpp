// SPDX-License-Identifier: GPL-3.0-or-later
#include "processdefinition.h"

#include <QRegularExpression>

namespace {

const QRegularExpression &jobTypePattern()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_.-]+$"));
    return pattern;
}

} // namespace

std::optional<ProcessDefinition> ProcessDefinition::parse(const QString &spec, QString *error)
{
    const auto fail = [&](const QString &message) -> std::optional<ProcessDefinition> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    ProcessDefinition definition;
    const QString text = spec.trimmed();
    if (text.isEmpty())
        return fail(QStringLiteral("the process has no steps"));

    // Split at top-level commas (a bracketed sequence holds no commas, but say so clearly).
    qsizetype position = 0;
    while (position <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char(','), position);
        if (end < 0)
            end = text.size();
        const QString stepText = text.mid(position, end - position).trimmed();
        position = end + 1;
        if (stepText.isEmpty())
            return fail(QStringLiteral("an empty step in '%1' (two commas in a row?)").arg(spec));

        ProcessStep step;
        QString body = stepText;
        const qsizetype star = stepText.lastIndexOf(QLatin1Char('*'));
        if (star >= 0) {
            bool ok = false;
            const QString count = stepText.mid(star + 1).trimmed();
            step.multiplicity = count.toInt(&ok);
            if (!ok || step.multiplicity < 1 || step.multiplicity > maxMultiplicity)
                return fail(QStringLiteral("the multiplicity in '%1' must be a whole number "
                                           "from 1 to %2")
                                .arg(stepText)
                                .arg(maxMultiplicity));
            body = stepText.left(star).trimmed();
        }
        if (body.startsWith(QLatin1Char('['))) {
            if (!body.endsWith(QLatin1Char(']')))
                return fail(QStringLiteral("'%1' opens a sequence with '[' but does not close it").arg(stepText));
            step.jobTypes = body.mid(1, body.size() - 2).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (step.jobTypes.isEmpty())
                return fail(QStringLiteral("the sequence '%1' names no job type").arg(stepText));
        } else {
            step.jobTypes = {body};
        }
        for (const QString &type : std::as_const(step.jobTypes)) {
            if (!jobTypePattern().match(type).hasMatch())
                return fail(QStringLiteral("'%1' is not a job type (letters, digits, '_', '-', "
                                           "'.'; a sequence is written [a b]*N)")
                                .arg(type));
        }
        definition.steps.append(step);
        if (end == text.size())
            break;
    }
    return definition;
}

QString ProcessDefinition::toString() const
{
    QStringList parts;
    for (const ProcessStep &step : steps) {
        QString part = step.jobTypes.size() == 1 ? step.jobTypes.constFirst()
                                                 : QStringLiteral("[%1]").arg(step.jobTypes.join(QLatin1Char(' ')));
        if (step.multiplicity != 1)
            part += QStringLiteral("*%1").arg(step.multiplicity);
        parts.append(part);
    }
    return parts.join(QLatin1Char(','));
}

QStringList ProcessDefinition::jobTypes() const
{
    QStringList types;
    for (const ProcessStep &step : steps)
        for (const QString &type : step.jobTypes)
            if (!types.contains(type))
                types.append(type);
    return types;
}

int ProcessDefinition::jobsPerInstance() const
{
    int jobs = 0;
    for (const ProcessStep &step : steps)
        jobs += step.jobs();
    return jobs;
}
