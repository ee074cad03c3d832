// SPDX-License-Identifier: GPL-3.0-or-later
#include "grafana/grafanavariables.h"

#include <QJsonObject>
#include <QRegularExpression>

namespace {

// What Grafana stores as the selection when "All" is chosen.
const QString kAll = QStringLiteral("$__all");
// Chaoscope's "All" is the regex of every value.
const QString kEveryValue = QStringLiteral(".*");

QString describe(const QString &name, const QString &type)
{
    return QStringLiteral("variable '%1' (%2)").arg(name, type);
}

// `current.value` is a string, or a list when the variable allows several values.
QStringList currentValues(const QJsonObject &variable)
{
    const QJsonValue value = variable.value(QStringLiteral("current")).toObject().value(QStringLiteral("value"));
    if (value.isArray()) {
        QStringList values;
        for (const QJsonValue item : value.toArray())
            values << item.toString();
        return values;
    }
    if (value.isString())
        return {value.toString()};
    return {};
}

// A query variable's query is a string in older exports and {"query": "...", "refId": ...}
// since Grafana 9; `definition` holds the same text for display.
QString queryText(const QJsonObject &variable)
{
    const QJsonValue query = variable.value(QStringLiteral("query"));
    if (query.isString() && !query.toString().trimmed().isEmpty())
        return query.toString().trimmed();
    if (query.isObject()) {
        QString text = query.toObject().value(QStringLiteral("query")).toString().trimmed();
        if (!text.isEmpty())
            return text;
    }
    return variable.value(QStringLiteral("definition")).toString().trimmed();
}

// A custom variable's list: "a,b,c", or "label : value" pairs whose value is what queries see.
// Commas inside a value are escaped as "\,".
QStringList customChoices(const QJsonObject &variable)
{
    QStringList choices;
    static const QRegularExpression unescapedComma(QStringLiteral(R"((?<!\\),)"));
    const QString query = variable.value(QStringLiteral("query")).toString();
    for (QString item : query.split(unescapedComma, Qt::SkipEmptyParts)) {
        item.replace(QStringLiteral("\\,"), QStringLiteral(","));
        const qsizetype pair = item.indexOf(QStringLiteral(" : "));
        const QString value = (pair >= 0 ? item.mid(pair + 3) : item).trimmed();
        if (!value.isEmpty() && !choices.contains(value))
            choices << value;
    }
    if (!choices.isEmpty())
        return choices;
    for (const QJsonValue option : variable.value(QStringLiteral("options")).toArray()) {
        const QString value = option.toObject().value(QStringLiteral("value")).toString();
        if (!value.isEmpty() && value != kAll && !choices.contains(value))
            choices << value;
    }
    return choices;
}

} // namespace

bool GrafanaVariables::parseLabelValues(const QString &query, QString *labelName, QString *labelMatch)
{
    static const QRegularExpression call(QStringLiteral(R"(^\s*label_values\s*\((.*)\)\s*$)"),
                                         QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = call.match(query);
    if (!match.hasMatch())
        return false;
    const QString arguments = match.captured(1);
    // The label is the last argument; the selector before it may hold commas inside {...}
    // or quotes, so the split is at the last comma outside both.
    int depth = 0;
    QChar quote;
    qsizetype split = -1;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QChar c = arguments.at(i);
        if (!quote.isNull()) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == quote)
                quote = QChar();
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'') || c == QLatin1Char('`')) {
            quote = c;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('(') || c == QLatin1Char('[')) {
            ++depth;
        } else if (c == QLatin1Char('}') || c == QLatin1Char(')') || c == QLatin1Char(']')) {
            --depth;
        } else if (c == QLatin1Char(',') && depth == 0) {
            split = i;
        }
    }
    const QString label = (split < 0 ? arguments : arguments.mid(split + 1)).trimmed();
    static const QRegularExpression labelPattern(QStringLiteral(R"(^[A-Za-z_][A-Za-z0-9_]*$)"));
    if (!labelPattern.match(label).hasMatch())
        return false;
    *labelName = label;
    *labelMatch = split < 0 ? QString() : arguments.left(split).trimmed();
    return true;
}

GrafanaVariables GrafanaVariables::fromTemplating(const QJsonArray &list)
{
    GrafanaVariables result;
    for (const QJsonValue item : list) {
        const QJsonObject variable = item.toObject();
        const QString name = variable.value(QStringLiteral("name")).toString().trimmed();
        const QString type = variable.value(QStringLiteral("type")).toString();
        if (name.isEmpty()) {
            result.notConverted << QStringLiteral("a %1 variable without a name")
                                       .arg(type.isEmpty() ? QStringLiteral("templating") : type);
            continue;
        }
        const QString where = describe(name, type);
        if (type == QLatin1String("datasource")) {
            // Only where panels read from; queries never see it. Nothing to keep, but panels
            // that name it stay Prometheus panels.
            const QString pluginType = variable.value(QStringLiteral("query")).toString();
            for (const QString &spelling :
                 {QStringLiteral("$") + name, QStringLiteral("${%1}").arg(name), QStringLiteral("[[%1]]").arg(name)})
                result.dataSourceTypes.insert(spelling, pluginType);
            result.notConverted << where + QStringLiteral(": data source variables not supported; Chaoscope reads from "
                                                          "the --prometheus it was started with");
            continue;
        }
        if (type == QLatin1String("adhoc")) {
            result.notConverted << where + QStringLiteral(": ad hoc filters not supported");
            continue;
        }

        VariableDefinition definition;
        definition.name = name;
        definition.title = variable.value(QStringLiteral("label")).toString().trimmed();
        const QStringList current = currentValues(variable);
        const bool all = current.contains(kAll);
        definition.value = all ? kEveryValue : current.value(0);
        if (current.size() > 1)
            result.notConverted << where + QStringLiteral(": several values selected (%1); kept \"%2\"")
                                               .arg(current.join(QStringLiteral(", ")), definition.value);
        if (variable.value(QStringLiteral("multi")).toBool())
            result.notConverted << where + QStringLiteral(": multi-value selection not supported; one value at a time");

        if (type == QLatin1String("query")) {
            const QString query = queryText(variable);
            if (!parseLabelValues(query, &definition.labelName, &definition.labelMatch)) {
                result.notConverted
                    << where + QStringLiteral(
                                   ": only label_values(...) queries are supported, not \"%1\"; kept the value \"%2\"")
                                   .arg(query, definition.value);
            }
            const QString regex = variable.value(QStringLiteral("regex")).toString();
            if (!regex.isEmpty() && !definition.labelName.isEmpty())
                result.notConverted << where + QStringLiteral(
                                                   ": regex filter %1 not applied; every value of the label is offered")
                                                   .arg(regex);
        } else if (type == QLatin1String("custom")) {
            definition.choices = customChoices(variable);
        } else if (type == QLatin1String("constant") || type == QLatin1String("textbox")) {
            // A constant's value is its query; a text box's query is its default.
            const QString query = variable.value(QStringLiteral("query")).toString();
            if (definition.value.isEmpty() || type == QLatin1String("constant"))
                definition.value = query.isEmpty() ? definition.value : query;
        } else if (type == QLatin1String("interval")) {
            // Its durations are a list to choose from, as a custom variable's; "auto" (a step
            // from the window) has no counterpart.
            for (const QString &choice : customChoices(variable)) {
                if (!choice.startsWith(QLatin1String("$__auto")) && choice != QLatin1String("auto"))
                    definition.choices << choice;
            }
            if (variable.value(QStringLiteral("auto")).toBool() ||
                definition.value.startsWith(QLatin1String("$__auto")))
                result.notConverted << where + QStringLiteral(": \"auto\" not supported; one of its durations is used");
            if (definition.value.startsWith(QLatin1String("$__auto")))
                definition.value.clear();
            if (definition.choices.isEmpty() && definition.value.isEmpty()) {
                definition.value = QStringLiteral("1m");
                result.notConverted << where + QStringLiteral(": no durations and no current value; fixed at \"%1\"")
                                                   .arg(definition.value);
            }
        } else {
            result.notConverted << where + QStringLiteral(": variable type not supported");
            continue;
        }

        QStringList selected = all ? definition.choices : current;
        selected.removeAll(QString());
        result.selectedValues.insert(name, selected);

        const bool choosable = definition.isChoosable();
        if (choosable && variable.value(QStringLiteral("includeAll")).toBool()) {
            definition.includeAll = true;
            const QString allValue = variable.value(QStringLiteral("allValue")).toString();
            if (!allValue.isEmpty() && allValue != kEveryValue)
                result.notConverted
                    << where +
                           QStringLiteral(": custom \"All\" value %1 not supported; All stands for .*").arg(allValue);
        } else if (definition.value == kEveryValue && !choosable) {
            definition.value.clear(); // "All" of nothing to choose from means nothing
        }
        if (definition.value.isEmpty() && !definition.choices.isEmpty())
            definition.value = definition.choices.constFirst();
        result.variables.push_back(std::move(definition));
    }
    return result;
}
