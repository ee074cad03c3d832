// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/httpexchange.h"

#include "base/whenfinished.h"
#include "net/retrypolicy.h"
#include "net/transporterror.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QPromise>
#include <QSslError>
#include <QTimer>
#include <algorithm>
#include <utility>

namespace {

using AnswerResult = Result<HttpAnswer>;
using Fault = TransportFailure::Fault;

// How much of an answer the network layer may hold before we have taken it.
constexpr qint64 kReadBufferBytes = 1024LL * 1024;

QNetworkRequest makeRequest(const HttpCall &call, const HttpTarget &target)
{
    QNetworkRequest request(call.url);
    request.setRawHeader("Accept", "application/json");
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Chaoscope/" CHAOSCOPE_VERSION));
    if (!call.authorization.isEmpty())
        request.setRawHeader("Authorization", call.authorization);
    if (!call.contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, call.contentType);
    for (const auto &[name, value] : call.headers)
        request.setRawHeader(name, value);
    call.tls.applyTo(request);
    // Credentials must not follow a redirect to another server.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    if (target.timeoutMs > 0)
        request.setTransferTimeout(target.timeoutMs);
    // Our own cap guards the decompressed size; Qt's ratio check would refuse large, very
    // compressible (repetitive JSON) answers well below it.
    if (target.maxBodyBytes > 0)
        request.setDecompressedSafetyCheckThreshold(target.maxBodyBytes);
    return request;
}

// One request and its answer: watches the size and the time while the answer arrives and
// turns what goes wrong into the one wording. Deletes itself once its future is finished;
// its owner deletes the unfinished ones (cancelling their futures) when it goes.
class Exchange : public QObject
{
public:
    Exchange(QNetworkReply *reply, HttpTarget target, std::function<void(const QByteArray &)> onBodyPiece,
             QObject *owner)
        : QObject(owner), m_reply(reply), m_url(reply->url()), m_target(std::move(target)),
          m_onBodyPiece(std::move(onBodyPiece))
    {
        if (m_onBodyPiece)
            m_target.maxBodyBytes = 0; // a stream has no end to cap
        m_promise.start();
        // The transfer timeout only notices silence; an answer trickling in a byte at a time
        // would hold its caller forever without this.
        if (m_target.deadlineMs > 0) {
            m_deadline.setSingleShot(true);
            connect(&m_deadline, &QTimer::timeout, this, [this] { abortFor(m_deadlineExpired); });
            m_deadline.start(m_target.deadlineMs);
        }
        // A caller that cancels its future does not want the answer: stop the transfer.
        connect(&m_cancelWatcher, &QFutureWatcherBase::canceled, this, [this] { abortFor(m_cancelled); });
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
            if (m_onBodyPiece && isSuccessStatus()) {
                // Called from a copy, and nothing after the call: its receiver may end the
                // exchange, and this object with it.
                const std::function<void(const QByteArray &)> onPiece = m_onBodyPiece;
                onPiece(m_reply->readAll());
                return;
            }
            m_body += m_reply->readAll();
            refuseIfTooLarge(m_body.size());
        });
        // Verification failures are kept for the message: the user must learn which
        // certificate problem it was, and nothing here ever ignores them.
        connect(reply, &QNetworkReply::sslErrors, this,
                [this](const QList<QSslError> &errors) { m_sslErrors += errors; });
        connect(reply, &QNetworkReply::finished, this, &Exchange::onFinished);
    }

    ~Exchange() override
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

    QFuture<AnswerResult> future() const { return m_promise.future(); }

private:
    bool isSuccessStatus() const
    {
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return status >= 200 && status < 300;
    }

    // Aborts the transfer, remembering why; finished follows, synchronously.
    void abortFor(bool &reason)
    {
        if (!m_reply || !m_reply->isRunning())
            return;
        reason = true;
        m_reply->abort();
    }

    void refuseIfTooLarge(qint64 bytes)
    {
        if (m_tooLarge || m_target.maxBodyBytes <= 0 || bytes <= m_target.maxBodyBytes)
            return;
        m_tooLargeBytes = bytes;
        abortFor(m_tooLarge);
    }

    TransportFailure failure(Fault fault, int status) const
    {
        TransportFailure failure;
        failure.fault = fault;
        failure.who = m_target.who;
        failure.url = m_url;
        failure.httpStatus = status;
        failure.timeoutMs = m_target.timeoutMs;
        failure.deadlineMs = m_target.deadlineMs;
        failure.limitBytes = m_target.maxBodyBytes;
        failure.seenBytes = m_tooLargeBytes;
        failure.tooLargeAdvice = m_target.tooLargeAdvice;
        return failure;
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
        const QNetworkReply::NetworkError error = reply->error();
        if (m_cancelled || m_promise.isCanceled()) {
            complete(transportError(failure(Fault::Cancelled, status)));
            return;
        }
        if (m_tooLarge) {
            complete(transportError(failure(Fault::TooLarge, status)));
            return;
        }
        if (m_deadlineExpired) {
            complete(transportError(failure(Fault::TooSlow, status)));
            return;
        }
        if (TransportFailure::isTransportFailure(error, status)) {
            TransportFailure failed = failure(TransportFailure::faultOf(error, status), status);
            failed.detail = failed.fault == Fault::Tls && !m_sslErrors.isEmpty() ? TlsSettings::describe(m_sslErrors)
                                                                                 : reply->errorString();
            complete(transportError(failed));
            return;
        }

        HttpAnswer answer;
        answer.url = m_url;
        answer.status = status;
        answer.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        answer.contentType =
            reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().split(';').value(0).trimmed().toLower();
        answer.retryAfterMs =
            RetryPolicy::parseRetryAfter(reply->rawHeader("Retry-After"), QDateTime::currentMSecsSinceEpoch());
        answer.body = std::move(m_body);
        if (m_onBodyPiece && answer.isSuccess()) {
            if (const QByteArray rest = reply->readAll(); !rest.isEmpty()) {
                const QPointer<Exchange> alive(this); // the receiver may end the exchange
                const std::function<void(const QByteArray &)> onPiece = m_onBodyPiece;
                onPiece(rest);
                if (!alive)
                    return;
            }
        } else {
            answer.body += reply->readAll();
        }
        if (m_target.maxBodyBytes > 0 && answer.body.size() > m_target.maxBodyBytes) {
            m_tooLargeBytes = answer.body.size(); // a server that sent it all faster than we looked
            complete(transportError(failure(Fault::TooLarge, status)));
            return;
        }
        complete(std::move(answer));
    }

    void complete(AnswerResult result)
    {
        m_promise.addResult(std::move(result)); // ignored when the caller cancelled
        m_promise.finish();
        deleteLater();
    }

    QPointer<QNetworkReply> m_reply;
    QUrl m_url;
    HttpTarget m_target;
    std::function<void(const QByteArray &)> m_onBodyPiece;
    QTimer m_deadline;
    QPromise<AnswerResult> m_promise;
    QFutureWatcher<AnswerResult> m_cancelWatcher; // after m_promise: destroyed before it
    QByteArray m_body;                            // what arrived so far
    QList<QSslError> m_sslErrors;
    qint64 m_tooLargeBytes = 0;
    bool m_tooLarge = false;
    bool m_deadlineExpired = false;
    bool m_cancelled = false;
    bool m_finished = false;
};

} // namespace

QString HttpAnswer::hostPort() const
{
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

QString HttpAnswer::bodySnippet(int maxChars) const
{
    QString text = QString::fromUtf8(body.left(qsizetype(maxChars) * 4)).simplified();
    if (text.size() > maxChars)
        text = text.left(maxChars) + QStringLiteral("…");
    return text;
}

namespace Http {

QFuture<Result<HttpAnswer>> exchange(QNetworkAccessManager *network, const HttpCall &call, const HttpTarget &target,
                                     QObject *owner)
{
    if (std::optional<Error> invalid = checkUrl(target.who, call.url))
        return finishedFuture(AnswerResult(std::move(*invalid)));
    const QNetworkRequest request = makeRequest(call, target);
    QNetworkReply *reply = nullptr;
    if (call.method == "GET")
        reply = network->get(request);
    else if (call.method == "POST")
        reply = network->post(request, call.body);
    else
        reply = network->sendCustomRequest(request, call.method, call.body);
    auto *exchange = new Exchange(reply, target, call.onBodyPiece, owner);
    return exchange->future();
}

std::optional<Error> checkUrl(const QString &who, const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    if (url.isValid() && !url.host().isEmpty() && (scheme == QLatin1String("http") || scheme == QLatin1String("https")))
        return std::nullopt;
    TransportFailure invalid;
    invalid.fault = Fault::InvalidUrl;
    invalid.who = who;
    invalid.url = url;
    return transportError(invalid);
}

QUrl join(const QUrl &baseUrl, const QString &path)
{
    QUrl url = baseUrl;
    QString prefix = url.path();
    if (!prefix.endsWith(QLatin1Char('/')))
        prefix += QLatin1Char('/');
    QString relative = path;
    while (relative.startsWith(QLatin1Char('/')))
        relative.remove(0, 1);
    url.setPath(prefix + relative);
    url.setFragment(QString());
    return url;
}

QByteArray bearer(const QString &token)
{
    return token.isEmpty() ? QByteArray() : "Bearer " + token.toUtf8();
}

QByteArray basic(const QString &user, const QString &password)
{
    return user.isEmpty() ? QByteArray() : "Basic " + (user + QLatin1Char(':') + password).toUtf8().toBase64();
}

std::optional<Error> retryReason(const Result<HttpAnswer> &result)
{
    if (!result.ok())
        return result.error();
    if (result->isSuccess())
        return std::nullopt;
    Error error = Error::make(Error::Kind::Http, QString(), result->status);
    error.retryAfterMs = result->retryAfterMs.value_or(-1);
    return error;
}

} // namespace Http
