// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "loadtester/loadtesterplan.h"

#include <QObject>
#include <QTimer>

class LoadTesterController;
class PrometheusClient;
class ReplicaDiscovery;

// Gives the controller its replicas as the plan says: the listed admin URLs at once, or the
// targets of a Prometheus job once discovery answers. A failed discovery (refused, timed out
// after the client's own retries, an error answer, no such job yet) is reported and
// retried every few seconds (the load tester may simply not be up yet); once replicas are
// found, discovery stops, so a replica that goes away shows as failing rather than vanishing.
class LoadTesterConnector : public QObject
{
    Q_OBJECT
public:
    LoadTesterConnector(LoadTesterController *controller, PrometheusClient *client, LoadTesterPlan plan,
                        QObject *parent = nullptr);

    void start();
    void setRetryIntervalMs(int ms) { m_retry.setInterval(ms); }
    const LoadTesterPlan &plan() const { return m_plan; }

signals:
    void replicasFound(int count, const QString &how); // "3 targets of job starter"
    void problem(const QString &message);

private:
    void useUrls(const QList<QUrl> &urls);

    LoadTesterController *m_controller;
    LoadTesterPlan m_plan;
    ReplicaDiscovery *m_discovery = nullptr;
    QTimer m_retry;
};
