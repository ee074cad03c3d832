// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeapi.h"
#include "objectstore.h"

#include <QHttpServerResponder>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <memory>

class ChunkedResponse;

// One watch: a chunked answer of {"type": "ADDED|MODIFIED|DELETED", "object": ...} lines, one
// per change of what the request selects. An object that stops (or starts) matching the
// selectors leaves (or enters) the watch as DELETED (or ADDED), as the API server's watch
// cache has it. With as=Table, each object is a one-row Table.
class WatchStream : public QObject
{
    Q_OBJECT
public:
    WatchStream(ObjectStore &store, WatchRequest request, QHttpServerResponder &&responder, QObject *parent = nullptr);
    ~WatchStream() override;

    bool isOpen() const;
    void finish();

signals:
    void closed();

private:
    void onChange(const ObjectStore::Change &change);
    bool selects(const QJsonObject &object) const;
    void send(const QString &type, const QJsonObject &object);
    static QString keyOf(const QJsonObject &object);

    ObjectStore &m_store;
    WatchRequest m_request;
    std::unique_ptr<ChunkedResponse> m_response;
    QSet<QString> m_matching;
    QTimer m_timeout;
    bool m_closed = false;
};
