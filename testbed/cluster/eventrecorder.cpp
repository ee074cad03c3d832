// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventrecorder.h"

#include "kubejson.h"
#include "objectstore.h"

EventRecorder::EventRecorder(ObjectStore &store, QString node, int limit)
    : m_store(store), m_node(std::move(node)), m_limit(std::max(10, limit))
{}

void EventRecorder::normal(const QJsonObject &object, const QString &reason, const QString &message,
                           const QString &component, const QString &fieldPath)
{
    record(object, QStringLiteral("Normal"), reason, message, component, fieldPath);
}

void EventRecorder::warning(const QJsonObject &object, const QString &reason, const QString &message,
                            const QString &component, const QString &fieldPath)
{
    record(object, QStringLiteral("Warning"), reason, message, component, fieldPath);
}

void EventRecorder::record(const QJsonObject &object, const QString &type, const QString &reason,
                           const QString &message, const QString &component, const QString &fieldPath)
{
    const QJsonObject metadata = object.value(QStringLiteral("metadata")).toObject();
    const QString ns = metadata.value(QStringLiteral("namespace")).toString();
    const QString name = metadata.value(QStringLiteral("name")).toString();
    const QString uid = metadata.value(QStringLiteral("uid")).toString();
    const QString key = QStringList{uid, fieldPath, type, reason, message}.join(QChar(0));
    const QString time = KubeJson::now();

    const auto existing = m_byKey.find(key);
    if (existing != m_byKey.end()) {
        if (std::optional<QJsonObject> event = m_store.get(QStringLiteral("events"), ns, existing->second)) {
            event->insert(QStringLiteral("count"), event->value(QStringLiteral("count")).toInt() + 1);
            event->insert(QStringLiteral("lastTimestamp"), time);
            m_store.update(QStringLiteral("events"), *event);
            // The newest again: the oldest events go first.
            m_order.erase(m_sequenceOfName[existing->second]);
            m_order[++m_sequence] = existing->second;
            m_sequenceOfName[existing->second] = m_sequence;
            return;
        }
        m_byKey.erase(existing);
    }

    QJsonObject involved{{QStringLiteral("kind"), object.value(QStringLiteral("kind"))},
                         {QStringLiteral("namespace"), ns},
                         {QStringLiteral("name"), name},
                         {QStringLiteral("uid"), uid},
                         {QStringLiteral("apiVersion"), object.value(QStringLiteral("apiVersion"))},
                         {QStringLiteral("resourceVersion"), metadata.value(QStringLiteral("resourceVersion"))}};
    if (!fieldPath.isEmpty())
        involved.insert(QStringLiteral("fieldPath"), fieldPath);
    const QString eventName = QStringLiteral("%1.%2").arg(name).arg(
        QDateTime::currentMSecsSinceEpoch() * 1000 + static_cast<qint64>(m_sequence % 1000), 0, 16);
    QJsonObject event{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Event")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), eventName}, {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("involvedObject"), involved},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("message"), message},
        {QStringLiteral("source"),
         component == QLatin1String("kubelet")
             ? QJsonObject{{QStringLiteral("component"), component}, {QStringLiteral("host"), m_node}}
             : QJsonObject{{QStringLiteral("component"), component}}},
        {QStringLiteral("firstTimestamp"), time},
        {QStringLiteral("lastTimestamp"), time},
        {QStringLiteral("count"), 1},
        {QStringLiteral("type"), type},
        {QStringLiteral("eventTime"), QJsonValue::Null},
        {QStringLiteral("reportingComponent"), component},
        {QStringLiteral("reportingInstance"), component == QLatin1String("kubelet") ? m_node : QString()},
    };
    m_store.create(QStringLiteral("events"), event);
    m_byKey[key] = eventName;
    m_order[++m_sequence] = eventName;
    m_sequenceOfName[eventName] = m_sequence;

    while (static_cast<int>(m_order.size()) > m_limit) {
        const QString oldest = m_order.begin()->second;
        m_order.erase(m_order.begin());
        m_sequenceOfName.erase(oldest);
        for (auto it = m_byKey.begin(); it != m_byKey.end(); ++it) {
            if (it->second == oldest) {
                m_byKey.erase(it);
                break;
            }
        }
        // Events of every namespace share one limit; the name tells them apart.
        for (const QJsonObject &e : m_store.list(QStringLiteral("events"))) {
            if (KubeJson::at(e, QStringLiteral("metadata.name")).toString() == oldest) {
                m_store.remove(QStringLiteral("events"),
                               KubeJson::at(e, QStringLiteral("metadata.namespace")).toString(), oldest);
                break;
            }
        }
    }
}
