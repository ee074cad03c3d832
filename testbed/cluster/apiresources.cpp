// SPDX-License-Identifier: GPL-3.0-or-later
#include "apiresources.h"

#include <QJsonArray>

namespace ApiResources {
namespace {

QJsonObject groupVersion(const QString &group)
{
    return QJsonObject{{QStringLiteral("groupVersion"), group + QStringLiteral("/v1")},
                       {QStringLiteral("version"), QStringLiteral("v1")}};
}

QJsonObject resourceEntry(const ApiResource &r, const QString &name, const QString &kind, const QStringList &verbs,
                          const QString &group = {}, const QString &version = {})
{
    QJsonObject entry{{QStringLiteral("name"), name},
                      {QStringLiteral("singularName"), name.contains(QLatin1Char('/')) ? QString() : r.singular},
                      {QStringLiteral("namespaced"), r.namespaced},
                      {QStringLiteral("kind"), kind},
                      {QStringLiteral("verbs"), QJsonArray::fromStringList(verbs)}};
    if (!group.isEmpty()) {
        entry.insert(QStringLiteral("group"), group);
        entry.insert(QStringLiteral("version"), version);
    }
    if (!name.contains(QLatin1Char('/'))) {
        if (!r.shortNames.isEmpty())
            entry.insert(QStringLiteral("shortNames"), QJsonArray::fromStringList(r.shortNames));
        if (r.kind == QLatin1String("Deployment") || r.kind == QLatin1String("StatefulSet") ||
            r.kind == QLatin1String("ReplicaSet") || r.kind == QLatin1String("Pod"))
            entry.insert(QStringLiteral("categories"), QJsonArray{QStringLiteral("all")});
    }
    return entry;
}

} // namespace

const QList<ApiResource> &all()
{
    static const QList<ApiResource> resources{
        {QString(),
         QStringLiteral("namespaces"),
         QStringLiteral("namespace"),
         QStringLiteral("Namespace"),
         false,
         {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")},
         {QStringLiteral("ns")},
         {}},
        {QString(),
         QStringLiteral("nodes"),
         QStringLiteral("node"),
         QStringLiteral("Node"),
         false,
         {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")},
         {QStringLiteral("no")},
         {}},
        {QString(),
         QStringLiteral("pods"),
         QStringLiteral("pod"),
         QStringLiteral("Pod"),
         true,
         {QStringLiteral("delete"), QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")},
         {QStringLiteral("po")},
         {QStringLiteral("log"), QStringLiteral("status")}},
        {QString(),
         QStringLiteral("events"),
         QStringLiteral("event"),
         QStringLiteral("Event"),
         true,
         {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")},
         {QStringLiteral("ev")},
         {}},
        {QStringLiteral("apps"),
         QStringLiteral("deployments"),
         QStringLiteral("deployment"),
         QStringLiteral("Deployment"),
         true,
         {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("patch"), QStringLiteral("update"),
          QStringLiteral("watch")},
         {QStringLiteral("deploy")},
         {QStringLiteral("scale"), QStringLiteral("status")}},
        {QStringLiteral("apps"),
         QStringLiteral("statefulsets"),
         QStringLiteral("statefulset"),
         QStringLiteral("StatefulSet"),
         true,
         {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("patch"), QStringLiteral("update"),
          QStringLiteral("watch")},
         {QStringLiteral("sts")},
         {QStringLiteral("scale"), QStringLiteral("status")}},
        {QStringLiteral("apps"),
         QStringLiteral("replicasets"),
         QStringLiteral("replicaset"),
         QStringLiteral("ReplicaSet"),
         true,
         {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")},
         {QStringLiteral("rs")},
         {}},
    };
    return resources;
}

const ApiResource *find(const QString &group, const QString &name)
{
    for (const ApiResource &resource : all())
        if (resource.group == group && resource.name == name)
            return &resource;
    return nullptr;
}

QJsonObject version()
{
    return QJsonObject{{QStringLiteral("major"), QStringLiteral("1")},
                       {QStringLiteral("minor"), QStringLiteral("32")},
                       {QStringLiteral("gitVersion"), QStringLiteral("v1.32.0-chaoscope")},
                       {QStringLiteral("gitCommit"), QStringLiteral("0000000000000000000000000000000000000000")},
                       {QStringLiteral("gitTreeState"), QStringLiteral("clean")},
                       {QStringLiteral("buildDate"), QStringLiteral("2026-01-01T00:00:00Z")},
                       {QStringLiteral("goVersion"), QStringLiteral("go1.23.0")},
                       {QStringLiteral("compiler"), QStringLiteral("gc")},
                       {QStringLiteral("platform"), QStringLiteral("linux/amd64")}};
}

QJsonObject coreVersions(const QString &serverAddress)
{
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIVersions")},
                       {QStringLiteral("versions"), QJsonArray{QStringLiteral("v1")}},
                       {QStringLiteral("serverAddressByClientCIDRs"),
                        QJsonArray{QJsonObject{{QStringLiteral("clientCIDR"), QStringLiteral("0.0.0.0/0")},
                                               {QStringLiteral("serverAddress"), serverAddress}}}}};
}

QJsonObject group(const QString &name)
{
    if (name != QLatin1String("apps"))
        return {};
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIGroup")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("versions"), QJsonArray{groupVersion(name)}},
                       {QStringLiteral("preferredVersion"), groupVersion(name)}};
}

QJsonObject groups()
{
    QJsonObject apps = group(QStringLiteral("apps"));
    apps.remove(QStringLiteral("kind"));
    apps.remove(QStringLiteral("apiVersion"));
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIGroupList")},
                       {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("groups"), QJsonArray{apps}}};
}

QJsonObject resourceList(const QString &group, const QString &version)
{
    if (version != QLatin1String("v1") || (!group.isEmpty() && group != QLatin1String("apps")))
        return {};
    QJsonArray entries;
    for (const ApiResource &r : all()) {
        if (r.group != group)
            continue;
        entries.append(resourceEntry(r, r.name, r.kind, r.verbs));
        for (const QString &sub : r.subresources) {
            if (sub == QLatin1String("scale"))
                entries.append(resourceEntry(r, r.name + QStringLiteral("/scale"), QStringLiteral("Scale"),
                                             {QStringLiteral("get"), QStringLiteral("patch"), QStringLiteral("update")},
                                             QStringLiteral("autoscaling"), QStringLiteral("v1")));
            else
                entries.append(resourceEntry(r, r.name + QLatin1Char('/') + sub, r.kind, {QStringLiteral("get")}));
        }
    }
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("APIResourceList")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("groupVersion"), group.isEmpty() ? QStringLiteral("v1") : group + QStringLiteral("/v1")},
        {QStringLiteral("resources"), entries}};
}

} // namespace ApiResources

RequestInfo RequestInfo::parse(const QString &path)
{
    RequestInfo info;
    QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return info;
    if (parts.first() == QLatin1String("api")) {
        if (parts.size() < 3)
            return info;
        info.version = parts.at(1);
        parts = parts.mid(2);
    } else if (parts.first() == QLatin1String("apis")) {
        if (parts.size() < 4)
            return info;
        info.group = parts.at(1);
        info.version = parts.at(2);
        parts = parts.mid(3);
    } else {
        return info;
    }
    // namespaces/<ns>/<resource>... ; "namespaces/<ns>" alone is the namespace object itself.
    if (parts.size() >= 3 && parts.first() == QLatin1String("namespaces")) {
        info.ns = parts.at(1);
        parts = parts.mid(2);
    }
    info.resource = parts.value(0);
    info.name = parts.value(1);
    info.subresource = parts.value(2);
    info.isResource = !info.resource.isEmpty() && parts.size() <= 3;
    return info;
}
