// SPDX-License-Identifier: GPL-3.0-or-later
#include "blockinghttp.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace BlockingHttp {

QJsonObject Answer::json() const
{
    return QJsonDocument::fromJson(body).object();
}

Answer request(const QByteArray &method, const QString &url, const QByteArray &body, const QByteArray &contentType,
               int timeoutMs)
{
    QNetworkAccessManager network;
    QNetworkRequest request{QUrl(url)};
    request.setTransferTimeout(timeoutMs);
    if (!contentType.isEmpty())
        request.setRawHeader("Content-Type", contentType);
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    Answer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    answer.body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError)
        answer.error = reply->errorString();
    reply->deleteLater();
    return answer;
}

} // namespace BlockingHttp
