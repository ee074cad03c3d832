// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "prometheusresponseparser.h"
#include "prometheustypes.h"
#include "result.h"
#include "timerange.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QPair>
#include <QUrl>

#include <optional>

class QNetworkAccessManager;

// Where a Prometheus-compatible HTTP API lives and how to talk to it.
struct PrometheusConnection
{
    QUrl baseUrl; // may carry a path prefix: http://host/prometheus/ -> .../prometheus/api/v1/...
    QString bearerToken;
    QString basicUser;
    QString basicPassword;
    QList<QPair<QByteArray, QByteArray>> extraHeaders; // e.g. X-Scope-OrgID
    int timeoutMs = 15000;
    qint64 maxBodyBytes = 64ll * 1024 * 1024; // answers above this are refused unread
    PrometheusResponseParser::Limits parserLimits;
};

// Asynchronous instant and range queries. Network I/O runs on the owner's thread through
// QNetworkAccessManager (asynchronous); JSON parsing runs on a worker thread. The returned
// futures finish on the client's thread, so `.then(context, ...)` continuations are safe for
// QObjects living there.
class PrometheusClient : public QObject
{
    Q_OBJECT
public:
    explicit PrometheusClient(PrometheusConnection connection, QObject *parent = nullptr);
    ~PrometheusClient() override;

    const PrometheusConnection &connection() const { return m_connection; }
    void setConnection(PrometheusConnection connection);

    // GET /api/v1/query; timeMs empty = the server's "now".
    QFuture<Result<PromQueryResult>> instantQuery(const QString &query,
                                                  std::optional<qint64> timeMs = {});

    // GET /api/v1/query_range over [range.startMs, range.endMs] at stepMs. Ranges longer than
    // the server's point limit are split (StepPlanner::splitRange) into several requests whose
    // results are merged per label set; the first error fails the whole call.
    QFuture<Result<PromQueryResult>> rangeQuery(const QString &query, const TimeRange &range,
                                                qint64 stepMs);

    // The URL for an API path, honouring a path prefix in the base URL ("api/v1/query").
    QUrl apiUrl(const QString &apiPath) const;

signals:
    // Emitted when reachability changes: a network error or timeout makes the source "down",
    // any HTTP answer makes it "up" again.
    void reachabilityChanged(bool reachable, const QString &message);

private:
    QFuture<Result<PromQueryResult>> get(const QUrl &url);

    PrometheusConnection m_connection;
    QNetworkAccessManager *m_network = nullptr;
    std::optional<bool> m_reachable;
};
