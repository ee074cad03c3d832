// SPDX-License-Identifier: GPL-3.0-or-later
#include "servicediscoverywriter.h"

#include "kubejson.h"
#include "objectstore.h"
#include "podtemplate.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

ServiceDiscoveryWriter::ServiceDiscoveryWriter(QString path) : m_path(std::move(path)) {}

QByteArray ServiceDiscoveryWriter::render(const ObjectStore &store)
{
    QJsonArray groups;
    for (const QJsonObject &pod : store.list(QStringLiteral("pods"))) {
        const QString port = KubeJson::at(pod, QStringLiteral("metadata.annotations"))
                                 .toObject()
                                 .value(QStringLiteral("testbed.chaoscope.io/port"))
                                 .toString();
        if (port.isEmpty())
            continue;
        const QString owner = PodTemplate::ownerName(pod, QStringLiteral("StatefulSet"));
        QString workload = owner;
        if (workload.isEmpty()) {
            // <deployment>-<pod-template-hash>
            workload = PodTemplate::ownerName(pod, QStringLiteral("ReplicaSet"));
            workload.chop(PodTemplate::label(pod, QStringLiteral("pod-template-hash")).size() + 1);
        }
        QJsonObject labels{
            {QStringLiteral("namespace"), KubeJson::at(pod, QStringLiteral("metadata.namespace"))},
            {QStringLiteral("pod"), PodTemplate::name(pod)},
            {QStringLiteral("container"), KubeJson::at(pod, QStringLiteral("spec.containers"))
                                              .toArray()
                                              .at(0)
                                              .toObject()
                                              .value(QStringLiteral("name"))},
            {QStringLiteral("workload"), workload},
        };
        const QString app = PodTemplate::label(pod, QStringLiteral("app"));
        if (!app.isEmpty())
            labels.insert(QStringLiteral("app"), app);
        groups.append(QJsonObject{{QStringLiteral("targets"), QJsonArray{QStringLiteral("127.0.0.1:") + port}},
                                  {QStringLiteral("labels"), labels}});
    }
    return QJsonDocument(groups).toJson(QJsonDocument::Indented);
}

bool ServiceDiscoveryWriter::update(const ObjectStore &store, QString *error)
{
    const QByteArray content = render(store);
    if (m_hasWritten && content == m_written)
        return true;
    return write(content, error);
}

bool ServiceDiscoveryWriter::writeEmpty(QString *error)
{
    return write(QByteArrayLiteral("[]\n"), error);
}

bool ServiceDiscoveryWriter::write(const QByteArray &content, QString *error)
{
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size() || !file.commit()) {
        *error = QStringLiteral("cannot write the service discovery file %1: %2").arg(m_path, file.errorString());
        return false;
    }
    m_written = content;
    m_hasWritten = true;
    return true;
}
