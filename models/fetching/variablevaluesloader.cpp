// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/variablevaluesloader.h"

#include "base/generation.h"
#include "dashboard/dashboardvariables.h"
#include "net/parseoffthread.h"
#include "prometheus/prometheusclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

VariableValuesLoader::VariableValuesLoader(PrometheusClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{}

VariableValuesLoader::~VariableValuesLoader()
{
    // Nobody will hear the answers: stop the requests.
    for (auto &[name, pending] : m_pending)
        pending.values.cancel();
}

void VariableValuesLoader::load(const VariableDefinition &variable)
{
    if (variable.labelName.isEmpty() || !m_client)
        return;
    Pending &pending = m_pending[variable.name];
    // The same question still on its way (a refresh while Prometheus is slow or retrying)
    // is answered by the request already sent; a different one supersedes it.
    const QString question = variable.labelMatch + QLatin1Char('\n') + variable.value;
    if (pending.values.isRunning() && pending.question == question)
        return;
    pending.values.cancel(); // superseded
    pending.generation.advance();
    pending.question = question;
    PrometheusClient::Params params;
    if (!variable.labelMatch.isEmpty())
        params.append({QStringLiteral("match[]"), variable.labelMatch});
    // The label name was checked by the loader (letters, digits, _): safe as a path segment.
    const QString label = variable.labelName;
    pending.values =
        parseOffThread<QStringList>(m_client->get(QStringLiteral("api/v1/label/%1/values").arg(label), params), this,
                                    [label](const HttpAnswer &answer) { return parseAnswer(answer, label); });
    whenFinishedIfCurrent(
        pending.values, this, pending.generation,
        [this, name = variable.name, label, current = variable.value](const Result<QStringList> &values) {
            if (!values) {
                const Error &error = values.error();
                // What the answer said stands alone; not getting one is said
                // with what was asked.
                const bool answered = error.kind == Error::Kind::Parse || error.kind == Error::Kind::Query;
                emit failed(name, answered ? error.message
                                           : tr("Could not ask Prometheus for the values of label "
                                                "\"%1\": %2")
                                                 .arg(label, error.message));
                return;
            }
            emit loaded(name, DashboardVariables::choicesWithCurrent(values.value(), current));
        });
}

Result<QStringList> VariableValuesLoader::parseAnswer(const HttpAnswer &answer, const QString &label)
{
    Result<QStringList> values = parseLabelValues(answer.body, label);
    // An error answer carries Prometheus' reason (HTTP 400 for a bad match[]) when it is
    // Prometheus' JSON; anything else (a proxy's page, a 404) is said as the HTTP error it is.
    if (answer.isSuccess() || (!values.ok() && values.error().kind == Error::Kind::Query))
        return values;
    return PrometheusClient::withContext(Error::make(Error::Kind::Http, QString(), answer.status, answer.bodySnippet()),
                                         answer);
}

Result<QStringList> VariableValuesLoader::parseLabelValues(const QByteArray &json, const QString &label)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return Error::make(
            Error::Kind::Parse,
            QStringLiteral("Prometheus' values of label \"%1\" are not JSON: %2").arg(label, parseError.errorString()));
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("status")).toString() != QLatin1String("success"))
        return Error::make(Error::Kind::Query, QStringLiteral("Prometheus refused the values of label \"%1\": %2")
                                                   .arg(label, root.value(QStringLiteral("error")).toString()));
    const QJsonValue data = root.value(QStringLiteral("data"));
    if (!data.isArray())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("Prometheus' answer for label \"%1\" has no list of values").arg(label));
    QStringList values;
    for (const QJsonValue value : data.toArray()) {
        if (value.isString())
            values.append(value.toString());
    }
    return values;
}
