// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/replicadiscovery.h"

#include "net/parseoffthread.h"
#include "prometheus/prometheusclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

ReplicaDiscovery::ReplicaDiscovery(PrometheusClient *client, QObject *parent) : QObject(parent), m_client(client) {}

ReplicaDiscovery::~ReplicaDiscovery()
{
    m_pending.cancel(); // nobody will hear the answer: stop the request
}

void ReplicaDiscovery::discover(const QString &job, const QString &scheme)
{
    m_pending.cancel(); // superseded
    m_generation.advance();
    m_pending = parseOffThread<QList<QUrl>>(
        m_client->get(QStringLiteral("api/v1/targets"), {{QStringLiteral("state"), QStringLiteral("active")}}), this,
        [job, scheme](const HttpAnswer &answer) { return parseAnswer(answer, job, scheme); });
    whenFinishedIfCurrent(m_pending, this, m_generation, [this, job](const Result<QList<QUrl>> &urls) {
        if (urls) {
            emit found(urls.value());
            return;
        }
        const Error &error = urls.error();
        // What the answer said stands alone; not getting one is said with what was asked.
        const bool answered =
            error.kind == Error::Kind::Parse || error.kind == Error::Kind::Query || error.kind == Error::Kind::Invalid;
        emit failed(answered
                        ? error.message
                        : tr("Could not ask Prometheus for the targets of job \"%1\": %2").arg(job, error.message));
    });
}

Result<QList<QUrl>> ReplicaDiscovery::parseAnswer(const HttpAnswer &answer, const QString &job, const QString &scheme)
{
    if (answer.status == 200)
        return parseTargets(answer.body, job, scheme);
    // A Prometheus error body says why; anything else (a proxy's page, a 404) is the HTTP error.
    Result<QList<QUrl>> refused = parseTargets(answer.body, job, scheme);
    if (!refused.ok() && refused.error().kind == Error::Kind::Query)
        return refused;
    return PrometheusClient::withContext(Error::make(Error::Kind::Http, QString(), answer.status, answer.bodySnippet()),
                                         answer);
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
    for (const QJsonValue value : targets) {
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
