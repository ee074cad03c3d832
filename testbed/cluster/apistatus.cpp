// SPDX-License-Identifier: GPL-3.0-or-later
#include "apistatus.h"

#include <QJsonDocument>
#include <QStringList>

QByteArray ApiStatus::body() const
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

ApiStatus ApiStatus::make(int code, const QString &reason, const QString &message, const QJsonObject &details)
{
    QJsonObject object{{QStringLiteral("kind"), QStringLiteral("Status")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("metadata"), QJsonObject()},
                       {QStringLiteral("status"), QStringLiteral("Failure")},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("reason"), reason},
                       {QStringLiteral("code"), code}};
    if (!details.isEmpty())
        object.insert(QStringLiteral("details"), details);
    return ApiStatus{code, object};
}

namespace {

QJsonObject details(const ResourceName &resource, const QString &name)
{
    QJsonObject details{{QStringLiteral("kind"), resource.resource}};
    if (!name.isEmpty())
        details.insert(QStringLiteral("name"), name);
    if (!resource.group.isEmpty())
        details.insert(QStringLiteral("group"), resource.group);
    return details;
}

QString quoted(const QString &name)
{
    return name.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(name);
}

} // namespace

ApiStatus ApiStatus::notFound(const ResourceName &resource, const QString &name)
{
    return make(404, QStringLiteral("NotFound"),
                QStringLiteral("%1%2 not found").arg(resource.qualified(), quoted(name)), details(resource, name));
}

ApiStatus ApiStatus::pathNotFound()
{
    return make(404, QStringLiteral("NotFound"), QStringLiteral("the server could not find the requested resource"),
                QJsonObject{});
}

ApiStatus ApiStatus::conflict(const ResourceName &resource, const QString &name)
{
    return make(409, QStringLiteral("Conflict"),
                QStringLiteral("Operation cannot be fulfilled on %1%2: the object has been "
                               "modified; please apply your changes to the latest version and "
                               "try again")
                    .arg(resource.qualified(), quoted(name)),
                details(resource, name));
}

ApiStatus ApiStatus::forbidden(const ResourceName &resource, const QString &name, const QString &user,
                               const QString &verb, const QString &ns, const QString &why)
{
    const QString base = resource.resource.split(QLatin1Char('/')).constFirst();
    QString message = QStringLiteral("%1%2 is forbidden: User \"%3\" cannot %4 resource \"%5\" in "
                                     "API group \"%6\"")
                          .arg(ResourceName{base, resource.group}.qualified(), quoted(name), user, verb,
                               resource.resource, resource.group);
    message +=
        ns.isEmpty() ? QStringLiteral(" at the cluster scope") : QStringLiteral(" in the namespace \"%1\"").arg(ns);
    if (!why.isEmpty())
        message += QStringLiteral(": ") + why;
    return make(403, QStringLiteral("Forbidden"), message, details(ResourceName{base, resource.group}, name));
}

ApiStatus ApiStatus::unauthorized()
{
    return make(401, QStringLiteral("Unauthorized"), QStringLiteral("Unauthorized"));
}

ApiStatus ApiStatus::expired(qint64 requested, qint64 oldest)
{
    return make(410, QStringLiteral("Expired"),
                QStringLiteral("too old resource version: %1 (%2)").arg(requested).arg(oldest));
}

ApiStatus ApiStatus::badRequest(const QString &message)
{
    return make(400, QStringLiteral("BadRequest"), message);
}

ApiStatus ApiStatus::methodNotAllowed()
{
    return make(405, QStringLiteral("MethodNotAllowed"),
                QStringLiteral("the server does not allow this method on the requested resource"));
}

ApiStatus ApiStatus::unsupportedMediaType(const QString &contentType)
{
    return make(415, QStringLiteral("UnsupportedMediaType"),
                QStringLiteral("the body of the request was in an unknown format (%1) - accepted "
                               "media types include: application/json-patch+json, "
                               "application/merge-patch+json, "
                               "application/strategic-merge-patch+json")
                    .arg(contentType));
}

ApiStatus ApiStatus::invalid(const QString &kind, const QString &group, const QString &name, const QList<Cause> &causes)
{
    QStringList parts;
    QJsonArray causeArray;
    for (const Cause &cause : causes) {
        parts << QStringLiteral("%1: %2").arg(cause.field, cause.message);
        causeArray.append(QJsonObject{{QStringLiteral("reason"), QStringLiteral("FieldValueInvalid")},
                                      {QStringLiteral("message"), cause.message},
                                      {QStringLiteral("field"), cause.field}});
    }
    const QString qualifiedKind = group.isEmpty() ? kind : kind + QLatin1Char('.') + group;
    QString message = QStringLiteral("%1 \"%2\" is invalid: ").arg(qualifiedKind, name);
    message +=
        parts.size() == 1 ? parts.constFirst() : QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    QJsonObject details{
        {QStringLiteral("name"), name}, {QStringLiteral("kind"), kind}, {QStringLiteral("causes"), causeArray}};
    if (!group.isEmpty())
        details.insert(QStringLiteral("group"), group);
    return make(422, QStringLiteral("Invalid"), message, details);
}
