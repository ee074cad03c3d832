// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrlQuery>
#include <optional>

// The resources this cluster serves, and the discovery documents kubectl reads them from
// (/api, /apis and their versions; plain JSON, so kubectl 1.32 falls back from aggregated
// discovery to these, as it does with any server that does not offer it).
struct ApiResource
{
    QString group; // "" = core
    QString name;  // plural
    QString singular;
    QString kind;
    bool namespaced = true;
    QStringList verbs;
    QStringList shortNames;
    QStringList subresources; // "scale", "status", "log"
};

namespace ApiResources {

const QList<ApiResource> &all();
const ApiResource *find(const QString &group, const QString &name);

QJsonObject version();
QJsonObject coreVersions(const QString &serverAddress);
QJsonObject groups();
QJsonObject group(const QString &name); // empty when unknown
// APIResourceList of a group version; empty when unknown.
QJsonObject resourceList(const QString &group, const QString &version);

} // namespace ApiResources

// The parts of a request path (/apis/apps/v1/namespaces/x/deployments/y/scale), as the API
// server's RequestInfoFactory reads them.
struct RequestInfo
{
    bool isResource = false; // false: discovery or an unknown path
    QString group;
    QString version;
    QString ns;
    QString resource;
    QString name;
    QString subresource;

    static RequestInfo parse(const QString &path);
};
