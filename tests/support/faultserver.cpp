// SPDX-License-Identifier: GPL-3.0-or-later
#include "faultserver.h"

#include <QHostAddress>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <algorithm>
#include <gtest/gtest.h>
#include <memory>
#include <sys/socket.h>

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 409:
        return "Conflict";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 499:
        return "Client Closed Request";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

constexpr qint64 kStreamChunk = 256 * 1024;

} // namespace

struct FaultServer::Connection
{
    QByteArray buffer;
    bool answering = false; // a request is being answered; later ones wait
    bool asked = false;     // at least one request came on this connection
    qint64 streamLeft = 0;
    QByteArray trickleLeft;
    std::unique_ptr<QTimer> trickle;
};

FaultServer::FaultServer(QObject *parent) : QObject(parent)
{
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        ADD_FAILURE() << "fault server cannot listen: " << m_server.errorString().toStdString();
    m_port = m_server.serverPort();
    connect(&m_server, &QTcpServer::newConnection, this, &FaultServer::accept);
}

FaultServer::~FaultServer()
{
    stop();
}

QUrl FaultServer::url() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(m_port));
}

void FaultServer::script(const QByteArray &path, Reply reply)
{
    m_handlers.insert(path, [reply](const Request &) { return reply; });
}

void FaultServer::script(const QByteArray &path, QList<Reply> sequence)
{
    if (sequence.isEmpty())
        sequence.append(json("{}"));
    auto next = std::make_shared<int>(0);
    m_handlers.insert(path, [sequence, next](const Request &) {
        const int index = std::min(*next, int(sequence.size()) - 1);
        ++*next;
        return sequence.at(index);
    });
}

void FaultServer::script(const QByteArray &path, Handler handler)
{
    m_handlers.insert(path, std::move(handler));
}

void FaultServer::stop()
{
    m_server.close();
    const auto sockets = m_connections.keys();
    for (QTcpSocket *socket : sockets)
        socket->abort(); // disconnected() cleans up
}

bool FaultServer::resume()
{
    if (m_server.isListening())
        return true;
    return m_server.listen(QHostAddress::LocalHost, m_port);
}

int FaultServer::requestCount(const QByteArray &path) const
{
    return int(std::count_if(requests.begin(), requests.end(), [&](const Request &r) { return r.path() == path; }));
}

int FaultServer::openConnectionsThatAsked() const
{
    return int(std::count_if(m_connections.cbegin(), m_connections.cend(),
                             [](const Connection *connection) { return connection->asked; }));
}

void FaultServer::accept()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        socket->setParent(this);
        m_connections.insert(socket, new Connection);
        m_maxOpen = std::max(m_maxOpen, ++m_open);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] { streamMore(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            Connection *connection = m_connections.take(socket);
            if (!connection)
                return;
            if (connection->answering)
                --m_pending;
            if (connection->trickle) // this may run inside the timer's own timeout
                connection->trickle.release()->deleteLater();
            delete connection;
            --m_open;
            socket->deleteLater();
        });
    }
}

void FaultServer::read(QTcpSocket *socket)
{
    Connection *connection = m_connections.value(socket);
    if (!connection)
        return;
    connection->buffer += socket->readAll();
    while (!connection->answering) {
        std::optional<Request> request = takeHttpRequest(connection->buffer);
        if (!request)
            return; // the rest is still on its way
        requests.append(*request);
        connection->asked = true;
        connection->answering = true;
        m_maxPending = std::max(m_maxPending, ++m_pending);
        respond(socket, replyFor(*request));
    }
}

FaultServer::Reply FaultServer::replyFor(const Request &request)
{
    const auto handler = m_handlers.constFind(request.path());
    if (handler != m_handlers.constEnd())
        return (*handler)(request);
    const auto fallback = m_handlers.constFind(QByteArray());
    if (fallback != m_handlers.constEnd())
        return (*fallback)(request);
    return text("no fault scripted for this path", 404);
}

void FaultServer::respond(QTcpSocket *socket, const Reply &reply)
{
    Connection *connection = m_connections.value(socket);
    if (reply.delivery == Reply::Delivery::NeverAnswer)
        return;
    const qint64 length = reply.delivery == Reply::Delivery::Stream ? reply.streamBytes : reply.body.size();
    QByteArray head = "HTTP/1.1 " + QByteArray::number(reply.status) + ' ' + reasonPhrase(reply.status) + "\r\n";
    if (!reply.contentType.isEmpty())
        head += "Content-Type: " + reply.contentType + "\r\n";
    if (reply.announceLength)
        head += "Content-Length: " + QByteArray::number(length) + "\r\n";
    for (const auto &[name, value] : reply.headers)
        head += name + ": " + value + "\r\n";
    // One request per connection keeps every fault on its own connection.
    head += "Connection: close\r\n\r\n";
    socket->write(head);

    switch (reply.delivery) {
    case Reply::Delivery::Whole:
        socket->write(reply.body);
        finishedOne(socket);
        break;
    case Reply::Delivery::CutOff:
        socket->write(reply.body.left(reply.body.size() / 2));
        finishedOne(socket);
        break;
    case Reply::Delivery::Reset: {
        socket->write(reply.body.left(reply.body.size() / 2));
        socket->flush();
        // A linger of zero makes the close a reset, as a crashed process or a proxy that
        // gives up does, not an orderly end.
        const linger abortive{1, 0};
        ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
        QTimer::singleShot(50, socket, [socket] { socket->abort(); }); // after the half is on the wire
        break;
    }
    case Reply::Delivery::Stream:
        connection->streamLeft = reply.streamBytes;
        streamMore(socket);
        break;
    case Reply::Delivery::Trickle: {
        connection->trickleLeft = reply.body;
        connection->trickle = std::make_unique<QTimer>();
        QPointer<QTcpSocket> guarded(socket);
        connect(connection->trickle.get(), &QTimer::timeout, this, [this, guarded] {
            Connection *c = guarded ? m_connections.value(guarded.data()) : nullptr;
            if (!c)
                return;
            guarded->write(c->trickleLeft.left(1));
            c->trickleLeft.remove(0, 1);
            if (c->trickleLeft.isEmpty()) {
                c->trickle->stop();
                finishedOne(guarded.data());
            }
        });
        connection->trickle->start(std::max(1, reply.trickleIntervalMs));
        break;
    }
    case Reply::Delivery::NeverAnswer:
        break;
    }
}

void FaultServer::streamMore(QTcpSocket *socket)
{
    Connection *connection = m_connections.value(socket);
    if (!connection || connection->streamLeft <= 0)
        return;
    // Only as fast as the client takes it: a few chunks queued at most.
    while (connection->streamLeft > 0 && socket->bytesToWrite() < 2 * kStreamChunk) {
        if (socket->state() != QAbstractSocket::ConnectedState)
            return; // the client hung up
        const qint64 chunk = std::min(kStreamChunk, connection->streamLeft);
        if (socket->write(QByteArray(chunk, ' ')) != chunk)
            return;
        connection->streamLeft -= chunk;
        m_streamed += chunk;
    }
    if (connection->streamLeft == 0)
        finishedOne(socket);
}

void FaultServer::finishedOne(QTcpSocket *socket)
{
    if (Connection *connection = m_connections.value(socket)) {
        if (connection->answering) {
            connection->answering = false;
            --m_pending;
        }
    }
    socket->disconnectFromHost(); // after what is queued is written
}

FaultServer::Reply FaultServer::json(const QByteArray &body, int status)
{
    Reply reply;
    reply.status = status;
    reply.body = body;
    return reply;
}

FaultServer::Reply FaultServer::neverAnswer()
{
    Reply reply;
    reply.delivery = Reply::Delivery::NeverAnswer;
    return reply;
}

FaultServer::Reply FaultServer::trickle(const QByteArray &body, int intervalMs)
{
    Reply reply = json(body);
    reply.delivery = Reply::Delivery::Trickle;
    reply.trickleIntervalMs = intervalMs;
    return reply;
}

FaultServer::Reply FaultServer::htmlError(int status)
{
    const QByteArray title = QByteArray::number(status) + ' ' + reasonPhrase(status);
    return text("<!DOCTYPE html>\n<html><head><title>" + title + "</title></head><body><h1>" + title +
                    "</h1><hr><center>nginx</center></body></html>\n",
                status, "text/html");
}

FaultServer::Reply FaultServer::tooManyRequests(int retryAfterSeconds)
{
    Reply reply = text("Too many requests, slow down.\n", 429);
    reply.headers.append({"Retry-After", QByteArray::number(retryAfterSeconds)});
    return reply;
}

int FaultServer::prometheusStatusFor(const QByteArray &errorType)
{
    // As the Prometheus HTTP API maps its error types (web/api/v1/api.go).
    if (errorType == "bad_data")
        return 400;
    if (errorType == "execution")
        return 422;
    if (errorType == "canceled")
        return 499;
    if (errorType == "timeout" || errorType == "unavailable")
        return 503;
    if (errorType == "not_found")
        return 404;
    return 500; // internal
}

FaultServer::Reply FaultServer::prometheusError(const QByteArray &errorType, const QByteArray &message)
{
    const QByteArray text = message.isEmpty() ? "the " + errorType + " fault" : message;
    return json(R"({"status":"error","errorType":")" + errorType + R"(","error":")" + text + R"("})",
                prometheusStatusFor(errorType));
}

FaultServer::Reply FaultServer::malformedJson()
{
    return json(R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{]]}})");
}

FaultServer::Reply FaultServer::cutOff(const QByteArray &body)
{
    Reply reply = json(body);
    reply.delivery = Reply::Delivery::CutOff;
    return reply;
}

FaultServer::Reply FaultServer::reset(const QByteArray &body)
{
    Reply reply = json(body);
    reply.delivery = Reply::Delivery::Reset;
    return reply;
}

FaultServer::Reply FaultServer::huge(qint64 bytes, bool announceLength)
{
    Reply reply;
    reply.delivery = Reply::Delivery::Stream;
    reply.streamBytes = bytes;
    reply.announceLength = announceLength;
    return reply;
}

FaultServer::Reply FaultServer::redirect(const QByteArray &location, int status)
{
    Reply reply = text({}, status);
    reply.headers.append({"Location", location});
    return reply;
}

FaultServer::Reply FaultServer::problemJson(int status, const QByteArray &title, const QByteArray &detail)
{
    Reply reply = json(R"({"type":"about:blank","title":")" + title + R"(","status":)" + QByteArray::number(status) +
                           R"(,"detail":")" + detail + R"("})",
                       status);
    reply.contentType = "application/problem+json";
    return reply;
}

FaultServer::Reply FaultServer::text(const QByteArray &body, int status, const QByteArray &contentType)
{
    Reply reply = json(body, status);
    reply.contentType = contentType;
    return reply;
}

QByteArray FaultServer::matrixBody(int series, const QList<QPair<double, QByteArray>> &samples,
                                   const QByteArray &resultType)
{
    QByteArray values;
    for (const auto &[seconds, value] : samples) {
        if (!values.isEmpty())
            values += ',';
        values += '[' + QByteArray::number(seconds, 'f', 3) + ",\"" + value + "\"]";
    }
    QByteArray body = R"({"status":"success","data":{"resultType":")" + resultType + R"(","result":[)";
    body.reserve(qsizetype(series) * (values.size() + 48) + 64);
    for (int s = 0; s < series; ++s) {
        if (s)
            body += ',';
        body += R"({"metric":{"__name__":"m","s":")" + QByteArray::number(s) + R"("},"values":[)" + values + "]}";
    }
    body += "]}}";
    return body;
}
