// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/replicadiscovery.h"

#include "prometheus/prometheusclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>
#include <algorithm>

ReplicaDiscovery::ReplicaDiscovery(PrometheusClient *client, QObject *parent) : QObject(parent), m_client(client) {}

ReplicaDiscovery::~ReplicaDiscovery()
{
    if (m_reply)
        m_reply->abort();
}

void ReplicaDiscovery::discover(const QString &job, const QString &scheme)
{
    if (m_reply)
        m_reply->abort();
    QUrl url = m_client->apiUrl(QStringLiteral("api/v1/targets"));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("state"), QStringLiteral("active"));
    url.setQuery(query);
    QNetworkReply *reply = m_client->network()->get(m_client->makeRequest(url));
    m_reply = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply, job, scheme] {
        reply->deleteLater();
        if (reply->error() == QNetworkReply::OperationCanceledError)
            return;
        const QByteArray body = reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError && status == 0) {
            emit failed(
                tr("Could not ask Prometheus for the targets of job \"%1\": %2").arg(job, reply->errorString()));
            return;
        }
        if (status != 200) {
            emit failed(
                tr("Prometheus answered HTTP %1 when asked for the targets of job \"%2\".").arg(status).arg(job));
            return;
        }
        const Result<QList<QUrl>> urls = parseTargets(body, job, scheme);
        if (urls)
            emit found(urls.value());
        else
            emit failed(urls.error().message);
    });
}

Result<QList<QUrl>> ReplicaDiscovery::parseTargets(const QByteArray &json, const QString &job, const QString &scheme)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("Prometheus' target list is not JSON: %1").arg(parseError.errorString()));
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("status")).toString() != QLatin1String("success"))
        return Error::make(Error::Kind::Query, QStringLiteral("Prometheus refused the target list: %1")
                                                   .arg(root.value(QStringLiteral("error")).toString()));
    const QJsonArray targets =
        root.value(QStringLiteral("data")).toObject().value(QStringLiteral("activeTargets")).toArray();
    QList<QUrl> urls;
    QStringList jobs;
    for (const QJsonValue &value : targets) {
        const QJsonObject target = value.toObject();
        const QString targetJob =
            target.value(QStringLiteral("labels")).toObject().value(QStringLiteral("job")).toString();
        if (!jobs.contains(targetJob))
            jobs.append(targetJob);
        if (targetJob != job)
            continue;
        const QUrl scrapeUrl(target.value(QStringLiteral("scrapeUrl")).toString());
        if (!scrapeUrl.isValid() || scrapeUrl.host().isEmpty())
            continue;
        QUrl admin;
        admin.setScheme(scheme);
        admin.setHost(scrapeUrl.host());
        admin.setPort(scrapeUrl.port());
        if (!urls.contains(admin))
            urls.append(admin);
    }
    if (urls.isEmpty()) {
        jobs.sort();
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("Prometheus has no active target for job \"%1\" (jobs it scrapes: %2).")
                               .arg(job, jobs.isEmpty() ? QStringLiteral("none") : jobs.join(QStringLiteral(", "))));
    }
    std::sort(urls.begin(), urls.end(), [](const QUrl &a, const QUrl &b) { return a.toString() < b.toString(); });
    return urls;
}
