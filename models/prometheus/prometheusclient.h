// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"
#include "base/result.h"
#include "base/timerange.h"
#include "net/httpexchange.h"
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

// Asynchronous instant and range queries, and plain GETs of the rest of the API (targets,
// label values). Every request is the one HTTP exchange of net/ (size cap, timeout and
// deadline, the one wording for what goes wrong), takes a turn among at most
// maxRequestsInFlight to the source, and a transient failure is sent again as the
// connection's RetryPolicy says; a future answers with the last attempt. Network I/O runs on
// the owner's thread through QNetworkAccessManager (asynchronous); JSON parsing runs on a
// worker thread. The returned futures finish on the client's thread. Cancelling a returned
// future aborts its requests (a newer question supersedes the older by cancelling it).
// Destroying the client cancels every future it returned that has not finished.
// Qt 6.4 caveat: `.then(context, ...)` hits Q_ASSERT(context) in Debug builds when the
// context is destroyed before the future finishes (cancelling first does not help): receive
// with whenFinished() (base/whenfinished.h) instead.
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

    // GET of an API path ("api/v1/targets") with query parameters, through the same exchange,
    // turns and retries as the queries (a 429, 502, 503 or 504 is tried again too). Any HTTP
    // answer is handed over for the caller to parse (see parseOffThread); a transport
    // failure is an Error that names Prometheus and the URL.
    using Params = QList<QPair<QString, QString>>;
    QFuture<Result<HttpAnswer>> get(const QString &apiPath, const Params &params = {});

    // The URL for an API path, honouring a path prefix in the base URL ("api/v1/query").
    QUrl apiUrl(const QString &apiPath) const;

    // What was wrong with an answer, in words for the user: `parsed` (what the caller's parser
    // found wrong with the body) with where it came from, for an HTTP error its status and the
    // hint for 401, 403, 404 and 429, and the pause a Retry-After asked for. Pure: safe on a
    // worker thread.
    static Error withContext(Error parsed, const HttpAnswer &answer);

    // The last known reachability; empty until the first answer or failure.
    std::optional<bool> isReachable() const { return m_reachable; }

signals:
    // Emitted when reachability changes: a network error or timeout makes the source "down",
    // any HTTP answer makes it "up" again. The first answer or failure counts as a change.
    void reachabilityChanged(bool reachable, const QString &message);

private:
    // A range query's chunk: its answer must be a matrix within this range (checkRangeAnswer).
    struct RangeAsked
    {
        TimeRange range;
        qint64 stepMs = 0;
    };
    QFuture<Result<PromQueryResult>> send(const QString &apiPath, const Params &params,
                                          std::optional<RangeAsked> rangeAsked = std::nullopt);
    // The call and its limits for an API path; a POST form when the parameters are long.
    HttpCall callFor(const QString &apiPath, const Params &params, bool allowPost) const;
    HttpTarget target() const;
    // One attempt, parented to `owner`; its outcome tells whether the source is up.
    QFuture<Result<HttpAnswer>> exchangeOnce(const HttpCall &call, const HttpTarget &target, QObject *owner);
    void updateReachability(bool reachable, const QString &message);

    PrometheusConnection m_connection;
    QNetworkAccessManager *m_network = nullptr;
    std::optional<bool> m_reachable;
    Generation m_generation; // advanced by setConnection: older answers say nothing of the new source
    RequestSlots m_slots;
};
