// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

// RFC 9457 problem details, the error body Camunda's REST API and our admin APIs answer with.
namespace ProblemDetail {

inline constexpr const char *contentType = "application/problem+json";

inline QByteArray json(int status, const QString &title, const QString &detail)
{
    const QJsonObject problem{
        {QStringLiteral("type"), QStringLiteral("about:blank")},
        {QStringLiteral("title"), title},
        {QStringLiteral("status"), status},
        {QStringLiteral("detail"), detail},
    };
    return QJsonDocument(problem).toJson(QJsonDocument::Compact);
}

} // namespace ProblemDetail
