// SPDX-License-Identifier: GPL-3.0-or-later
#include "freeport.h"

#include <QFile>
#include <QHostAddress>
#include <QRandomGenerator>
#include <QTcpServer>

namespace {

// The first port the kernel hands to outgoing connections (and to listeners on port 0).
int firstEphemeralPort()
{
    QFile range(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (!range.open(QIODevice::ReadOnly))
        return 32768;
    bool ok = false;
    const int first = QString::fromLatin1(range.readAll()).simplified().section(QLatin1Char(' '), 0, 0).toInt(&ok);
    return ok ? first : 32768;
}

bool canListenOn(quint16 port)
{
    QTcpServer server;
    return server.listen(QHostAddress::LocalHost, port);
}

} // namespace

quint16 freeLoopbackPort()
{
    // Below the ephemeral range: a port the kernel picked for a listener is free only until
    // some client's outgoing connection (a Prometheus scrape kept alive for the whole test)
    // takes it as its local port, and then the child process cannot listen on it. Ports
    // below that range are never given out by the kernel; a random one, checked, rarely
    // meets another test's.
    constexpr int kLowest = 10'000;
    const int end = firstEphemeralPort();
    if (end - kLowest >= 1000) {
        for (int attempt = 0; attempt < 200; ++attempt) {
            const auto port = quint16(QRandomGenerator::global()->bounded(kLowest, end));
            if (canListenOn(port))
                return port;
        }
    }
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        qFatal("no free loopback port: %s", qPrintable(server.errorString()));
    return server.serverPort();
}
