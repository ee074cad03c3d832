// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/variablessection.h"

#include "dashboard/dashboardvariables.h"

#include <QJsonArray>
#include <QJsonObject>

void VariablesSection::read(const QJsonValue &value, std::vector<VariableDefinition> &variables)
{
    const QString path = QStringLiteral("variables");
    if (value.isUndefined())
        return;
    std::vector<std::pair<QString, QJsonValue>> entries; // path, definition
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            entries.emplace_back(it.key(), it.value());
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString itemPath = JsonSection::index(path, i);
            const QJsonObject item = array[i].toObject();
            if (!array[i].isObject() || !item.value(QStringLiteral("name")).isString()) {
                m_json.issue(JsonSection::join(itemPath, QStringLiteral("name")),
                             QStringLiteral("missing; each variable of the array needs a \"name\""));
                continue;
            }
            entries.emplace_back(item.value(QStringLiteral("name")).toString(), item);
        }
    } else {
        m_json.issue(path, QStringLiteral("must be an object of names and values"));
        return;
    }
    for (qsizetype i = 0; i < qsizetype(entries.size()); ++i) {
        const auto &[name, definition] = entries[std::size_t(i)];
        const QString variablePath = value.isArray() ? JsonSection::index(path, i) : JsonSection::join(path, name);
        if (!DashboardVariables::isValidName(name)) {
            m_json.issue(variablePath, QStringLiteral("is not a variable name (letters, digits and _, not "
                                                      "starting with a digit or __, without the $)"));
            continue;
        }
        if (DashboardVariables::find(variables, name)) {
            m_json.issue(variablePath, QStringLiteral("\"%1\" is declared twice; the first one is used").arg(name));
            continue;
        }
        if (auto variable = readVariable(name, definition, variablePath, value.isArray()))
            variables.push_back(std::move(*variable));
    }
    for (const VariableDefinition &variable : variables)
        m_declaredVariables.append(variable.name);
}

std::optional<VariableDefinition> VariablesSection::readVariable(const QString &name, const QJsonValue &value,
                                                                 const QString &path, bool inArray)
{
    VariableDefinition variable;
    variable.name = name;
    if (value.isString()) { // the first syntax: a fixed value
        variable.value = value.toString();
        return variable;
    }
    if (!value.isObject()) {
        m_json.issue(path, QStringLiteral("must be a string (a fixed value) or an object with \"values\" or "
                                          "\"labelValues\""));
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    if (inArray)
        m_json.checkKeys(object, path, {"name", "title", "values", "labelValues", "default", "includeAll"});
    else
        m_json.checkKeys(object, path, {"title", "values", "labelValues", "default", "includeAll"});
    if (auto title = m_json.readString(object, path, QStringLiteral("title")))
        variable.title = *title;
    const QJsonValue includeAll = object.value(QStringLiteral("includeAll"));
    if (includeAll.isBool())
        variable.includeAll = includeAll.toBool();
    else if (!includeAll.isUndefined())
        m_json.issue(JsonSection::join(path, QStringLiteral("includeAll")), QStringLiteral("must be true or false"));

    const QJsonValue values = object.value(QStringLiteral("values"));
    const QString valuesPath = JsonSection::join(path, QStringLiteral("values"));
    if (values.isArray()) {
        const QJsonArray array = values.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (array[i].isString())
                variable.choices.append(array[i].toString());
            else
                m_json.issue(JsonSection::index(valuesPath, i), QStringLiteral("must be a string"));
        }
        variable.choices.removeDuplicates();
        if (variable.choices.isEmpty())
            m_json.issue(valuesPath, QStringLiteral("has no value to choose from"));
    } else if (!values.isUndefined()) {
        m_json.issue(valuesPath, QStringLiteral("must be an array of strings such as [\"1\", \"2\"]"));
    }

    const QJsonValue labelValues = object.value(QStringLiteral("labelValues"));
    const QString labelPath = JsonSection::join(path, QStringLiteral("labelValues"));
    if (labelValues.isObject()) {
        const QJsonObject label = labelValues.toObject();
        m_json.checkKeys(label, labelPath, {"label", "match"});
        static const QRegularExpression labelName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        const QJsonValue labelValue = label.value(QStringLiteral("label"));
        if (labelValue.isUndefined())
            m_json.issue(JsonSection::join(labelPath, QStringLiteral("label")), QStringLiteral("missing"));
        else if (!labelValue.isString() || !labelName.match(labelValue.toString()).hasMatch())
            m_json.issue(JsonSection::join(labelPath, QStringLiteral("label")),
                         QStringLiteral("%1 is not a label name").arg(JsonSection::describe(labelValue)));
        else
            variable.labelName = labelValue.toString();
        if (auto match = m_json.readString(label, labelPath, QStringLiteral("match")))
            variable.labelMatch = match->trimmed();
        if (!variable.choices.isEmpty() && !variable.labelName.isEmpty()) {
            m_json.issue(path, QStringLiteral("has both \"values\" and \"labelValues\"; the fixed values are used"));
            variable.labelName.clear();
            variable.labelMatch.clear();
        }
    } else if (!labelValues.isUndefined()) {
        m_json.issue(labelPath,
                     QStringLiteral("must be an object such as {\"label\": \"namespace\", \"match\": \"up\"}"));
    }

    if (auto fallback = m_json.readString(object, path, QStringLiteral("default")))
        variable.value = *fallback == QLatin1String("$__all") ? DashboardVariables::kAllValue : *fallback;
    else if (variable.includeAll)
        variable.value = DashboardVariables::kAllValue;
    else if (!variable.choices.isEmpty())
        variable.value = variable.choices.first();
    // A label-values variable without a default takes the first value Prometheus lists.
    if (!variable.isChoosable() && !object.contains(QStringLiteral("default"))) {
        m_json.issue(path, QStringLiteral("needs \"default\", \"values\" or \"labelValues\"; variable dropped"));
        return std::nullopt;
    }
    return variable;
}

void VariablesSection::checkQuery(const QString &query, const QString &path) const
{
    QStringList undeclared;
    for (const QString &name : DashboardVariables::referencedNames(query)) {
        if (!m_declaredVariables.contains(name))
            undeclared.append(QLatin1Char('$') + name);
    }
    if (!undeclared.isEmpty())
        m_json.issue(path, QStringLiteral("uses %1, not declared in \"variables\" (declared: %2)")
                               .arg(undeclared.join(QStringLiteral(", ")),
                                    m_declaredVariables.isEmpty() ? QStringLiteral("none")
                                                                  : m_declaredVariables.join(QStringLiteral(", "))));
}
