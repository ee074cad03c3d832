// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

class ObjectStore;

// Prometheus file-based service discovery (file_sd_configs): one target group per running
// pod whose program listens, labelled namespace, pod, container, app and workload, as the
// kubernetes_sd relabelling of a real setup leaves them. Written atomically (a temporary
// file renamed over the old one) whenever it changes, so Prometheus picks each replica up
// as it comes and drops it as it goes.
class ServiceDiscoveryWriter
{
public:
    explicit ServiceDiscoveryWriter(QString path);

    static QByteArray render(const ObjectStore &store);
    // Writes when the content changed; false (with a message) when the file cannot be written.
    bool update(const ObjectStore &store, QString *error);
    bool writeEmpty(QString *error); // on shutdown: no targets

private:
    bool write(const QByteArray &content, QString *error);

    QString m_path;
    QByteArray m_written;
    bool m_hasWritten = false;
};
