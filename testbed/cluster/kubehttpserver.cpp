// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubehttpserver.h"

#include "watchstream.h"

#include <QFile>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QHttpServerResponse>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTimer>
#include <cstdio>

namespace {

QByteArray methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get:
        return "GET";
    case QHttpServerRequest::Method::Put:
        return "PUT";
    case QHttpServerRequest::Method::Post:
        return "POST";
    case QHttpServerRequest::Method::Delete:
        return "DELETE";
    case QHttpServerRequest::Method::Patch:
        return "PATCH";
    case QHttpServerRequest::Method::Head:
        return "HEAD";
    case QHttpServerRequest::Method::Options:
        return "OPTIONS";
    default:
        return "OTHER";
    }
}

void log(const QString &line)
{
    std::fprintf(stderr, "chaoscope-cluster: %s\n", qPrintable(line));
    std::fflush(stderr);
}

} // namespace

KubeHttpServer::KubeHttpServer(KubeApi &api, ObjectStore &store, const TokenAuthenticator &tokens, QObject *parent)
    : QObject(parent), m_api(api), m_store(store), m_tokens(tokens)
{
    m_server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        handle(request, std::move(responder));
    });
}

KubeHttpServer::~KubeHttpServer()
{
    closeWatches();
}

bool KubeHttpServer::setTls(const QString &certFile, const QString &keyFile, QString *error)
{
    QFile cert(certFile);
    QFile key(keyFile);
    if (!cert.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2")
                     .arg(cert.isOpen() ? keyFile : certFile, cert.isOpen() ? key.errorString() : cert.errorString());
        return false;
    }
    const QSslCertificate certificate(&cert, QSsl::Pem);
    const QByteArray keyText = key.readAll();
    QSslKey privateKey(keyText, QSsl::Rsa, QSsl::Pem);
    if (privateKey.isNull())
        privateKey = QSslKey(keyText, QSsl::Ec, QSsl::Pem);
    if (certificate.isNull() || privateKey.isNull()) {
        *error = QStringLiteral("%1 is not a PEM certificate with an RSA or EC key in %2").arg(certFile, keyFile);
        return false;
    }
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificate(certificate);
    configuration.setPrivateKey(privateKey);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    m_server.sslSetup(configuration);
    return true;
}

quint16 KubeHttpServer::listen(quint16 port)
{
    const quint16 bound = m_server.listen(QHostAddress(QHostAddress::LocalHost), port);
    m_api.setServerAddress(QStringLiteral("127.0.0.1:%1").arg(bound));
    return bound;
}

void KubeHttpServer::closeWatches()
{
    for (const std::unique_ptr<WatchStream> &watch : m_watches)
        watch->finish();
    m_watches.clear();
}

void KubeHttpServer::handle(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const QByteArray method = methodName(request.method());
    const QString path = request.url().path();
    const auto write = [&responder](const ApiResponse &response) {
        QHttpServerResponse out(response.contentType, response.body,
                                static_cast<QHttpServerResponse::StatusCode>(response.status));
        out.write(std::move(responder));
    };

    const std::optional<TokenAuthenticator::User> user = m_tokens.authenticate(request.value("Authorization"));
    if (!user) {
        log(QStringLiteral("401 for %1 %2: %3")
                .arg(QString::fromLatin1(method), path,
                     request.value("Authorization").isEmpty()
                         ? QStringLiteral("no bearer token")
                         : QStringLiteral("a token that is not in the token file")));
        write(KubeApi::respond(ApiStatus::unauthorized()));
        return;
    }

    ApiRequest in;
    in.method = method;
    in.path = path;
    in.query = request.query();
    in.contentType = request.value("Content-Type");
    in.accept = request.value("Accept");
    in.body = request.body();
    in.user = *user;
    std::variant<ApiResponse, WatchRequest> result = m_api.handle(in);

    if (auto *watch = std::get_if<WatchRequest>(&result)) {
        auto stream = std::make_unique<WatchStream>(m_store, std::move(*watch), std::move(responder));
        WatchStream *raw = stream.get();
        m_watches.push_back(std::move(stream));
        connect(raw, &WatchStream::closed, this, [this, raw] {
            // Deleted from the event loop: we may be inside the stream's own signal.
            QTimer::singleShot(0, this,
                               [this, raw] { m_watches.remove_if([raw](const auto &w) { return w.get() == raw; }); });
        });
        return;
    }
    const ApiResponse &response = std::get<ApiResponse>(result);
    if (method != "GET")
        log(QStringLiteral("%1 %2 %3: %4").arg(user->name, QString::fromLatin1(method), path).arg(response.status));
    write(response);
}
