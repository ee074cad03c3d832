// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

// A resource as an error message names it: "deployments.apps", "pods".
struct ResourceName
{
    QString resource; // plural, lower case
    QString group;    // "" for the core group

    QString qualified() const { return group.isEmpty() ? resource : resource + QLatin1Char('.') + group; }
};

// The metav1.Status objects the real API server answers errors with, so that kubectl prints
// "Error from server (NotFound): deployments.apps "x" not found" as it would there.
struct ApiStatus
{
    int code = 500;
    QJsonObject object;

    QByteArray body() const;

    static ApiStatus make(int code, const QString &reason, const QString &message, const QJsonObject &details = {});
    static ApiStatus notFound(const ResourceName &resource, const QString &name);
    static ApiStatus pathNotFound(); // no such resource at all
    static ApiStatus conflict(const ResourceName &resource, const QString &name);
    static ApiStatus forbidden(const ResourceName &resource, const QString &name, const QString &user,
                               const QString &verb, const QString &ns, const QString &why = {});
    static ApiStatus unauthorized();
    static ApiStatus expired(qint64 requested, qint64 oldest);
    static ApiStatus badRequest(const QString &message);
    static ApiStatus methodNotAllowed();
    static ApiStatus unsupportedMediaType(const QString &contentType);
    // 422, one cause per field: "Deployment.apps "x" is invalid: spec.replicas: ..."
    struct Cause
    {
        QString field;
        QString message;
    };
    static ApiStatus invalid(const QString &kind, const QString &group, const QString &name,
                             const QList<Cause> &causes);
};
