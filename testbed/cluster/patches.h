// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

// The three patch formats a PATCH request may carry (Content-Type):
//  application/merge-patch+json           RFC 7386 (kubectl patch --type merge, kubectl scale)
//  application/strategic-merge-patch+json Kubernetes' own: lists of containers and env vars are
//                                         merged by name (kubectl set env / set resources /
//                                         rollout restart, kubectl patch)
//  application/json-patch+json            RFC 6902 operations (kubectl patch --type json)
namespace Patches {

enum class Type
{
    Merge,
    Strategic,
    Json
};

std::optional<Type> typeOf(const QByteArray &contentType);

struct Result
{
    std::optional<QJsonObject> object;
    QString error; // a message for a BadRequest (the patch itself is malformed)
};

Result apply(Type type, const QJsonObject &target, const QByteArray &patch);

QJsonObject mergePatch(const QJsonObject &target, const QJsonObject &patch);
Result strategicMergePatch(const QJsonObject &target, const QJsonObject &patch);

} // namespace Patches
