// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"
#include "net/requestslots.h"
#include "net/retrypolicy.h"
#include "net/tlssettings.h"
#include "prometheus/prometheusresponseparser.h"
#include "prometheus/prometheustypes.h"
#include "prometheus/stepplanner.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QPair>
#include <QUrl>
#include <optional>

class QNetworkAccessManager;
class QNetworkRequest;

// Where a Prometheus-compatible HTTP API lives and how to talk to it.
struct PrometheusConnection
{
    QUrl baseUrl; // may carry a path prefix: http://host/prometheus/ -> .../prometheus/api/v1/...
    // Secrets: only ever in memory, read from files or the environment (see app/commandline);
    // never written to a file, a log line or a message.
    QString bearerToken; // "Authorization: Bearer ..."; wins over basic auth when both are set
    QString basicUser;   // basic auth is sent when the user is not empty
    QString basicPassword;
    // e.g. X-Scope-OrgID; sent last, so they win. Not secret (the command line shows them).
    QList<QPair<QByteArray, QByteArray>> extraHeaders;
    // HTTPS: verified against the system's CAs plus these, unless turned off (--insecure).
    TlsSettings tls;
    // Longest silence while waiting for (the rest of) an answer, then Error::Kind::Timeout
    // (QNetworkRequest::setTransferTimeout: an answer that keeps arriving is not cut).
    int timeoutMs = 15000;
    // Longest time for one whole answer, however steadily it trickles in; then
    // Error::Kind::Timeout. <= 0: no limit.
    int requestDeadlineMs = 60000;
    // Transient failures (refused, timed out, 429, 502/503/504, Prometheus "timeout" and
    // "unavailable") are sent again after a growing, jittered wait; others never.
    RetryPolicy::Settings retry;
    // Requests on the wire at once to this source, over all queries; the rest wait their
    // turn, so that a dashboard with many panels cannot pile onto a struggling server.
    // <= 0: no limit.
    int maxRequestsInFlight = 6;
    qint64 maxBodyBytes = 64ll * 1024 * 1024; // answers above this are refused unread
    PrometheusResponseParser::Limits parserLimits;
    // Points per series per request; ranges needing more are split. Lower it for servers
    // with a smaller limit than Prometheus (and in tests, to force splitting).
    int maxPointsPerRequest = StepPlanner::kServerMaxPointsPerSeries;
    // Requests in flight at once for the chunks of one split range query.
    int maxChunkRequestsInFlight = 4;
    // Encoded parameters longer than this go as a POST form instead of a GET URL, which
    // proxies cut at a few KB.
    int maxGetQueryBytes = 4096;
};

// Asynchronous instant and range queries. Network I/O runs on the owner's thread through
// QNetworkAccessManager (asynchronous); JSON parsing runs on a worker thread. The returned
// futures finish on the client's thread, so `.then(context, ...)` continuations are safe for
// QObjects living there. Canceling a returned future aborts its requests. Destroying the
// client cancels every future it returned that has not finished. Every request takes a turn
// among at most maxRequestsInFlight to the source, and a transient failure is sent again as
// the connection's RetryPolicy says; a future answers with the last attempt.
// Qt 6.4 caveat: `.then(context, ...)` hits Q_ASSERT(context) in Debug builds when the
// context is destroyed before the future finishes (cancelling first does not help). A
// receiver that can die first should own a QFutureWatcher instead (as this client does
// internally), or be destroyed only after the client.
class PrometheusClient : public QObject
{
    Q_OBJECT
public:
    explicit PrometheusClient(PrometheusConnection connection, QObject *parent = nullptr);
    ~PrometheusClient() override;

    const PrometheusConnection &connection() const { return m_connection; }
    // Applies to requests sent from now on; reachability becomes unknown again.
    void setConnection(PrometheusConnection connection);

    // GET /api/v1/query (a POST form when the query is very long); timeMs empty = the
    // server's "now".
    QFuture<Result<PromQueryResult>> instantQuery(const QString &query, std::optional<qint64> timeMs = {});

    // GET /api/v1/query_range over [range.startMs, range.endMs] at stepMs. Ranges longer than
    // the server's point limit are split (StepPlanner::splitRange) into several requests whose
    // results are merged per label set (mergeRangeChunks), at most maxChunkRequestsInFlight at
    // once; the first error fails the whole call and cancels the rest. A non-positive step,
    // an empty range or more than 1000 requests' worth of points fail at once with Invalid.
    QFuture<Result<PromQueryResult>> rangeQuery(const QString &query, const TimeRange &range, qint64 stepMs);

    // The URL for an API path, honouring a path prefix in the base URL ("api/v1/query").
    QUrl apiUrl(const QString &apiPath) const;

    // A request to this server with its headers (auth, extra headers, user agent), timeout and
    // redirect policy, for calls outside the query API (e.g. /api/v1/targets).
    QNetworkRequest makeRequest(const QUrl &url) const;
    QNetworkAccessManager *network() const { return m_network; }

    // The last known reachability; empty until the first answer or failure.
    std::optional<bool> isReachable() const { return m_reachable; }

signals:
    // Emitted when reachability changes: a network error or timeout makes the source "down",
    // any HTTP answer makes it "up" again. The first answer or failure counts as a change.
    void reachabilityChanged(bool reachable, const QString &message);

private:
    using Params = QList<QPair<QString, QString>>;
    QFuture<Result<PromQueryResult>> send(const QString &apiPath, const Params &params);
    // One attempt of a request prepared by send(), parented to `owner`.
    QFuture<Result<PromQueryResult>> sendOnce(const QNetworkRequest &request, const QByteArray &form, bool usePost,
                                              QObject *owner);
    void updateReachability(bool reachable, const QString &message);

    PrometheusConnection m_connection;
    QNetworkAccessManager *m_network = nullptr;
    std::optional<bool> m_reachable;
    quint64 m_generation = 0; // bumped by setConnection: older answers no longer count
    RequestSlots m_slots;
};
