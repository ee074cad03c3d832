// SPDX-License-Identifier: GPL-3.0-or-later
#include "watchstream.h"

#include "chunkedresponse.h"
#include "kubejson.h"

#include <QTcpSocket>

WatchStream::WatchStream(ObjectStore &store, WatchRequest request, QHttpServerResponder &&responder, QObject *parent)
    : QObject(parent), m_store(store), m_request(std::move(request))
{
    QTcpSocket *socket = responder.socket();
    m_response = std::make_unique<ChunkedResponse>(
        std::move(responder), 200,
        ChunkedResponse::Headers{{"Content-Type", "application/json"}, {"Cache-Control", "no-cache, private"}});
    if (socket)
        connect(socket, &QTcpSocket::disconnected, this, [this] {
            if (!m_closed) {
                m_closed = true;
                emit closed();
            }
        });
    if (m_request.initialState) {
        for (const QJsonObject &object : m_store.list(m_request.resource, m_request.ns)) {
            if (selects(object)) {
                m_matching.insert(keyOf(object));
                send(QStringLiteral("ADDED"), object);
            }
        }
    } else {
        // What selected at `since` and still exists is known to the client: its changes are
        // MODIFIED, not ADDED.
        const std::vector<ObjectStore::Change> changes = m_store.changesSince(m_request.since);
        QSet<QString> added;
        for (const ObjectStore::Change &change : changes)
            if (change.resource == m_request.resource && change.type == QLatin1String("ADDED"))
                added.insert(keyOf(change.object));
        for (const QJsonObject &object : m_store.list(m_request.resource, m_request.ns))
            if (selects(object) && !added.contains(keyOf(object)))
                m_matching.insert(keyOf(object));
        for (const ObjectStore::Change &change : changes)
            onChange(change);
    }
    connect(&m_store, &ObjectStore::changed, this, &WatchStream::onChange);
    if (m_request.timeoutSeconds > 0) {
        m_timeout.setSingleShot(true);
        connect(&m_timeout, &QTimer::timeout, this, &WatchStream::finish);
        m_timeout.start(m_request.timeoutSeconds * 1000);
    }
}

WatchStream::~WatchStream() = default;

bool WatchStream::isOpen() const
{
    return !m_closed && m_response->isOpen();
}

void WatchStream::finish()
{
    if (m_closed)
        return;
    m_response->finish();
    m_closed = true;
    emit closed();
}

QString WatchStream::keyOf(const QJsonObject &object)
{
    return KubeJson::at(object, QStringLiteral("metadata.namespace")).toString() + QLatin1Char('/') +
           KubeJson::at(object, QStringLiteral("metadata.name")).toString();
}

bool WatchStream::selects(const QJsonObject &object) const
{
    if (!m_request.ns.isEmpty() &&
        KubeJson::at(object, QStringLiteral("metadata.namespace")).toString() != m_request.ns)
        return false;
    return m_request.labels.matches(KubeJson::at(object, QStringLiteral("metadata.labels")).toObject()) &&
           m_request.fields.matches(object);
}

void WatchStream::onChange(const ObjectStore::Change &change)
{
    if (m_closed || change.resource != m_request.resource)
        return;
    const QString key = keyOf(change.object);
    const bool was = m_matching.contains(key);
    const bool is = change.type != QLatin1String("DELETED") && selects(change.object);
    if (change.type == QLatin1String("DELETED")) {
        if (was || selects(change.object)) {
            m_matching.remove(key);
            send(QStringLiteral("DELETED"), change.object);
        }
        return;
    }
    if (is)
        m_matching.insert(key);
    else
        m_matching.remove(key);
    if (is && was)
        send(QStringLiteral("MODIFIED"), change.object);
    else if (is)
        send(QStringLiteral("ADDED"), change.object);
    else if (was)
        send(QStringLiteral("DELETED"), change.object);
}

void WatchStream::send(const QString &type, const QJsonObject &object)
{
    if (!isOpen())
        return;
    const QJsonObject payload =
        m_request.table ? Tables::table(m_request.resource, {object},
                                        KubeJson::at(object, QStringLiteral("metadata.resourceVersion")).toString(),
                                        m_request.include)
                        : object;
    m_response->write(
        KubeJson::compact(QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("object"), payload}}) + '\n');
}
