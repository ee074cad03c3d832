// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>

class QNetworkAccessManager;
class QNetworkReply;

// A container's readinessProbe (httpGet): every period, GET http://127.0.0.1:<port><path>;
// a 2xx or 3xx answer is a success. Ready after `successThreshold` successes in a row,
// unready after `failureThreshold` failures in a row, as the kubelet counts.
class ReadinessProbe : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        QString path = QStringLiteral("/");
        int periodSeconds = 1;
        int timeoutSeconds = 1;
        int successThreshold = 1;
        int failureThreshold = 3;
    };

    ReadinessProbe(QNetworkAccessManager &network, quint16 port, Settings settings, QObject *parent = nullptr);
    ~ReadinessProbe() override;

    void start();
    bool isReady() const { return m_ready; }

signals:
    void readinessChanged(bool ready, const QString &failure);

private:
    void probe();
    void finished(QNetworkReply *reply);

    QNetworkAccessManager &m_network;
    quint16 m_port;
    Settings m_settings;
    QTimer m_timer;
    QPointer<QNetworkReply> m_inFlight;
    bool m_ready = false;
    int m_successes = 0;
    int m_failures = 0;
};
