// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/resourcewatch.h"

#include "base/generation.h"
#include "kubernetes/kubeclient.h"

#include <QJsonArray>
#include <algorithm>

namespace {

// 1 s, 2 s, 4 s … up to 30 s between attempts after failures.
int retryDelayMs(int failures)
{
    return std::min(30'000, 1000 << std::min(failures - 1, 5));
}

} // namespace

ResourceWatch::ResourceWatch(KubeClient *client, QString groupVersion, QString resource, QObject *parent)
    : QObject(parent), m_client(client), m_groupVersion(std::move(groupVersion)), m_resource(std::move(resource))
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, [this] {
        if (m_version.isEmpty() || m_expired)
            list();
        else
            watchFrom(m_version);
    });
}

void ResourceWatch::start()
{
    // A start after a stop (another namespace) begins again: what the old loop still has in
    // flight answers a question no longer asked.
    m_epoch.advance();
    m_stopped = false;
    m_version.clear();
    m_expired = false;
    m_failures = 0;
    list();
}

void ResourceWatch::stop()
{
    m_stopped = true;
    m_epoch.advance();
    m_retry.stop();
    m_running.cancel();
}

void ResourceWatch::list()
{
    if (m_stopped)
        return;
    m_expired = false;
    ++m_lists;
    const QFuture<Result<QJsonObject>> listing = m_client->request("GET", m_client->path(m_groupVersion, m_resource));
    m_running = QFuture<void>(listing);
    whenFinishedIfCurrent(listing, this, m_epoch, [this](const Result<QJsonObject> &answer) {
        if (m_stopped)
            return;
        if (!answer) {
            failed(QStringLiteral("cannot list %1: %2").arg(m_resource, answer.error().message));
            return;
        }
        QList<QJsonObject> items;
        for (const QJsonValue item : answer->value(QLatin1String("items")).toArray())
            items << item.toObject();
        m_version =
            answer->value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
        emit listed(items);
        watchFrom(m_version);
    });
}

void ResourceWatch::watchFrom(const QString &version)
{
    if (m_stopped)
        return;
    const QString path = QStringLiteral("%1?watch=1&resourceVersion=%2&timeoutSeconds=%3")
                             .arg(m_client->path(m_groupVersion, m_resource), version)
                             .arg(m_timeoutSeconds);
    const QFuture<Result<HttpAnswer>> watching =
        m_client->watch(path, [this, ticket = m_epoch.current()](const QJsonObject &event) {
            if (!m_epoch.isCurrent(ticket))
                return;
            const QString type = event.value(QLatin1String("type")).toString();
            const QJsonObject object = event.value(QLatin1String("object")).toObject();
            if (type == QLatin1String("ERROR")) {
                // The version is too old for the server's history: only a new list helps.
                if (object.value(QLatin1String("code")).toInt() == 410)
                    m_expired = true;
                return;
            }
            const QString objectVersion =
                object.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
            if (!objectVersion.isEmpty())
                m_version = objectVersion;
            if (type == QLatin1String("BOOKMARK"))
                return;
            if (!m_healthy) {
                m_healthy = true;
                m_failures = 0;
                emit stateChanged(true, QString());
            }
            emit changed(type, object);
        });
    m_running = QFuture<void>(watching);
    whenFinishedIfCurrent(watching, this, m_epoch, [this](const Result<HttpAnswer> &answer) {
        if (m_stopped)
            return;
        if (answer.ok() && answer->status == 410)
            m_expired = true;
        if (m_expired) {
            list();
            return;
        }
        if (!answer) {
            failed(QStringLiteral("the watch of %1 broke: %2").arg(m_resource, answer.error().message));
            return;
        }
        if (!answer->isSuccess()) {
            failed(QStringLiteral("cannot watch %1: %2").arg(m_resource, KubeClient::errorOf(answer.value()).message));
            return;
        }
        if (!m_healthy) {
            m_healthy = true;
            m_failures = 0;
            emit stateChanged(true, QString());
        }
        watchFrom(m_version); // the server ended it (its timeout): go on from where it was
    });
}

void ResourceWatch::failed(const QString &message)
{
    ++m_failures;
    const int delay = retryDelayMs(m_failures);
    m_healthy = false;
    emit stateChanged(false, QStringLiteral("%1; trying again in %2 s").arg(message).arg(delay / 1000));
    m_retry.start(delay);
}
