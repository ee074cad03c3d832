// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/variablevaluesloader.h"

#include "base/whenfinished.h"
#include "dashboard/dashboardvariables.h"
#include "prometheus/prometheusclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>
#include <QtConcurrent/QtConcurrentRun>

VariableValuesLoader::VariableValuesLoader(PrometheusClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{}

VariableValuesLoader::~VariableValuesLoader()
{
    for (const QPointer<QNetworkReply> &reply : std::as_const(m_replies)) {
        if (reply)
            reply->abort();
    }
}

void VariableValuesLoader::load(const VariableDefinition &variable)
{
    if (variable.labelName.isEmpty() || !m_client)
        return;
    if (const QPointer<QNetworkReply> older = m_replies.value(variable.name))
        older->abort();
    // The label name was checked by the loader (letters, digits, _): safe as a path segment.
    QUrl url = m_client->apiUrl(QStringLiteral("api/v1/label/%1/values").arg(variable.labelName));
    if (!variable.labelMatch.isEmpty()) {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("match[]"),
                           QString::fromLatin1(QUrl::toPercentEncoding(variable.labelMatch)));
        url.setQuery(query);
    }
    QNetworkReply *reply = m_client->network()->get(m_client->makeRequest(url));
    m_replies.insert(variable.name, reply);
    const QString name = variable.name;
    const QString label = variable.labelName;
    const QString current = variable.value;
    connect(reply, &QNetworkReply::finished, this, [this, reply, name, label, current] {
        reply->deleteLater();
        if (m_replies.value(name) == reply)
            m_replies.remove(name);
        if (reply->error() == QNetworkReply::OperationCanceledError)
            return; // superseded, or the loader is going away
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError && status == 0) {
            emit failed(
                name,
                tr("Could not ask Prometheus for the values of label \"%1\": %2").arg(label, reply->errorString()));
            return;
        }
        const QByteArray body = reply->readAll();
        whenFinished(QtConcurrent::run([body, label] { return parseLabelValues(body, label); }), this,
                     [this, name, current, status](const Result<QStringList> &values) {
                         // An error answer (HTTP 400 for a bad match[]) carries Prometheus' reason.
                         if (!values)
                             emit failed(name, status != 200 && status != 0 && values.error().kind == Error::Kind::Parse
                                                   ? tr("Prometheus answered HTTP %1").arg(status)
                                                   : values.error().message);
                         else
                             emit loaded(name, DashboardVariables::choicesWithCurrent(values.value(), current));
                     });
    });
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
    for (const QJsonValue &value : data.toArray()) {
        if (value.isString())
            values.append(value.toString());
    }
    return values;
}
