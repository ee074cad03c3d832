// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "net/httpexchange.h"
#include "net/retrypolicy.h"
#include "net/tlssettings.h"

#include <QByteArray>
#include <QFuture>
#include <QObject>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;

// The HTTP transport the load tester adapters share: the one exchange (net/httpexchange) with
// the backend's name in its messages, the admin token, the process's TLS settings, a size cap
// and a deadline. Any HTTP answer is handed over as it is; what goes wrong below HTTP is an
// Error that names the backend and the URL. Destroying it cancels the futures it handed out
// that have not finished.
class LoadTesterHttp : public QObject
{
    Q_OBJECT
public:
    // backendName starts the messages: "the starter", "Locust", "k6".
    LoadTesterHttp(QString backendName, const QString &bearerToken, QObject *parent = nullptr);
    ~LoadTesterHttp() override;

    QString backendName() const { return m_backendName; }

    // A request that changes something (the rate, the users, a pause): sent once, never
    // repeated, since a retry of a change the backend did make would make it twice.
    QFuture<Result<HttpAnswer>> send(const QByteArray &method, const QUrl &url, int timeoutMs,
                                     const QByteArray &body = {}, const QByteArray &contentType = {});
    // A GET that only reads (a status): sent again after a transient failure, as the retry
    // policy says, so that one reset connection does not show a replica as failing.
    QFuture<Result<HttpAnswer>> read(const QUrl &url, int timeoutMs);

    // How reads are retried; applies to reads sent from now on.
    void setRetry(const RetryPolicy::Settings &settings) { m_retry = settings; }

    // How HTTPS admin endpoints are checked (--ca-file, --insecure). Process-wide on purpose:
    // the adapters, and their transports, are made deep inside (the connector, per replica
    // found by discovery, scenarios), far from the command line, and every admin endpoint of
    // a run is checked the same way. Set once at start-up from main(), before any request,
    // from the UI thread; read only there.
    static void setDefaultTls(const TlsSettings &tls);
    static const TlsSettings &defaultTls();

    // baseUrl + path, keeping a path prefix of the base URL (http://host/locust/ + "swarm").
    static QUrl join(const QUrl &baseUrl, const QString &path) { return Http::join(baseUrl, path); }

    // Answers above this are refused unread: a status is a few hundred bytes, Locust's
    // statistics at most a few hundred KiB.
    static constexpr qint64 kMaxBodyBytes = 8ll * 1024 * 1024;
    // Longest time for one whole answer however steadily it trickles in (the timeout only
    // notices silence): an admin answer is small, so this is generous.
    static constexpr int kDeadlineMs = 30'000;

private:
    HttpCall call(const QByteArray &method, const QUrl &url, const QByteArray &body,
                  const QByteArray &contentType) const;
    HttpTarget target(int timeoutMs) const;

    QString m_backendName;
    QByteArray m_authorization;
    RetryPolicy::Settings m_retry;
    QNetworkAccessManager *m_network = nullptr;
};
