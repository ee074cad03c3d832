// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHostAddress>
#include <QHttpServer>
#include <QObject>

class AdminApi;

// Serves AdminApi over HTTP with QtHttpServer on the thread it lives on (the main thread).
// Every request goes through one catch-all handler: the routing lives in AdminApi, where a
// test can reach it without a socket.
class AdminServer : public QObject
{
    Q_OBJECT

public:
    explicit AdminServer(const AdminApi &api, QObject *parent = nullptr);

    // The port listened on (the OS's pick for 0), or 0 on failure.
    quint16 listen(const QHostAddress &address, quint16 port);

private:
    const AdminApi &m_api;
    QHttpServer m_server;
};
