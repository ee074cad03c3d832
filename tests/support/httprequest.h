// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QMap>
#include <QUrlQuery>
#include <optional>

// One HTTP/1.1 request as the test servers (FaultServer, the fakes of backends that are not
// installed here) receive it.
struct HttpRequest
{
    QByteArray method;
    QByteArray target;                    // path and query, as sent
    QMap<QByteArray, QByteArray> headers; // names in lower case
    QByteArray body;

    QByteArray path() const;
    QUrlQuery params() const; // of the URL, or of a form body for POST
};

// Takes the first whole request (head and Content-Length body) off the front of the bytes a
// connection has received so far; nullopt, leaving them as they are, while it is incomplete.
std::optional<HttpRequest> takeHttpRequest(QByteArray &received);
