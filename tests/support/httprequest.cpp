// SPDX-License-Identifier: GPL-3.0-or-later
#include "httprequest.h"

#include <QList>

QByteArray HttpRequest::path() const
{
    const qsizetype query = target.indexOf('?');
    return query < 0 ? target : target.left(query);
}

QUrlQuery HttpRequest::params() const
{
    const qsizetype query = target.indexOf('?');
    const QByteArray encoded = method == "POST" ? body : (query < 0 ? QByteArray() : target.mid(query + 1));
    // Form encoding: '+' is a space, so it is decoded first, as a server would.
    return QUrlQuery(QString::fromLatin1(QByteArray(encoded).replace('+', "%20")));
}

std::optional<HttpRequest> takeHttpRequest(QByteArray &received)
{
    const qsizetype headerEnd = received.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return std::nullopt;
    HttpRequest request;
    const QList<QByteArray> lines = received.left(headerEnd).split('\n');
    const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
    request.method = first.value(0);
    request.target = first.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            request.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    const qsizetype length = request.headers.value("content-length").toLongLong();
    if (received.size() < headerEnd + 4 + length)
        return std::nullopt; // the body is still on its way
    request.body = received.mid(headerEnd + 4, length);
    received.remove(0, headerEnd + 4 + length);
    return request;
}
