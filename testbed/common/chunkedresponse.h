// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHttpServerResponder>
#include <QList>
#include <QPair>
#include <QPointer>

class QTcpSocket;

// A streamed HTTP/1.1 answer with chunked transfer encoding: a Kubernetes watch, a job
// stream. QHttpServer 6.4 only answers whole bodies through its API, but its responder also
// writes a status line, headers and raw body bytes; this class frames those bytes as chunks,
// so one answer can go on for as long as the client listens.
//
// The client may go away at any time: QHttpServer then deletes the socket, and the responder
// must not be used again. isOpen() says whether it still may.
class ChunkedResponse
{
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    ChunkedResponse(QHttpServerResponder &&responder, int status, const Headers &headers);
    ~ChunkedResponse(); // ends the stream (the zero-length chunk) if the client is still there
    ChunkedResponse(const ChunkedResponse &) = delete;
    ChunkedResponse &operator=(const ChunkedResponse &) = delete;

    bool isOpen() const;
    // One chunk; nothing for an empty `data` (a zero-length chunk would end the stream).
    void write(const QByteArray &data);
    // The last chunk; the connection stays usable for the next request (keep-alive).
    void finish();

private:
    QHttpServerResponder m_responder;
    QPointer<QTcpSocket> m_socket;
    bool m_finished = false;
};
