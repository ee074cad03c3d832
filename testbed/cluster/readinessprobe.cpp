// SPDX-License-Identifier: GPL-3.0-or-later
#include "readinessprobe.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

ReadinessProbe::ReadinessProbe(QNetworkAccessManager &network, quint16 port, Settings settings, QObject *parent)
    : QObject(parent), m_network(network), m_port(port), m_settings(std::move(settings))
{
    connect(&m_timer, &QTimer::timeout, this, &ReadinessProbe::probe);
}

ReadinessProbe::~ReadinessProbe()
{
    if (m_inFlight)
        m_inFlight->abort();
}

void ReadinessProbe::start()
{
    m_timer.start(std::max(1, m_settings.periodSeconds) * 1000);
    probe(); // the first at once: a pod that is up need not wait a period to be ready
}

void ReadinessProbe::probe()
{
    if (m_inFlight)
        return; // the previous one still runs; its timeout decides
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(m_settings.path)));
    request.setTransferTimeout(std::max(1, m_settings.timeoutSeconds) * 1000);
    request.setRawHeader("User-Agent", "kube-probe/1.32");
    QNetworkReply *reply = m_network.get(request);
    m_inFlight = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] { finished(reply); });
}

void ReadinessProbe::finished(QNetworkReply *reply)
{
    reply->deleteLater();
    m_inFlight = nullptr;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 200 && status < 400) {
        m_failures = 0;
        if (!m_ready && ++m_successes >= m_settings.successThreshold) {
            m_ready = true;
            emit readinessChanged(true, {});
        }
        return;
    }
    m_successes = 0;
    const QString failure = status > 0
                                ? QStringLiteral("HTTP probe failed with statuscode: %1").arg(status)
                                : QStringLiteral("Get \"%1\": %2").arg(reply->url().toString(), reply->errorString());
    if (m_ready && ++m_failures >= m_settings.failureThreshold) {
        m_ready = false;
        emit readinessChanged(false, failure);
    } else if (!m_ready) {
        emit readinessChanged(false, failure);
    }
}
