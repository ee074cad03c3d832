// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/prometheusclient.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QPromise>
#include <QSslError>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace {

using QueryResult = Result<PromQueryResult>;

// A split range that needs more requests than this is a mistake (a 1 ms step over a week),
// not something to send to a server.
constexpr size_t kMaxChunksPerQuery = 1000;
// How much of an answer the network layer may hold before we have taken it.
constexpr qint64 kReadBufferBytes = 1024 * 1024;

QFuture<QueryResult> readyFuture(QueryResult result)
{
    QPromise<QueryResult> promise;
    promise.start();
    promise.addResult(std::move(result));
    promise.finish();
    return promise.future();
}

// Seconds with millisecond precision, the form the Prometheus API takes for times and steps;
// integer arithmetic so that no instant drifts by a binary fraction.
QString formatSeconds(qint64 ms)
{
    const bool negative = ms < 0;
    const qint64 magnitude = negative ? -ms : ms;
    QString text = QString::number(magnitude / 1000);
    if (const qint64 fraction = magnitude % 1000)
        text += QStringLiteral(".%1").arg(fraction, 3, 10, QLatin1Char('0'));
    return negative ? QLatin1Char('-') + text : text;
}

// application/x-www-form-urlencoded, with everything but unreserved characters escaped:
// the server decodes '+' as a space, so "a + b" must travel as a%20%2B%20b.
QByteArray encodeForm(const QList<QPair<QString, QString>> &params)
{
    QByteArray encoded;
    for (const auto &[name, value] : params) {
        if (!encoded.isEmpty())
            encoded += '&';
        encoded += QUrl::toPercentEncoding(name);
        encoded += '=';
        encoded += QUrl::toPercentEncoding(value);
    }
    return encoded;
}

QString formatBytes(qint64 bytes)
{
    if (bytes >= 1024ll * 1024)
        return QStringLiteral("%1 MiB").arg(static_cast<double>(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
    if (bytes >= 1024)
        return QStringLiteral("%1 KiB").arg(static_cast<double>(bytes) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 bytes").arg(bytes);
}

QString formatDuration(int ms)
{
    if (ms % 1000 == 0)
        return QStringLiteral("%1 s").arg(ms / 1000);
    return QStringLiteral("%1 ms").arg(ms);
}

using ReachabilityReport = std::function<void(bool reachable, const QString &message)>;

// One HTTP exchange with the server: watches the size while the answer arrives, turns
// failures into Errors a user can act on, and hands a complete body to the parser on a
// worker thread. Deletes itself once its future is finished.
class QueryExchange : public QObject
{
public:
    QueryExchange(QNetworkReply *reply, const PrometheusConnection &connection, ReachabilityReport report,
                  QObject *parent)
        : QObject(parent), m_reply(reply),
          m_url(reply->url().toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery)),
          m_maxBodyBytes(connection.maxBodyBytes), m_timeoutMs(connection.timeoutMs),
          m_deadlineMs(connection.requestDeadlineMs), m_limits(connection.parserLimits), m_report(std::move(report))
    {
        m_promise.start();
        // The transfer timeout only notices silence; an answer trickling in a byte at a time
        // would hold the panel forever without this.
        if (m_deadlineMs > 0) {
            m_deadline.setSingleShot(true);
            connect(&m_deadline, &QTimer::timeout, this, [this] {
                if (m_reply && m_reply->isRunning()) {
                    m_deadlineExpired = true;
                    m_reply->abort();
                }
            });
            m_deadline.start(m_deadlineMs);
        }
        // A caller that cancels its future does not want the answer: stop the transfer.
        connect(&m_cancelWatcher, &QFutureWatcherBase::canceled, this, [this] {
            if (m_reply && m_reply->isRunning()) {
                m_canceled = true;
                m_reply->abort();
            }
        });
        m_cancelWatcher.setFuture(m_promise.future());

        connect(reply, &QNetworkReply::metaDataChanged, this, [this] {
            if (!m_reply)
                return;
            const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
            if (length.isValid())
                refuseIfTooLarge(length.toLongLong());
        });
        connect(reply, &QNetworkReply::downloadProgress, this,
                [this](qint64 received, qint64 total) { refuseIfTooLarge(std::max(received, total)); });
        // The body is taken as it arrives and the reply buffers little, so that a flood is
        // stopped near the cap instead of piling up in memory faster than we look.
        reply->setReadBufferSize(kReadBufferBytes);
        connect(reply, &QNetworkReply::readyRead, this, [this] {
            if (!m_reply || m_tooLarge)
                return;
            m_body += m_reply->readAll();
            refuseIfTooLarge(m_body.size());
        });
        // Verification failures are kept for the message: the user must learn which
        // certificate problem it was, and nothing here ever ignores them.
        connect(reply, &QNetworkReply::sslErrors, this,
                [this](const QList<QSslError> &errors) { m_sslErrors += errors; });
        connect(reply, &QNetworkReply::finished, this, &QueryExchange::onFinished);
    }

    ~QueryExchange() override
    {
        if (m_reply) {
            // Quietly: an abort emits finished, which must not reach a dying exchange.
            disconnect(m_reply, nullptr, this, nullptr);
            if (m_reply->isRunning())
                m_reply->abort();
            m_reply->deleteLater();
        }
        // m_promise cancels itself if it was not finished.
    }

    QFuture<QueryResult> future() const { return m_promise.future(); }

private:
    void refuseIfTooLarge(qint64 bytes)
    {
        if (m_tooLarge || m_maxBodyBytes <= 0 || bytes <= m_maxBodyBytes || !m_reply || !m_reply->isRunning())
            return;
        m_tooLarge = true;
        m_tooLargeBytes = bytes;
        m_reply->abort(); // finished follows, synchronously
    }

    void onFinished()
    {
        QNetworkReply *reply = m_reply;
        if (m_finished || !reply)
            return;
        m_finished = true;
        m_deadline.stop();
        reply->deleteLater();
        m_reply = nullptr;

        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        m_retryAfterMs =
            RetryPolicy::parseRetryAfter(reply->rawHeader("Retry-After"), QDateTime::currentMSecsSinceEpoch());
        const QNetworkReply::NetworkError error = reply->error();
        if (m_canceled || m_promise.isCanceled()) {
            complete(Error::make(Error::Kind::Network, QStringLiteral("The request was canceled.")));
            return;
        }
        if (m_tooLarge) {
            failTooLarge(status);
            return;
        }
        if (m_deadlineExpired) {
            const Error failure = Error::make(Error::Kind::Timeout,
                                              QStringLiteral("Prometheus at %1 did not finish its answer within %2; it "
                                                             "arrives too slowly.")
                                                  .arg(m_url, formatDuration(m_deadlineMs)),
                                              status);
            report(false, failure.message);
            complete(failure);
            return;
        }
        if (error != QNetworkReply::NoError && isTransportError(error)) {
            const Error failure = transportError(error, status, reply->errorString());
            report(!failure.isSourceDown(), failure.message);
            complete(failure);
            return;
        }

        // An HTTP answer, whatever its status: the source is up. A 4xx/5xx body may still be
        // a Prometheus error in JSON, so the parser judges it.
        report(true, {});
        QByteArray body = std::move(m_body);
        body += reply->readAll();
        if (m_maxBodyBytes > 0 && body.size() > m_maxBodyBytes) {
            m_tooLargeBytes = body.size(); // a server that sent it all faster than we looked
            failTooLarge(status);
            return;
        }
        const QString reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        auto *watcher = new QFutureWatcher<QueryResult>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, status, reason] {
            if (watcher->isCanceled()) {
                complete(Error::make(Error::Kind::Parse, QStringLiteral("Parsing was canceled.")));
                return;
            }
            complete(withContext(watcher->future().takeResult(), status, reason));
        });
        watcher->setFuture(QtConcurrent::run([body = std::move(body), status, limits = m_limits] {
            return PrometheusResponseParser::parse(body, status, limits);
        }));
    }

    void failTooLarge(int status)
    {
        report(true, {});
        complete(Error::make(Error::Kind::TooLarge,
                             QStringLiteral("The answer from %1 is larger than the limit of %2 (at least %3); "
                                            "narrow the query, choose a larger step, or raise the limit.")
                                 .arg(m_url, formatBytes(m_maxBodyBytes), formatBytes(m_tooLargeBytes)),
                             status));
    }

    // Errors below HTTP: no answer, or no complete one.
    static bool isTransportError(QNetworkReply::NetworkError error)
    {
        return error > QNetworkReply::NoError && error < QNetworkReply::ContentAccessDenied;
    }

    Error transportError(QNetworkReply::NetworkError error, int status, const QString &qtMessage) const
    {
        using Kind = Error::Kind;
        switch (error) {
        case QNetworkReply::ConnectionRefusedError:
            return Error::make(Kind::Network, QStringLiteral("Prometheus at %1 refused the connection; is it running, "
                                                             "and are host and port right?")
                                                  .arg(m_url));
        case QNetworkReply::HostNotFoundError:
            return Error::make(Kind::Network,
                               QStringLiteral("The host of %1 was not found; check the Prometheus URL.").arg(m_url));
        case QNetworkReply::TimeoutError:
        case QNetworkReply::OperationCanceledError: // the transfer timeout aborts like this in 6.4
            if (status != 0)
                return Error::make(Kind::Timeout,
                                   QStringLiteral("Prometheus at %1 stopped sending its answer for %2.")
                                       .arg(m_url, formatDuration(m_timeoutMs)),
                                   status);
            return Error::make(
                Kind::Timeout,
                QStringLiteral("Prometheus at %1 did not answer within %2.").arg(m_url, formatDuration(m_timeoutMs)));
        case QNetworkReply::RemoteHostClosedError:
            if (status != 0)
                return Error::make(Kind::Network,
                                   QStringLiteral("Prometheus at %1 closed the connection in the middle "
                                                  "of its answer.")
                                       .arg(m_url),
                                   status);
            return Error::make(Kind::Network,
                               QStringLiteral("Prometheus at %1 closed the connection without answering.").arg(m_url));
        case QNetworkReply::SslHandshakeFailedError:
            return Error::make(Kind::Network,
                               QStringLiteral("The TLS certificate of Prometheus at %1 was not accepted: %2. "
                                              "Give its CA with --ca-file (or, on a test setup only, turn "
                                              "verification off with --insecure).")
                                   .arg(m_url, m_sslErrors.isEmpty() ? qtMessage : TlsSettings::describe(m_sslErrors)));
        case QNetworkReply::TooManyRedirectsError:
            return Error::make(Kind::Http,
                               QStringLiteral("%1 redirects in a loop (%2); enter the final URL "
                                              "as the Prometheus URL.")
                                   .arg(m_url, qtMessage),
                               status);
        case QNetworkReply::InsecureRedirectError:
            // The server answered, it only sent us elsewhere: a configuration problem.
            return Error::make(Kind::Http,
                               QStringLiteral("%1 redirects to another place (%2); enter the final "
                                              "URL as the Prometheus URL.")
                                   .arg(m_url, qtMessage),
                               status);
        default:
            return Error::make(Kind::Network,
                               QStringLiteral("Could not reach Prometheus at %1: %2").arg(m_url, qtMessage), status);
        }
    }

    // The parser knows the body, not where it came from; the user needs both.
    QueryResult withContext(QueryResult result, int status, const QString &reason) const
    {
        if (result.ok())
            return result;
        Error error = result.error();
        if (error.kind == Error::Kind::Http) {
            QString message = QStringLiteral("Prometheus at %1 answered HTTP %2").arg(m_url).arg(status);
            if (!reason.isEmpty())
                message += QLatin1Char(' ') + reason;
            if (status == 401)
                message += QStringLiteral("; check the token or the user and password");
            else if (status == 403)
                message += QStringLiteral("; the credentials are not allowed to query");
            else if (status == 404)
                message += QStringLiteral("; check the path prefix of the URL");
            if (!error.detail.isEmpty())
                message += QStringLiteral(": \"%1\"").arg(error.detail);
            error.message = message;
            if (status == 429)
                error.message += QStringLiteral("; it asks for fewer requests");
        } else if (error.kind == Error::Kind::Query && status == 429) {
            error.message += QStringLiteral(" (HTTP 429: it asks for fewer requests)");
        } else if (error.kind == Error::Kind::Parse) {
            error.message += QStringLiteral(" (from %1)").arg(m_url);
        }
        if (m_retryAfterMs && (status == 429 || status == 503))
            error.retryAfterMs = *m_retryAfterMs;
        return error;
    }

    void report(bool reachable, const QString &message)
    {
        if (m_report)
            m_report(reachable, message);
    }

    void complete(QueryResult result)
    {
        m_promise.addResult(std::move(result)); // ignored when the caller canceled
        m_promise.finish();
        deleteLater();
    }

    QPointer<QNetworkReply> m_reply;
    QString m_url;
    qint64 m_maxBodyBytes;
    int m_timeoutMs;
    int m_deadlineMs;
    PrometheusResponseParser::Limits m_limits;
    ReachabilityReport m_report;
    QTimer m_deadline;
    bool m_deadlineExpired = false;
    std::optional<int> m_retryAfterMs;
    QPromise<QueryResult> m_promise;
    QFutureWatcher<QueryResult> m_cancelWatcher; // after m_promise: destroyed before it
    QByteArray m_body;                           // what arrived so far
    QList<QSslError> m_sslErrors;
    qint64 m_tooLargeBytes = 0;
    bool m_tooLarge = false;
    bool m_canceled = false;
    bool m_finished = false;
};

// One request with its retries: each attempt waits for a turn among the source's requests in
// flight, a transient failure is sent again after the policy's wait, the last answer or
// failure is the result. Deletes itself once its future is finished.
class RetryingQuery : public QObject
{
public:
    // Sends one attempt; the exchange it creates is parented to the given owner.
    using SendAttempt = std::function<QFuture<QueryResult>(QObject *owner)>;

    RetryingQuery(SendAttempt send, RetryPolicy policy, RequestSlots *turns, QObject *parent)
        : QObject(parent), m_send(std::move(send)), m_policy(policy), m_slots(turns)
    {
        m_promise.start();
        m_wait.setSingleShot(true);
        connect(&m_wait, &QTimer::timeout, this, &RetryingQuery::waitForTurn);
        connect(&m_outerWatcher, &QFutureWatcherBase::canceled, this, [this] {
            m_attempt.cancel();
            finish(Error::make(Error::Kind::Network, QStringLiteral("The request was canceled.")));
        });
        m_outerWatcher.setFuture(m_promise.future());
    }

    ~RetryingQuery() override { releaseSlot(); }

    QFuture<QueryResult> start()
    {
        QFuture<QueryResult> future = m_promise.future();
        waitForTurn(); // may finish at once
        return future;
    }

private:
    void waitForTurn()
    {
        if (m_done)
            return;
        m_slots->acquire(this, [this] { launch(); });
    }

    void launch()
    {
        m_holdsSlot = true;
        if (m_done) {
            releaseSlot();
            return;
        }
        ++m_attempts;
        m_attempt = m_send(this);
        auto *watcher = new QFutureWatcher<QueryResult>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
            watcher->deleteLater();
            releaseSlot();
            if (m_done)
                return;
            if (watcher->isCanceled() || watcher->future().resultCount() == 0) {
                m_promise.future().cancel();
                return;
            }
            attemptFinished(watcher->future().takeResult());
        });
        watcher->setFuture(m_attempt);
    }

    void attemptFinished(QueryResult result)
    {
        if (!result.ok()) {
            if (const auto delay = m_policy.delayBeforeRetry(m_attempts, result.error())) {
                m_wait.start(*delay);
                return;
            }
        }
        finish(std::move(result));
    }

    void releaseSlot()
    {
        if (!m_holdsSlot)
            return;
        m_holdsSlot = false;
        m_slots->release();
    }

    void finish(QueryResult result)
    {
        if (m_done)
            return;
        m_done = true;
        m_wait.stop();
        releaseSlot();
        m_promise.addResult(std::move(result)); // ignored when the caller canceled
        m_promise.finish();
        deleteLater();
    }

    SendAttempt m_send;
    RetryPolicy m_policy;
    RequestSlots *m_slots;
    QTimer m_wait;
    QFuture<QueryResult> m_attempt;
    int m_attempts = 0;
    bool m_holdsSlot = false;
    bool m_done = false;
    QPromise<QueryResult> m_promise;
    QFutureWatcher<QueryResult> m_outerWatcher; // after m_promise: destroyed before it
};

// The chunks of one split range query: at most maxInFlight requests at once, the first error
// fails the whole call (and cancels the rest), the results are merged on a worker thread.
// Deletes itself once its future is finished.
class RangeQueryJob : public QObject
{
public:
    using SendChunk = std::function<QFuture<QueryResult>(const TimeRange &chunk)>;

    RangeQueryJob(std::vector<TimeRange> chunks, SendChunk send, int maxInFlight, int maxSeries, QObject *parent)
        : QObject(parent), m_chunks(std::move(chunks)), m_send(std::move(send)),
          m_maxInFlight(std::max(maxInFlight, 1)), m_maxSeries(maxSeries), m_results(m_chunks.size())
    {
        m_promise.start();
        connect(&m_outerWatcher, &QFutureWatcherBase::canceled, this, [this] {
            cancelInFlight();
            finish(Error::make(Error::Kind::Network, QStringLiteral("The request was canceled.")));
        });
        m_outerWatcher.setFuture(m_promise.future());
    }

    ~RangeQueryJob() override { cancelInFlight(); }

    QFuture<QueryResult> start()
    {
        launchMore();
        return m_promise.future();
    }

private:
    void launchMore()
    {
        while (!m_done && m_next < m_chunks.size() && m_inFlight.size() < static_cast<size_t>(m_maxInFlight)) {
            const size_t index = m_next++;
            QFuture<QueryResult> future = m_send(m_chunks[index]);
            m_inFlight.emplace(index, future);
            auto *watcher = new QFutureWatcher<QueryResult>(this);
            connect(watcher, &QFutureWatcherBase::finished, this,
                    [this, watcher, index] { chunkFinished(index, watcher); });
            watcher->setFuture(future);
        }
    }

    void chunkFinished(size_t index, QFutureWatcher<QueryResult> *watcher)
    {
        watcher->deleteLater();
        m_inFlight.erase(index);
        if (m_done)
            return;
        if (watcher->isCanceled() || watcher->future().resultCount() == 0) {
            m_promise.future().cancel();
            return;
        }
        QueryResult result = watcher->future().takeResult();
        if (!result.ok()) {
            cancelInFlight();
            finish(result.error());
            return;
        }
        m_results[index] = std::move(result).value();
        ++m_received;
        if (m_received == m_chunks.size()) {
            mergeAll();
            return;
        }
        launchMore();
    }

    void mergeAll()
    {
        auto *watcher = new QFutureWatcher<PromQueryResult>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
            if (!watcher->isCanceled())
                finish(watcher->future().takeResult());
        });
        watcher->setFuture(QtConcurrent::run([chunks = std::move(m_results), maxSeries = m_maxSeries]() mutable {
            return mergeRangeChunks(std::move(chunks), maxSeries);
        }));
    }

    void cancelInFlight()
    {
        for (auto &[index, future] : m_inFlight)
            future.cancel();
        m_inFlight.clear();
    }

    void finish(QueryResult result)
    {
        if (m_done)
            return;
        m_done = true;
        m_promise.addResult(std::move(result));
        m_promise.finish();
        deleteLater();
    }

    std::vector<TimeRange> m_chunks;
    SendChunk m_send;
    int m_maxInFlight;
    int m_maxSeries;
    std::vector<PromQueryResult> m_results; // by chunk index, in time order
    std::map<size_t, QFuture<QueryResult>> m_inFlight;
    size_t m_next = 0;
    size_t m_received = 0;
    bool m_done = false;
    QPromise<QueryResult> m_promise;
    QFutureWatcher<QueryResult> m_outerWatcher; // after m_promise: destroyed before it
};

} // namespace

PrometheusClient::PrometheusClient(PrometheusConnection connection, QObject *parent)
    : QObject(parent), m_connection(std::move(connection)), m_network(new QNetworkAccessManager(this))
{
    m_slots.setLimit(m_connection.maxRequestsInFlight);
}

PrometheusClient::~PrometheusClient()
{
    // Exchanges and jobs go first, while the manager their replies belong to still exists;
    // each cancels the future it handed out. A request that ends frees a turn: nobody may
    // take it now. Deleting one child can delete another, hence the guarded pointers.
    m_slots.close();
    const QObjectList children = this->children();
    std::vector<QPointer<QObject>> guarded(children.begin(), children.end());
    for (const QPointer<QObject> &child : guarded) {
        if (child && child != m_network)
            delete child.data();
    }
}

void PrometheusClient::setConnection(PrometheusConnection connection)
{
    m_connection = std::move(connection);
    m_slots.setLimit(m_connection.maxRequestsInFlight);
    m_reachable.reset();
    ++m_generation; // answers to requests sent before say nothing about the new source
}

QUrl PrometheusClient::apiUrl(const QString &apiPath) const
{
    QUrl url = m_connection.baseUrl;
    QString path = url.path();
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    QString relative = apiPath;
    while (relative.startsWith(QLatin1Char('/')))
        relative.remove(0, 1);
    url.setPath(path + relative);
    url.setFragment({});
    return url;
}

QFuture<Result<PromQueryResult>> PrometheusClient::instantQuery(const QString &query, std::optional<qint64> timeMs)
{
    Params params{{QStringLiteral("query"), query}};
    if (timeMs)
        params.append({QStringLiteral("time"), formatSeconds(*timeMs)});
    return send(QStringLiteral("api/v1/query"), params);
}

QFuture<Result<PromQueryResult>> PrometheusClient::rangeQuery(const QString &query, const TimeRange &range,
                                                              qint64 stepMs)
{
    if (stepMs <= 0)
        return readyFuture(
            Error::make(Error::Kind::Invalid, QStringLiteral("The step of a range query must be positive.")));
    if (range.isEmpty())
        return readyFuture(
            Error::make(Error::Kind::Invalid, QStringLiteral("The range of a range query ends before it starts.")));

    // Counted before splitting: a mistaken step must not allocate millions of chunks.
    const qint64 points = (range.endMs - range.startMs) / stepMs + 1;
    const qint64 maxPoints = std::max(m_connection.maxPointsPerRequest, 1);
    if ((points + maxPoints - 1) / maxPoints > static_cast<qint64>(kMaxChunksPerQuery))
        return readyFuture(
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("The range asks for %1 points per series; choose a larger step.").arg(points)));
    std::vector<TimeRange> chunks = StepPlanner::splitRange(range, stepMs, m_connection.maxPointsPerRequest);

    auto sendChunk = [this, query, stepMs](const TimeRange &chunk) {
        return send(QStringLiteral("api/v1/query_range"), {{QStringLiteral("query"), query},
                                                           {QStringLiteral("start"), formatSeconds(chunk.startMs)},
                                                           {QStringLiteral("end"), formatSeconds(chunk.endMs)},
                                                           {QStringLiteral("step"), formatSeconds(stepMs)}});
    };
    if (chunks.size() == 1)
        return sendChunk(chunks.front());
    auto *job = new RangeQueryJob(std::move(chunks), sendChunk, m_connection.maxChunkRequestsInFlight,
                                  m_connection.parserLimits.maxSeries, this);
    return job->start();
}

QNetworkRequest PrometheusClient::makeRequest(const QUrl &url) const
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Chaoscope/" CHAOSCOPE_VERSION));
    if (!m_connection.bearerToken.isEmpty()) {
        request.setRawHeader("Authorization", "Bearer " + m_connection.bearerToken.toUtf8());
    } else if (!m_connection.basicUser.isEmpty()) {
        const QByteArray credentials =
            (m_connection.basicUser + QLatin1Char(':') + m_connection.basicPassword).toUtf8();
        request.setRawHeader("Authorization", "Basic " + credentials.toBase64());
    }
    for (const auto &[name, value] : m_connection.extraHeaders)
        request.setRawHeader(name, value);
    m_connection.tls.applyTo(request);
    // Credentials must not follow a redirect to another server.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    if (m_connection.timeoutMs > 0)
        request.setTransferTimeout(m_connection.timeoutMs);
    // Our own cap guards the decompressed size; Qt's ratio check would refuse large, very
    // compressible (repetitive JSON) answers well below it.
    if (m_connection.maxBodyBytes > 0)
        request.setDecompressedSafetyCheckThreshold(m_connection.maxBodyBytes);
    return request;
}

QFuture<Result<PromQueryResult>> PrometheusClient::send(const QString &apiPath, const Params &params)
{
    const QUrl base = m_connection.baseUrl;
    const QString scheme = base.scheme().toLower();
    if (!base.isValid() || base.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return readyFuture(
            Error::make(Error::Kind::Invalid, QStringLiteral("The Prometheus URL \"%1\" is not an http:// or "
                                                             "https:// URL with a host.")
                                                  .arg(base.toDisplayString(QUrl::RemoveUserInfo))));

    QUrl url = apiUrl(apiPath);
    const QByteArray form = encodeForm(params);
    const bool usePost = form.size() > m_connection.maxGetQueryBytes;
    if (!usePost) {
        QByteArray query = url.query(QUrl::FullyEncoded).toLatin1();
        if (!query.isEmpty())
            query += '&';
        query += form;
        // Strict parsing keeps our %2B as %2B (tolerant mode may not).
        url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
    }

    QNetworkRequest request = makeRequest(url);
    if (usePost)
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/x-www-form-urlencoded"));
    auto sendAttempt = [this, request, form, usePost](QObject *owner) {
        return sendOnce(request, form, usePost, owner);
    };
    auto *query = new RetryingQuery(sendAttempt, RetryPolicy(m_connection.retry), &m_slots, this);
    return query->start();
}

QFuture<Result<PromQueryResult>> PrometheusClient::sendOnce(const QNetworkRequest &request, const QByteArray &form,
                                                            bool usePost, QObject *owner)
{
    QNetworkReply *reply = usePost ? m_network->post(request, form) : m_network->get(request);
    const quint64 generation = m_generation;
    auto report = [this, generation](bool reachable, const QString &message) {
        if (generation == m_generation)
            updateReachability(reachable, message);
    };
    auto *exchange = new QueryExchange(reply, m_connection, report, owner);
    return exchange->future();
}

void PrometheusClient::updateReachability(bool reachable, const QString &message)
{
    if (m_reachable == reachable)
        return;
    m_reachable = reachable;
    const QString text = reachable ? QStringLiteral("Prometheus at %1 answers.")
                                         .arg(m_connection.baseUrl.toDisplayString(QUrl::RemoveUserInfo))
                                   : message;
    emit reachabilityChanged(reachable, text);
}
