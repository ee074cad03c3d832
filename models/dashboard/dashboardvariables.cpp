// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/dashboardvariables.h"

#include "base/format.h"
#include "dashboard/dashboardwriter.h"

#include <QRegularExpression>
#include <algorithm>
#include <optional>

namespace DashboardVariables {
namespace {

const QString kInterval = QStringLiteral("__interval");
const QString kRateInterval = QStringLiteral("__rate_interval");

// ${name}, [[name]] or $name; the name of whichever matched is in group 1, 2 or 3.
const QRegularExpression &reference()
{
    static const QRegularExpression pattern(QStringLiteral(
        R"(\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\[\[([A-Za-z_][A-Za-z0-9_]*)\]\]|\$([A-Za-z_][A-Za-z0-9_]*))"));
    return pattern;
}

QString nameOf(const QRegularExpressionMatch &match)
{
    for (int group = 1; group <= 3; ++group) {
        if (match.hasCaptured(group))
            return match.captured(group);
    }
    return {};
}

// Replaces every reference for which `valueOf` gives a value; leaves the others as written.
template<typename ValueOf> QString replaceReferences(const QString &query, ValueOf valueOf)
{
    QString out;
    out.reserve(query.size());
    qsizetype copied = 0;
    QRegularExpressionMatchIterator it = reference().globalMatch(query);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const std::optional<QString> value = valueOf(nameOf(match));
        if (!value)
            continue;
        out += QStringView(query).mid(copied, match.capturedStart() - copied);
        out += *value;
        copied = match.capturedEnd();
    }
    out += QStringView(query).mid(copied);
    return out;
}

} // namespace

QStringList referencedNames(const QString &query)
{
    QStringList names;
    QRegularExpressionMatchIterator it = reference().globalMatch(query);
    while (it.hasNext()) {
        const QString name = nameOf(it.next());
        if (!isBuiltin(name) && !names.contains(name))
            names.append(name);
    }
    return names;
}

bool isBuiltin(const QString &name)
{
    return name == kInterval || name == kRateInterval;
}

bool isValidName(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return valid.match(name).hasMatch() && !name.startsWith(QStringLiteral("__"));
}

const VariableDefinition *find(const std::vector<VariableDefinition> &variables, const QString &name)
{
    const auto it =
        std::find_if(variables.begin(), variables.end(), [&](const VariableDefinition &v) { return v.name == name; });
    return it == variables.end() ? nullptr : &*it;
}

QString substitute(const QString &query, const std::vector<VariableDefinition> &variables)
{
    return replaceReferences(query, [&](const QString &name) -> std::optional<QString> {
        if (const VariableDefinition *variable = find(variables, name))
            return variable->value;
        return std::nullopt;
    });
}

qint64 rateIntervalMs(const Timing &timing)
{
    return std::max(timing.stepMs + timing.scrapeIntervalMs, 4 * timing.scrapeIntervalMs);
}

QString substituteBuiltins(const QString &query, const Timing &timing)
{
    if (!query.contains(QStringLiteral("__")))
        return query; // the common case: no built-in, no regex work per request
    return replaceReferences(query, [&](const QString &name) -> std::optional<QString> {
        if (name == kInterval)
            return Format::compactDuration(std::max<qint64>(timing.stepMs, 1));
        if (name == kRateInterval)
            return Format::compactDuration(std::max<qint64>(rateIntervalMs(timing), 1));
        return std::nullopt;
    });
}

SeriesKey::Variables keyValues(const QString &query, const std::vector<VariableDefinition> &variables)
{
    SeriesKey::Variables values;
    for (const QString &name : referencedNames(query)) {
        const VariableDefinition *variable = find(variables, name);
        if (variable && variable->isChoosable())
            values.push_back({name, variable->value});
    }
    return values;
}

QString keySegment(const QString &query, const std::vector<VariableDefinition> &variables)
{
    return SeriesKey::valuesSegment(keyValues(query, variables));
}

QStringList choicesWithCurrent(const QStringList &values, const QString &current)
{
    QStringList choices = values;
    choices.removeDuplicates();
    if (!current.isEmpty() && current != kAllValue && !choices.contains(current))
        choices.prepend(current);
    return choices;
}

} // namespace DashboardVariables
