// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/loadtesterhttp.h"

#include "net/retryingrequest.h"

#include <QNetworkAccessManager>
#include <QPointer>
#include <vector>

namespace {

TlsSettings &processTls()
{
    static TlsSettings tls;
    return tls;
}

} // namespace

LoadTesterHttp::LoadTesterHttp(QString backendName, const QString &bearerToken, QObject *parent)
    : QObject(parent), m_backendName(std::move(backendName)), m_authorization(Http::bearer(bearerToken)),
      m_network(new QNetworkAccessManager(this))
{}

LoadTesterHttp::~LoadTesterHttp()
{
    // Exchanges and retries go first, while the manager their replies belong to still exists;
    // each cancels the future it handed out. Deleting one child can delete another, hence the
    // guarded pointers.
    const QObjectList children = this->children();
    std::vector<QPointer<QObject>> guarded(children.begin(), children.end());
    for (const QPointer<QObject> &child : guarded) {
        if (child && child != m_network)
            delete child.data();
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

HttpCall LoadTesterHttp::call(const QByteArray &method, const QUrl &url, const QByteArray &body,
                              const QByteArray &contentType) const
{
    HttpCall call;
    call.method = method;
    call.url = url;
    call.body = body;
    call.contentType = contentType;
    call.authorization = m_authorization;
    call.tls = processTls();
    return call;
}

HttpTarget LoadTesterHttp::target(int timeoutMs) const
{
    HttpTarget target;
    target.who = m_backendName;
    target.timeoutMs = timeoutMs;
    target.deadlineMs = kDeadlineMs;
    target.maxBodyBytes = kMaxBodyBytes;
    return target;
}

QFuture<Result<HttpAnswer>> LoadTesterHttp::send(const QByteArray &method, const QUrl &url, int timeoutMs,
                                                 const QByteArray &body, const QByteArray &contentType)
{
    return Http::exchange(m_network, call(method, url, body, contentType), target(timeoutMs), this);
}

QFuture<Result<HttpAnswer>> LoadTesterHttp::read(const QUrl &url, int timeoutMs)
{
    auto attempt = [this, call = call("GET", url, {}, {}), target = target(timeoutMs)](QObject *owner) {
        return Http::exchange(m_network, call, target, owner);
    };
    return RetryingRequest<HttpAnswer>::send(attempt, RetryPolicy(m_retry), nullptr, this, &Http::retryReason);
}
