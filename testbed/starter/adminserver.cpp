// SPDX-License-Identifier: GPL-3.0-or-later
#include "adminserver.h"

#include "adminapi.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QHttpServerResponse>

namespace {

QByteArray methodName(QHttpServerRequest::Method method)
{
    switch (method) {
    case QHttpServerRequest::Method::Get:
        return "GET";
    case QHttpServerRequest::Method::Put:
        return "PUT";
    case QHttpServerRequest::Method::Post:
        return "POST";
    case QHttpServerRequest::Method::Delete:
        return "DELETE";
    case QHttpServerRequest::Method::Head:
        return "HEAD";
    case QHttpServerRequest::Method::Options:
        return "OPTIONS";
    case QHttpServerRequest::Method::Patch:
        return "PATCH";
    case QHttpServerRequest::Method::Connect:
        return "CONNECT";
    case QHttpServerRequest::Method::Trace:
        return "TRACE";
    default:
        return "UNKNOWN";
    }
}

} // namespace

AdminServer::AdminServer(const AdminApi &api, QObject *parent) : QObject(parent), m_api(api)
{
    m_server.setMissingHandler([this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
        AdminRequest in;
        in.method = methodName(request.method());
        in.path = request.url().path(QUrl::FullyEncoded).toUtf8();
        in.contentType = request.value("Content-Type");
        in.accept = request.value("Accept");
        in.authorization = request.value("Authorization");
        in.ifMatch = request.value("If-Match");
        in.body = request.body();
        const AdminResponse out = m_api.handle(in);

        QHttpServerResponse response(out.contentType, out.body,
                                     static_cast<QHttpServerResponse::StatusCode>(out.status));
        for (const auto &[name, value] : out.headers)
            response.addHeader(name, value);
        response.write(std::move(responder));
    });
}

quint16 AdminServer::listen(const QHostAddress &address, quint16 port)
{
    return m_server.listen(address, port);
}
