// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

// Server-side printing: what `kubectl get` asks for (Accept: application/json;as=Table;
// v=v1;g=meta.k8s.io) — a meta.k8s.io/v1 Table with the columns the real API server's
// printers have for each kind (priority 1 = shown with -o wide).
namespace Tables {

enum class IncludeObject
{
    None,
    Metadata, // the API server's default: PartialObjectMetadata per row
    Object
};

IncludeObject includeObjectFrom(const QString &parameter);
bool knows(const QString &resource);
QJsonObject table(const QString &resource, const QList<QJsonObject> &objects, const QString &resourceVersion,
                  IncludeObject include);

} // namespace Tables
