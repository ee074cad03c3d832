// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeapi.h"
#include "tokenauthenticator.h"

#include <QHttpServer>
#include <QObject>
#include <list>
#include <memory>

class ObjectStore;
class WatchStream;

// The API over HTTP on 127.0.0.1: every request is authenticated first (401 with a Status
// body without a known bearer token, when the cluster has a token file), then handed to
// KubeApi; a watch becomes a WatchStream. Changes are logged with who made them, never with
// a token.
class KubeHttpServer : public QObject
{
    Q_OBJECT
public:
    KubeHttpServer(KubeApi &api, ObjectStore &store, const TokenAuthenticator &tokens, QObject *parent = nullptr);
    ~KubeHttpServer() override;

    // https when a certificate and key are given (PEM files); false with a message when
    // they cannot be read.
    bool setTls(const QString &certFile, const QString &keyFile, QString *error);
    quint16 listen(quint16 port);
    void closeWatches();

private:
    void handle(const QHttpServerRequest &request, QHttpServerResponder &&responder);

    KubeApi &m_api;
    ObjectStore &m_store;
    const TokenAuthenticator &m_tokens;
    QHttpServer m_server;
    std::list<std::unique_ptr<WatchStream>> m_watches;
};
