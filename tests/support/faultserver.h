// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "httprequest.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QTcpServer>
#include <QUrl>
#include <QUrlQuery>
#include <functional>

class QTcpSocket;

// A small HTTP/1.1 server on 127.0.0.1 (a free port) that answers each path with a scripted
// fault: the faults a real Prometheus or load tester cannot be made to produce on demand
// (a stalled or trickling answer, an error page from a proxy, a body cut off or far too
// large, a redirect loop, odd data). Used only to inject faults; everything else in the
// tests talks to the real servers. Connection refused is a free port nobody listens on, or
// stop() on a running fault server.
class FaultServer : public QObject
{
public:
    using Request = HttpRequest;

    // What goes back for one request.
    struct Reply
    {
        enum class Delivery
        {
            Whole,       // status, headers and body at once
            NeverAnswer, // read the request, then say nothing and keep the connection open
            Trickle,     // the head at once, then the body one byte per trickleIntervalMs
            CutOff,      // the full length announced, half the body sent, connection closed
            Reset,       // the full length announced, half the body sent, connection reset (RST)
            Stream,      // streamBytes of filler after the head, written as the client reads
        };
        Delivery delivery = Delivery::Whole;
        int status = 200;
        QByteArray contentType = "application/json";
        QList<QPair<QByteArray, QByteArray>> headers; // extra ones, e.g. Retry-After
        QByteArray body;
        int trickleIntervalMs = 1000;
        qint64 streamBytes = 0;
        bool announceLength = true; // false: no Content-Length, the end is the connection's
    };
    using Handler = std::function<Reply(const Request &request)>;

    explicit FaultServer(QObject *parent = nullptr);
    ~FaultServer() override;

    quint16 port() const { return m_port; }
    QUrl url() const; // http://127.0.0.1:<port>/

    // How a path (exact, without the query) is answered; "" is every path not scripted.
    // A sequence answers its n-th request with its n-th reply and repeats the last one:
    // "fails twice, then answers".
    void script(const QByteArray &path, Reply reply);
    void script(const QByteArray &path, QList<Reply> sequence);
    void script(const QByteArray &path, Handler handler);

    // Stops listening and drops every open connection: connections are refused from now on.
    void stop();
    // Listens again on the same port.
    bool resume();
    bool isListening() const { return m_server.isListening(); }

    QList<Request> requests; // every request received, in order
    int requestCount(const QByteArray &path) const;
    int openConnections() const { return m_open; }
    // Open connections that carried a request. A client with several requests at once may
    // also open a spare connection it never sends anything on (Qt's pool does); a test of
    // "hung up" asks about the connections that asked.
    int openConnectionsThatAsked() const;
    int maxOpenConnections() const { return m_maxOpen; }
    int pendingRequests() const { return m_pending; } // read, not answered in full yet
    int maxPendingRequests() const { return m_maxPending; }
    qint64 bytesStreamed() const { return m_streamed; } // filler of Stream replies, written

    // The catalogue.
    static Reply json(const QByteArray &body, int status = 200);
    static Reply neverAnswer();
    static Reply trickle(const QByteArray &body, int intervalMs = 1000);
    // A proxy's or server's own error page, as text/html.
    static Reply htmlError(int status);
    static Reply tooManyRequests(int retryAfterSeconds);
    // {"status":"error","errorType":…} with the HTTP status Prometheus uses for that type.
    static Reply prometheusError(const QByteArray &errorType, const QByteArray &message = {});
    static int prometheusStatusFor(const QByteArray &errorType);
    static Reply malformedJson();
    static Reply cutOff(const QByteArray &body);
    static Reply reset(const QByteArray &body);
    static Reply huge(qint64 bytes, bool announceLength = true);
    static Reply redirect(const QByteArray &location, int status = 302);
    // RFC 9457 application/problem+json, as the starter's admin API and many others answer.
    static Reply problemJson(int status, const QByteArray &title, const QByteArray &detail);
    static Reply text(const QByteArray &body, int status = 200, const QByteArray &contentType = "text/plain");

    // A successful range-query answer: `series` series ({__name__="m", s="<i>"}), each with
    // the given samples as [seconds, "value"]; values are written as given ("NaN", "1e3",
    // "fast"), so that bad values can be served too.
    static QByteArray matrixBody(int series, const QList<QPair<double, QByteArray>> &samples,
                                 const QByteArray &resultType = "matrix");

private:
    struct Connection;
    void accept();
    void read(QTcpSocket *socket);
    void respond(QTcpSocket *socket, const Reply &reply);
    void streamMore(QTcpSocket *socket);
    Reply replyFor(const Request &request);
    void finishedOne(QTcpSocket *socket);

    QTcpServer m_server;
    quint16 m_port = 0;
    QHash<QByteArray, Handler> m_handlers;
    QHash<QTcpSocket *, Connection *> m_connections;
    int m_open = 0;
    int m_maxOpen = 0;
    int m_pending = 0;
    int m_maxPending = 0;
    qint64 m_streamed = 0;
};
