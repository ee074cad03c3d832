// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectstore.h"

#include "kubejson.h"

ObjectStore::ObjectStore(int historySize, QObject *parent) : QObject(parent), m_historySize(std::max(1, historySize)) {}

QString ObjectStore::keyOf(const QString &ns, const QString &name)
{
    return ns + QLatin1Char('/') + name;
}

std::optional<QJsonObject> ObjectStore::get(const QString &resource, const QString &ns, const QString &name) const
{
    const auto kind = m_objects.find(resource);
    if (kind == m_objects.end())
        return std::nullopt;
    const auto it = kind->second.find(keyOf(ns, name));
    if (it == kind->second.end())
        return std::nullopt;
    return it->second;
}

QList<QJsonObject> ObjectStore::list(const QString &resource, const QString &ns) const
{
    QList<QJsonObject> objects;
    const auto kind = m_objects.find(resource);
    if (kind == m_objects.end())
        return objects;
    for (const auto &[key, object] : kind->second) {
        if (ns.isEmpty() || KubeJson::at(object, QStringLiteral("metadata.namespace")) == ns)
            objects.append(object);
    }
    return objects;
}

QJsonObject ObjectStore::create(const QString &resource, QJsonObject object)
{
    QJsonObject metadata = object.value(QStringLiteral("metadata")).toObject();
    if (!metadata.contains(QStringLiteral("uid")))
        metadata.insert(QStringLiteral("uid"), KubeJson::newUid());
    if (!metadata.contains(QStringLiteral("creationTimestamp")))
        metadata.insert(QStringLiteral("creationTimestamp"), KubeJson::now());
    if (object.contains(QStringLiteral("spec")))
        metadata.insert(QStringLiteral("generation"), 1);
    metadata.insert(QStringLiteral("resourceVersion"), QString::number(++m_version));
    object.insert(QStringLiteral("metadata"), metadata);
    const QString key = keyOf(metadata.value(QStringLiteral("namespace")).toString(),
                              metadata.value(QStringLiteral("name")).toString());
    m_objects[resource][key] = object;
    record(QStringLiteral("ADDED"), resource, object);
    return object;
}

QJsonObject ObjectStore::update(const QString &resource, QJsonObject object)
{
    QJsonObject metadata = object.value(QStringLiteral("metadata")).toObject();
    const QString key = keyOf(metadata.value(QStringLiteral("namespace")).toString(),
                              metadata.value(QStringLiteral("name")).toString());
    auto &objects = m_objects[resource];
    const auto it = objects.find(key);
    if (it == objects.end())
        return create(resource, object);
    const QJsonObject &old = it->second;
    const QJsonObject oldMetadata = old.value(QStringLiteral("metadata")).toObject();
    // What the server owns stays the server's.
    for (const char *field : {"uid", "creationTimestamp", "generation", "resourceVersion"}) {
        const QString name = QLatin1String(field);
        if (oldMetadata.contains(name))
            metadata.insert(name, oldMetadata.value(name));
    }
    if (old.value(QStringLiteral("spec")) != object.value(QStringLiteral("spec")))
        metadata.insert(QStringLiteral("generation"), oldMetadata.value(QStringLiteral("generation")).toInt() + 1);
    object.insert(QStringLiteral("metadata"), metadata);
    if (object == old)
        return old;
    metadata.insert(QStringLiteral("resourceVersion"), QString::number(++m_version));
    object.insert(QStringLiteral("metadata"), metadata);
    it->second = object;
    record(QStringLiteral("MODIFIED"), resource, object);
    return object;
}

void ObjectStore::remove(const QString &resource, const QString &ns, const QString &name)
{
    auto &objects = m_objects[resource];
    const auto it = objects.find(keyOf(ns, name));
    if (it == objects.end())
        return;
    QJsonObject object = it->second;
    objects.erase(it);
    QJsonObject metadata = object.value(QStringLiteral("metadata")).toObject();
    metadata.insert(QStringLiteral("resourceVersion"), QString::number(++m_version));
    object.insert(QStringLiteral("metadata"), metadata);
    record(QStringLiteral("DELETED"), resource, object);
}

void ObjectStore::record(const QString &type, const QString &resource, const QJsonObject &object)
{
    Change change{m_version, type, resource, object};
    m_history.push_back(change);
    while (static_cast<int>(m_history.size()) > m_historySize) {
        m_compacted = m_history.front().resourceVersion;
        m_history.pop_front();
    }
    emit changed(change);
}

std::vector<ObjectStore::Change> ObjectStore::changesSince(qint64 resourceVersion) const
{
    std::vector<Change> changes;
    for (const Change &change : m_history)
        if (change.resourceVersion > resourceVersion)
            changes.push_back(change);
    return changes;
}
