// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/prometheusclient.h"

#include "base/whenfinished.h"
#include "net/parseoffthread.h"
#include "net/promisejob.h"
#include "net/retryingrequest.h"
#include "net/transporterror.h"

#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QPromise>
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

// The chunks of one split range query: at most maxInFlight requests at once, the first error
// fails the whole call (and cancels the rest), the results are merged on a worker thread.
// Deletes itself once its future is finished.
class RangeQueryJob : public PromiseJob<QueryResult>
{
public:
    using SendChunk = std::function<QFuture<QueryResult>(const TimeRange &chunk)>;

    RangeQueryJob(std::vector<TimeRange> chunks, SendChunk send, int maxInFlight, int maxSeries, QObject *parent)
        : PromiseJob<QueryResult>(parent), m_chunks(std::move(chunks)), m_send(std::move(send)),
          m_maxInFlight(std::max(maxInFlight, 1)), m_maxSeries(maxSeries), m_results(m_chunks.size())
    {}

    ~RangeQueryJob() override { cancelInFlight(); }

    QFuture<QueryResult> start()
    {
        QFuture<QueryResult> promised = future();
        launchMore();
        return promised;
    }

private:
    void launchMore()
    {
        while (!isDone() && m_next < m_chunks.size() && m_inFlight.size() < static_cast<size_t>(m_maxInFlight)) {
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
        if (isDone())
            return;
        if (watcher->isCanceled() || watcher->future().resultCount() == 0) {
            cancelInFlight();
            answerNothing();
            return;
        }
        QueryResult result = watcher->future().takeResult();
        if (!result.ok()) {
            cancelInFlight();
            answer(result.error());
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
                answer(watcher->future().takeResult());
        });
        watcher->setFuture(QtConcurrent::run([chunks = std::move(m_results), maxSeries = m_maxSeries]() mutable {
            return mergeRangeChunks(std::move(chunks), maxSeries);
        }));
    }

    void cancelled() override { cancelInFlight(); }

    void cancelInFlight()
    {
        for (auto &[index, future] : m_inFlight)
            future.cancel();
        m_inFlight.clear();
    }

    std::vector<TimeRange> m_chunks;
    SendChunk m_send;
    int m_maxInFlight;
    int m_maxSeries;
    std::vector<PromQueryResult> m_results; // by chunk index, in time order
    std::map<size_t, QFuture<QueryResult>> m_inFlight;
    size_t m_next = 0;
    size_t m_received = 0;
};

} // namespace

PrometheusClient::PrometheusClient(PrometheusConnection connection, QObject *parent)
    : QObject(parent), m_connection(std::move(connection)), m_network(new QNetworkAccessManager(this))
{
    m_slots.setLimit(m_connection.maxRequestsInFlight);
}

PrometheusClient::~PrometheusClient()
{
    // Requests and jobs go first, while the manager their replies belong to still exists;
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
    m_generation.advance(); // answers to requests sent before say nothing about the new source
}

QUrl PrometheusClient::apiUrl(const QString &apiPath) const
{
    return Http::join(m_connection.baseUrl, apiPath);
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
        return finishedFuture<QueryResult>(
            Error::make(Error::Kind::Invalid, QStringLiteral("The step of a range query must be positive.")));
    if (range.isEmpty())
        return finishedFuture<QueryResult>(
            Error::make(Error::Kind::Invalid, QStringLiteral("The range of a range query ends before it starts.")));

    // Counted before splitting: a mistaken step must not allocate millions of chunks.
    const qint64 points = (range.endMs - range.startMs) / stepMs + 1;
    const qint64 maxPoints = std::max(m_connection.maxPointsPerRequest, 1);
    if ((points + maxPoints - 1) / maxPoints > static_cast<qint64>(kMaxChunksPerQuery))
        return finishedFuture<QueryResult>(
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("The range asks for %1 points per series; choose a larger step.").arg(points)));
    std::vector<TimeRange> chunks = StepPlanner::splitRange(range, stepMs, m_connection.maxPointsPerRequest);

    auto sendChunk = [this, query, stepMs](const TimeRange &chunk) {
        return send(QStringLiteral("api/v1/query_range"),
                    {{QStringLiteral("query"), query},
                     {QStringLiteral("start"), formatSeconds(chunk.startMs)},
                     {QStringLiteral("end"), formatSeconds(chunk.endMs)},
                     {QStringLiteral("step"), formatSeconds(stepMs)}},
                    RangeAsked{chunk, stepMs});
    };
    if (chunks.size() == 1)
        return sendChunk(chunks.front());
    auto *job = new RangeQueryJob(std::move(chunks), sendChunk, m_connection.maxChunkRequestsInFlight,
                                  m_connection.parserLimits.maxSeries, this);
    return job->start();
}

HttpCall PrometheusClient::callFor(const QString &apiPath, const Params &params, bool allowPost) const
{
    HttpCall call;
    call.url = apiUrl(apiPath);
    const QByteArray form = encodeForm(params);
    if (allowPost && form.size() > m_connection.maxGetQueryBytes) {
        call.method = "POST";
        call.body = form;
        call.contentType = QByteArrayLiteral("application/x-www-form-urlencoded");
    } else if (!form.isEmpty()) {
        QByteArray query = call.url.query(QUrl::FullyEncoded).toLatin1();
        if (!query.isEmpty())
            query += '&';
        query += form;
        // Strict parsing keeps our %2B as %2B (tolerant mode may not).
        call.url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
    }
    // Secrets: only ever in these headers, never in a message (they name the URL without
    // user info).
    call.authorization = !m_connection.bearerToken.isEmpty()
                             ? Http::bearer(m_connection.bearerToken)
                             : Http::basic(m_connection.basicUser, m_connection.basicPassword);
    call.headers = m_connection.extraHeaders;
    call.tls = m_connection.tls;
    return call;
}

HttpTarget PrometheusClient::target() const
{
    HttpTarget target;
    target.who = QStringLiteral("Prometheus");
    target.timeoutMs = m_connection.timeoutMs;
    target.deadlineMs = m_connection.requestDeadlineMs;
    target.maxBodyBytes = m_connection.maxBodyBytes;
    return target;
}

QFuture<Result<PromQueryResult>> PrometheusClient::send(const QString &apiPath, const Params &params,
                                                        std::optional<RangeAsked> rangeAsked)
{
    // Judged on the URL as the user gave it, not as joined with the API path.
    if (std::optional<Error> invalid = Http::checkUrl(QStringLiteral("Prometheus"), m_connection.baseUrl))
        return finishedFuture<QueryResult>(std::move(*invalid));
    HttpTarget queryTarget = target();
    queryTarget.tooLargeAdvice = QStringLiteral("narrow the query, choose a larger step, or raise the limit.");
    const PrometheusResponseParser::Limits limits = m_connection.parserLimits;
    auto attempt = [this, call = callFor(apiPath, params, true), queryTarget, limits, rangeAsked](QObject *owner) {
        return parseOffThread<PromQueryResult>(
            exchangeOnce(call, queryTarget, owner), owner,
            [limits, rangeAsked](const HttpAnswer &answer) -> QueryResult {
                QueryResult parsed = PrometheusResponseParser::parse(answer.body, answer.status, limits);
                if (parsed.ok() && rangeAsked)
                    parsed = PrometheusResponseParser::checkRangeAnswer(std::move(parsed).value(), rangeAsked->range,
                                                                        rangeAsked->stepMs);
                if (parsed.ok())
                    return parsed;
                return withContext(parsed.error(), answer);
            });
    };
    return RetryingRequest<PromQueryResult>::send(attempt, RetryPolicy(m_connection.retry), &m_slots, this);
}

QFuture<Result<HttpAnswer>> PrometheusClient::get(const QString &apiPath, const Params &params)
{
    if (std::optional<Error> invalid = Http::checkUrl(QStringLiteral("Prometheus"), m_connection.baseUrl))
        return finishedFuture<Result<HttpAnswer>>(std::move(*invalid));
    auto attempt = [this, call = callFor(apiPath, params, false), target = target()](QObject *owner) {
        // The answer goes to the retry on a future of its own: the reachability watches the
        // exchange's.
        auto promise = std::make_shared<QPromise<Result<HttpAnswer>>>();
        promise->start();
        forwardTo(exchangeOnce(call, target, owner), owner, promise);
        return promise->future();
    };
    return RetryingRequest<HttpAnswer>::send(attempt, RetryPolicy(m_connection.retry), &m_slots, this,
                                             &Http::retryReason);
}

QFuture<Result<HttpAnswer>> PrometheusClient::exchangeOnce(const HttpCall &call, const HttpTarget &target,
                                                           QObject *owner)
{
    QFuture<Result<HttpAnswer>> answer = Http::exchange(m_network, call, target, owner);
    // Any HTTP answer, or a failure after one (too large, a redirect), says the source is up;
    // refused, unreachable or silent says it is down. Answers from before setConnection say
    // nothing about the source now.
    whenFinishedIfCurrent(answer, this, m_generation, [this](const Result<HttpAnswer> &result) {
        // ... except a gateway or an overloaded server (502, 503, 504): something answers,
        // but not Prometheus, and no query will until it comes back.
        if (result.ok() && (result->status == 502 || result->status == 503 || result->status == 504)) {
            QString message = QStringLiteral("Prometheus at %1 answered HTTP %2")
                                  .arg(TransportFailure::displayUrl(result->url))
                                  .arg(result->status);
            if (!result->reason.isEmpty())
                message += QLatin1Char(' ') + result->reason;
            updateReachability(false, message + QStringLiteral("; it cannot answer queries now."));
        } else if (result.ok())
            updateReachability(true, {});
        else if (result.error().kind != Error::Kind::Cancelled && result.error().kind != Error::Kind::Invalid)
            updateReachability(!result.error().isSourceDown(), result.error().message);
    });
    return answer;
}

Error PrometheusClient::withContext(Error error, const HttpAnswer &answer)
{
    const QString where = TransportFailure::displayUrl(answer.url);
    const int status = answer.status;
    if (error.kind == Error::Kind::Http) {
        QString message = QStringLiteral("Prometheus at %1 answered HTTP %2").arg(where).arg(status);
        if (!answer.reason.isEmpty())
            message += QLatin1Char(' ') + answer.reason;
        if (status == 401)
            message += QStringLiteral("; check the token or the user and password");
        else if (status == 403)
            message += QStringLiteral("; the credentials are not allowed to query");
        else if (status == 404)
            message += QStringLiteral("; check the path prefix of the URL");
        if (!error.detail.isEmpty())
            message += QStringLiteral(": \"%1\"").arg(error.detail);
        if (status == 429)
            message += QStringLiteral("; it asks for fewer requests");
        error.message = message;
    } else if (error.kind == Error::Kind::Query && status == 429) {
        error.message += QStringLiteral(" (HTTP 429: it asks for fewer requests)");
    } else if (error.kind == Error::Kind::Parse) {
        error.message += QStringLiteral(" (from %1)").arg(where);
    }
    if (answer.retryAfterMs && (status == 429 || status == 503))
        error.retryAfterMs = *answer.retryAfterMs;
    return error;
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
