// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/loadtesterhttp.h"

#include <QFutureWatcher>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QSslError>

namespace {

TlsSettings &processTls()
{
    static TlsSettings tls;
    return tls;
}

QString formatDuration(int ms)
{
    if (ms % 1000 == 0)
        return QStringLiteral("%1 s").arg(ms / 1000);
    return QStringLiteral("%1 ms").arg(ms);
}

// One request and its answer. Deletes itself once its future is finished; the transport
// deletes the unfinished ones (canceling their futures) when it goes.
class HttpExchange : public QObject
{
public:
    HttpExchange(QNetworkReply *reply, QString backendName, int timeoutMs, QObject *parent)
        : QObject(parent), m_reply(reply), m_url(reply->url()),
          m_displayUrl(reply->url().toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery)),
          m_backendName(std::move(backendName)), m_timeoutMs(timeoutMs)
    {
        m_promise.start();
        // A caller that cancels its future does not want the answer: stop the transfer.
        connect(&m_cancelWatcher, &QFutureWatcherBase::canceled, this, [this] {
            if (m_reply && m_reply->isRunning())
                m_reply->abort();
        });
        m_cancelWatcher.setFuture(m_promise.future());
        connect(reply, &QNetworkReply::downloadProgress, this,
                [this](qint64 received, qint64 total) { refuseIfTooLarge(std::max(received, total)); });
        // Kept for the message: which certificate problem it was; never ignored.
        connect(reply, &QNetworkReply::sslErrors, this,
                [this](const QList<QSslError> &errors) { m_sslErrors += errors; });
        connect(reply, &QNetworkReply::finished, this, &HttpExchange::onFinished);
    }

    ~HttpExchange() override
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

    QFuture<Result<HttpAnswer>> future() const { return m_promise.future(); }

private:
    void refuseIfTooLarge(qint64 bytes)
    {
        if (m_tooLarge || bytes <= LoadTesterHttp::kMaxBodyBytes || !m_reply || !m_reply->isRunning())
            return;
        m_tooLarge = true;
        m_reply->abort(); // finished follows
    }

    void onFinished()
    {
        QNetworkReply *reply = m_reply;
        if (!reply)
            return;
        m_reply = nullptr;
        reply->deleteLater();

        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QNetworkReply::NetworkError error = reply->error();
        if (m_promise.isCanceled()) {
            complete(Error::make(Error::Kind::Network, QStringLiteral("The request was canceled.")));
            return;
        }
        if (m_tooLarge) {
            complete(Error::make(Error::Kind::TooLarge,
                                 QStringLiteral("%1 at %2 sent an answer larger than %3 MiB; is this "
                                                "the right URL?")
                                     .arg(m_backendName, m_displayUrl)
                                     .arg(LoadTesterHttp::kMaxBodyBytes / (1024 * 1024)),
                                 status));
            return;
        }
        // Qt reports 4xx/5xx as errors too; those are answers for the adapter to read.
        const bool transportFailed =
            error != QNetworkReply::NoError && (status == 0 || error < QNetworkReply::ContentAccessDenied);
        if (transportFailed) {
            complete(transportError(error, status, reply->errorString()));
            return;
        }
        HttpAnswer answer;
        answer.url = m_url;
        answer.status = status;
        answer.contentType =
            reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().split(';').value(0).trimmed().toLower();
        answer.body = reply->readAll();
        complete(std::move(answer));
    }

    Error transportError(QNetworkReply::NetworkError error, int status, const QString &qtMessage) const
    {
        using Kind = Error::Kind;
        switch (error) {
        case QNetworkReply::ConnectionRefusedError:
            return Error::make(Kind::Network, QStringLiteral("%1 at %2 refused the connection; is it running, and are "
                                                             "host and port right?")
                                                  .arg(m_backendName, m_displayUrl));
        case QNetworkReply::HostNotFoundError:
            return Error::make(
                Kind::Network,
                QStringLiteral("the host of %1 was not found; check the URL of %2.").arg(m_displayUrl, m_backendName));
        case QNetworkReply::TimeoutError:
        case QNetworkReply::OperationCanceledError: // the transfer timeout aborts like this in 6.4
            return Error::make(Kind::Timeout,
                               QStringLiteral("%1 at %2 did not answer within %3.")
                                   .arg(m_backendName, m_displayUrl, formatDuration(m_timeoutMs)),
                               status);
        case QNetworkReply::SslHandshakeFailedError:
            return Error::make(Kind::Network,
                               QStringLiteral("the TLS certificate of %1 at %2 was not accepted: %3. Give "
                                              "its CA with --ca-file (or, on a test setup only, turn "
                                              "verification off with --insecure).")
                                   .arg(m_backendName, m_displayUrl,
                                        m_sslErrors.isEmpty() ? qtMessage : TlsSettings::describe(m_sslErrors)));
        case QNetworkReply::RemoteHostClosedError:
            return Error::make(Kind::Network,
                               QStringLiteral("%1 at %2 closed the connection without a complete answer.")
                                   .arg(m_backendName, m_displayUrl),
                               status);
        default:
            return Error::make(
                Kind::Network,
                QStringLiteral("could not reach %1 at %2: %3").arg(m_backendName, m_displayUrl, qtMessage), status);
        }
    }

    void complete(Result<HttpAnswer> result)
    {
        m_promise.addResult(std::move(result)); // ignored when the caller canceled
        m_promise.finish();
        deleteLater();
    }

    QPointer<QNetworkReply> m_reply;
    QUrl m_url;
    QString m_displayUrl;
    QString m_backendName;
    int m_timeoutMs;
    QPromise<Result<HttpAnswer>> m_promise;
    QFutureWatcher<Result<HttpAnswer>> m_cancelWatcher; // after m_promise: destroyed before it
    bool m_tooLarge = false;
    QList<QSslError> m_sslErrors;
};

} // namespace

QString HttpAnswer::hostPort() const
{
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

QString HttpAnswer::bodySnippet(int maxChars) const
{
    QString text = QString::fromUtf8(body.left(maxChars * 4)).simplified();
    if (text.size() > maxChars)
        text = text.left(maxChars) + QStringLiteral("…");
    return text;
}

LoadTesterHttp::LoadTesterHttp(QString backendName, QString bearerToken, QObject *parent)
    : QObject(parent), m_backendName(std::move(backendName)), m_network(new QNetworkAccessManager(this))
{
    if (!bearerToken.isEmpty())
        m_authorization = "Bearer " + bearerToken.toUtf8();
}

LoadTesterHttp::~LoadTesterHttp()
{
    // Exchanges go first, while the manager their replies belong to still exists; each
    // cancels the future it handed out.
    const QObjectList children = this->children();
    for (QObject *child : children) {
        if (child != m_network)
            delete child;
    }
}

void LoadTesterHttp::setDefaultTls(const TlsSettings &tls)
{
    processTls() = tls;
}

const TlsSettings &LoadTesterHttp::defaultTls()
{
    return processTls();
}

QUrl LoadTesterHttp::join(const QUrl &baseUrl, const QString &path)
{
    QUrl url = baseUrl;
    QString prefix = url.path();
    if (!prefix.endsWith(QLatin1Char('/')))
        prefix += QLatin1Char('/');
    QString relative = path;
    while (relative.startsWith(QLatin1Char('/')))
        relative.remove(0, 1);
    url.setPath(prefix + relative);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

QFuture<Result<HttpAnswer>> LoadTesterHttp::send(const QByteArray &method, const QUrl &url, int timeoutMs,
                                                 const QByteArray &body, const QByteArray &contentType)
{
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return finishedFuture(Result<HttpAnswer>(Error::make(
            Error::Kind::Invalid, QStringLiteral("the URL \"%1\" of %2 is not an http:// or https:// URL with a host.")
                                      .arg(url.toDisplayString(QUrl::RemoveUserInfo), m_backendName))));

    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Chaoscope/" CHAOSCOPE_VERSION));
    if (!m_authorization.isEmpty())
        request.setRawHeader("Authorization", m_authorization);
    if (!contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    // The token must not follow a redirect to another server.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    if (timeoutMs > 0)
        request.setTransferTimeout(timeoutMs);
    processTls().applyTo(request);

    QNetworkReply *reply = nullptr;
    if (method == "GET")
        reply = m_network->get(request);
    else
        reply = m_network->sendCustomRequest(request, method, body);
    auto *exchange = new HttpExchange(reply, m_backendName, timeoutMs, this);
    return exchange->future();
}
