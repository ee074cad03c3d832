// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/whenfinished.h"
#include "net/tlssettings.h"

#include <QByteArray>
#include <QFuture>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>
#include <memory>
#include <utility>

class QNetworkAccessManager;

// One HTTP answer from a load tester, whatever its status: the backend's adapter knows what
// its error bodies look like, the transport does not.
struct HttpAnswer
{
    QUrl url; // where it came from, for messages
    int status = 0;
    QByteArray contentType; // media type only, lower case: "application/problem+json"
    QByteArray body;

    bool isSuccess() const { return status >= 200 && status < 300; }
    // host:port, the short name of a replica in messages.
    QString hostPort() const;
    // The first characters of the body as text, for messages about answers that did not parse.
    QString bodySnippet(int maxChars = 80) const;
};

// The HTTP transport the load tester adapters share: sends one request, and turns what goes
// wrong below HTTP (refused, timed out, reset, too large) into an Error that names the
// backend and the URL. Any HTTP answer is handed over as it is. Destroying it cancels the
// futures it handed out that have not finished.
class LoadTesterHttp : public QObject
{
    Q_OBJECT
public:
    // backendName starts the messages: "the starter", "Locust", "k6".
    LoadTesterHttp(QString backendName, QString bearerToken, QObject *parent = nullptr);
    ~LoadTesterHttp() override;

    QString backendName() const { return m_backendName; }

    QFuture<Result<HttpAnswer>> send(const QByteArray &method, const QUrl &url, int timeoutMs,
                                     const QByteArray &body = {}, const QByteArray &contentType = {});

    // How HTTPS admin endpoints are checked (--ca-file, --insecure), for every transport of the
    // process: the adapters create theirs deep inside. Set once at start-up, before any
    // request, from the UI thread.
    static void setDefaultTls(const TlsSettings &tls);
    static const TlsSettings &defaultTls();

    // baseUrl + path, keeping a path prefix of the base URL (http://host/locust/ + "swarm").
    static QUrl join(const QUrl &baseUrl, const QString &path);

    // Answers above this are refused unread: a status is a few hundred bytes, Locust's
    // statistics at most a few hundred KiB.
    static constexpr qint64 kMaxBodyBytes = 8ll * 1024 * 1024;

private:
    QString m_backendName;
    QByteArray m_authorization;
    QNetworkAccessManager *m_network = nullptr;
};

template<typename T> QFuture<T> finishedFuture(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

// Runs parse(answer) on a worker thread (the house rule: no parsing on the UI thread) and
// answers its result on context's thread; a transport error passes through unparsed. If
// context dies first, the returned future is canceled.
template<typename T, typename Parse>
QFuture<Result<T>> parseOffThread(const QFuture<Result<HttpAnswer>> &answer, QObject *context, Parse parse)
{
    auto promise = std::make_shared<QPromise<Result<T>>>();
    promise->start();
    whenFinished(answer, context, [promise, context, parse](const Result<HttpAnswer> &received) {
        if (!received.ok()) {
            promise->addResult(Result<T>(received.error()));
            promise->finish();
            return;
        }
        whenFinished(QtConcurrent::run([parse, http = received.value()]() -> Result<T> { return parse(http); }),
                     context, [promise](const Result<T> &parsed) {
                         promise->addResult(parsed);
                         promise->finish();
                     });
    });
    return promise->future();
}

// Answers on `promise` what `future` answers, on context's thread.
template<typename T> void forwardTo(const QFuture<T> &future, QObject *context, std::shared_ptr<QPromise<T>> promise)
{
    whenFinished(future, context, [promise = std::move(promise)](const T &value) {
        promise->addResult(value);
        promise->finish();
    });
}
