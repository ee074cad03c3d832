// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

// One HTTP request from a test, waited for while events are processed (test convenience;
// the app itself never waits like this).
namespace BlockingHttp {

struct Answer
{
    int status = 0; // 0 when there was no HTTP answer
    QByteArray contentType;
    QByteArray body;
    QString error;            // the network error, if any
    QJsonObject json() const; // body as a JSON object (empty when it is not one)
};

Answer request(const QByteArray &method, const QString &url, const QByteArray &body = {},
               const QByteArray &contentType = {}, int timeoutMs = 10000);
inline Answer get(const QString &url)
{
    return request("GET", url);
}

} // namespace BlockingHttp
