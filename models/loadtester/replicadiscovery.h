// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"
#include "base/result.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QUrl>

class PrometheusClient;
struct HttpAnswer;

// Finds a load tester's replicas from what Prometheus already scrapes: every active target
// of a job is one replica, and its admin API is served where its /metrics is (host:port of
// the scrape URL). So a starter scaled to 4 pods needs no list of addresses in the dashboard.
class ReplicaDiscovery : public QObject
{
    Q_OBJECT
public:
    explicit ReplicaDiscovery(PrometheusClient *client, QObject *parent = nullptr);
    ~ReplicaDiscovery() override;

    // Asks /api/v1/targets?state=active through the client (its size cap, deadline, turns
    // and retries); found() or failed() follows, never from inside. A newer discover()
    // supersedes one still on its way: the older is cancelled and never answers. The answer
    // is parsed off the UI thread.
    void discover(const QString &job, const QString &scheme = QStringLiteral("http"));

    // The admin base URLs of the job's targets in /api/v1/targets JSON, sorted, without
    // duplicates. An error names what was wrong: not JSON, an error answer, no such job.
    static Result<QList<QUrl>> parseTargets(const QByteArray &json, const QString &job, const QString &scheme);
    // The same for a whole answer: any other HTTP error is an Error in the client's words.
    // Pure (runs on a worker thread).
    static Result<QList<QUrl>> parseAnswer(const HttpAnswer &answer, const QString &job, const QString &scheme);

signals:
    void found(const QList<QUrl> &adminUrls);
    void failed(const QString &message);

private:
    PrometheusClient *m_client;
    Generation m_generation; // advanced by each discover()
    QFuture<Result<QList<QUrl>>> m_pending;
};
