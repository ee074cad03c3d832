// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/kubeclient.h"

#include "base/whenfinished.h"
#include "kubernetes/kubeauth.h"

#include <QFutureWatcher>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QSslCertificate>
#include <memory>

namespace {

constexpr int kRequestTimeoutMs = 30'000;
constexpr qint64 kMaxAnswerBytes = 64LL * 1024 * 1024;

// Splits a watch stream into its lines and hands each parsed event on.
class LineSplitter
{
public:
    explicit LineSplitter(std::function<void(const QJsonObject &)> onEvent) : m_onEvent(std::move(onEvent)) {}
    void feed(const QByteArray &piece)
    {
        m_pending += piece;
        qsizetype newline = 0;
        while ((newline = m_pending.indexOf('\n')) >= 0) {
            const QByteArray line = m_pending.left(newline).trimmed();
            m_pending.remove(0, newline + 1);
            if (line.isEmpty())
                continue;
            const QJsonDocument document = QJsonDocument::fromJson(line);
            if (document.isObject())
                m_onEvent(document.object());
        }
    }

private:
    std::function<void(const QJsonObject &)> m_onEvent;
    QByteArray m_pending;
};

} // namespace

KubeClient::KubeClient(KubeTarget target, QObject *parent)
    : QObject(parent), m_target(std::move(target)), m_auth(new KubeAuth(m_target, this)),
      m_network(new QNetworkAccessManager(this))
{}

QString KubeClient::describe() const
{
    return QStringLiteral("cluster \"%1\" at %2, namespace %3")
        .arg(m_target.cluster, m_target.server.toDisplayString(), m_target.namespaceName);
}

QString KubeClient::path(const QString &groupVersion, const QString &resource, const QString &name,
                         const QString &subresource) const
{
    const QString root =
        groupVersion == QLatin1String("v1") ? QStringLiteral("/api/v1") : QStringLiteral("/apis/") + groupVersion;
    QString path = QStringLiteral("%1/namespaces/%2/%3").arg(root, m_target.namespaceName, resource);
    if (!name.isEmpty())
        path += QLatin1Char('/') + name;
    if (!subresource.isEmpty())
        path += QLatin1Char('/') + subresource;
    return path;
}

Error KubeClient::errorOf(const HttpAnswer &answer)
{
    QJsonParseError parseError{};
    const QJsonObject status = QJsonDocument::fromJson(answer.body, &parseError).object();
    if (parseError.error == QJsonParseError::NoError &&
        status.value(QLatin1String("kind")) == QLatin1String("Status")) {
        const QString reason = status.value(QLatin1String("reason")).toString();
        const QString message = status.value(QLatin1String("message")).toString();
        Error error = Error::make(
            Error::Kind::Http,
            QStringLiteral("%1 %2: %3").arg(answer.status).arg(reason.isEmpty() ? answer.reason : reason, message),
            answer.status, reason);
        return error;
    }
    return Error::make(Error::Kind::Http,
                       QStringLiteral("%1 %2 from the Kubernetes API at %3: %4")
                           .arg(answer.status)
                           .arg(answer.reason, answer.hostPort(), answer.bodySnippet()),
                       answer.status);
}

void KubeClient::send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body,
                      const QByteArray &contentType, const std::function<void(const QByteArray &)> &onPiece,
                      bool retried, const std::shared_ptr<QPromise<Result<HttpAnswer>>> &promise)
{
    whenFinished(
        m_auth->current(), this,
        [=, this](const Result<KubeCredential> &credential) {
            if (!credential) {
                promise->addResult(credential.error());
                promise->finish();
                return;
            }
            HttpCall call;
            call.method = method;
            call.url = QUrl(m_target.server.toString(QUrl::StripTrailingSlash) + pathAndQuery);
            call.body = body;
            call.contentType = contentType;
            call.authorization = credential->authorization;
            call.tls.verifyPeer = !m_target.insecureSkipVerify;
            call.tls.caCertificates = QSslCertificate::fromData(m_target.caPem, QSsl::Pem);
            if (!credential->certificate.isNull())
                call.tls.clientIdentity = std::make_pair(credential->certificate, credential->key);
            call.onBodyPiece = onPiece;
            HttpTarget target;
            target.who = QStringLiteral("the Kubernetes API");
            // A watch may be silent for minutes: only the server's own timeout ends it.
            target.timeoutMs = onPiece ? 0 : kRequestTimeoutMs;
            target.maxBodyBytes = kMaxAnswerBytes;
            QFuture<Result<HttpAnswer>> exchange = Http::exchange(m_network, call, target, this);
            // Whoever waits and gives up (a watch stopped) ends the transfer too.
            auto *cancellation = new QFutureWatcher<Result<HttpAnswer>>(this);
            connect(cancellation, &QFutureWatcherBase::canceled, this, [exchange]() mutable { exchange.cancel(); });
            connect(cancellation, &QFutureWatcherBase::finished, cancellation, &QObject::deleteLater);
            cancellation->setFuture(promise->future());
            whenFinished(exchange, this, [=, this](const Result<HttpAnswer> &answer) {
                if (answer.ok() && answer->status == 401 && m_target.exec && !retried) {
                    m_auth->invalidate(); // a plugin's token expired early: ask it again
                    send(method, pathAndQuery, body, contentType, onPiece, true, promise);
                    return;
                }
                promise->addResult(answer);
                promise->finish();
            });
        },
        [promise] { promise->finish(); });
}

QFuture<Result<QJsonObject>> KubeClient::request(const QByteArray &method, const QString &pathAndQuery,
                                                 const QByteArray &body, const QByteArray &contentType)
{
    auto raw = std::make_shared<QPromise<Result<HttpAnswer>>>();
    raw->start();
    send(method, pathAndQuery, body, contentType, {}, false, raw);
    auto promise = std::make_shared<QPromise<Result<QJsonObject>>>();
    promise->start();
    QFuture<Result<QJsonObject>> future = promise->future();
    whenFinished(
        raw->future(), this,
        [promise](const Result<HttpAnswer> &answer) {
            if (!answer) {
                promise->addResult(answer.error());
            } else if (!answer->isSuccess()) {
                promise->addResult(errorOf(answer.value()));
            } else {
                QJsonParseError error{};
                const QJsonDocument document = QJsonDocument::fromJson(answer->body, &error);
                if (error.error != QJsonParseError::NoError || !document.isObject())
                    promise->addResult(Error::make(Error::Kind::Parse,
                                                   QStringLiteral("the Kubernetes API at %1 answered with something "
                                                                  "that is not a JSON object: %2")
                                                       .arg(answer->hostPort(), answer->bodySnippet())));
                else
                    promise->addResult(document.object());
            }
            promise->finish();
        },
        [promise] { promise->finish(); });
    return future;
}

QFuture<Result<HttpAnswer>> KubeClient::watch(const QString &pathAndQuery,
                                              std::function<void(const QJsonObject &)> onEvent)
{
    auto splitter = std::make_shared<LineSplitter>(std::move(onEvent));
    auto promise = std::make_shared<QPromise<Result<HttpAnswer>>>();
    promise->start();
    send(
        "GET", pathAndQuery, {}, {}, [splitter](const QByteArray &piece) { splitter->feed(piece); }, false, promise);
    return promise->future();
}
