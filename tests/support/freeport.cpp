// SPDX-License-Identifier: GPL-3.0-or-later
#include "freeport.h"

#include <QHostAddress>
#include <QTcpServer>

quint16 freeLoopbackPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        qFatal("no free loopback port: %s", qPrintable(server.errorString()));
    return server.serverPort();
}
