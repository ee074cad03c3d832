// SPDX-License-Identifier: GPL-3.0-or-later
#include "chunkedresponse.h"

#include <QTcpSocket>

ChunkedResponse::ChunkedResponse(QHttpServerResponder &&responder, int status, const Headers &headers)
    : m_responder(std::move(responder)), m_socket(m_responder.socket())
{
    if (!isOpen())
        return;
    m_responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(status));
    for (const auto &[name, value] : headers)
        m_responder.writeHeader(name, value);
    m_responder.writeHeader("Transfer-Encoding", "chunked");
    // The first body write ends the header block; an empty one writes nothing else.
    m_responder.writeBody(QByteArray());
    m_socket->flush();
}

ChunkedResponse::~ChunkedResponse()
{
    finish();
}

bool ChunkedResponse::isOpen() const
{
    return !m_finished && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

void ChunkedResponse::write(const QByteArray &data)
{
    if (data.isEmpty() || !isOpen())
        return;
    m_responder.writeBody(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    m_socket->flush();
}

void ChunkedResponse::finish()
{
    if (!isOpen()) {
        m_finished = true;
        return;
    }
    m_responder.writeBody(QByteArrayLiteral("0\r\n\r\n"));
    m_socket->flush();
    m_finished = true;
}
