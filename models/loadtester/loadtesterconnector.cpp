// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtesterconnector.h"

#include "base/format.h"
#include "loadtester/adapters/adapterfactory.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/replicadiscovery.h"

LoadTesterConnector::LoadTesterConnector(LoadTesterController *controller, PrometheusClient *client,
                                         LoadTesterPlan plan, QObject *parent)
    : QObject(parent), m_controller(controller), m_plan(std::move(plan))
{
    m_retry.setInterval(5000);
    m_retry.setSingleShot(true);
    if (!m_plan.discoverJob.isEmpty()) {
        m_discovery = new ReplicaDiscovery(client, this);
        connect(m_discovery, &ReplicaDiscovery::found, this, [this](const QList<QUrl> &urls) {
            useUrls(urls);
            emit replicasFound(
                int(urls.size()),
                tr("%1 of job %2").arg(Format::counted(urls.size(), tr("target"), tr("targets")), m_plan.discoverJob));
        });
        connect(m_discovery, &ReplicaDiscovery::failed, this, [this](const QString &message) {
            emit problem(tr("Finding the load tester's replicas: %1 Trying again in %2.")
                             .arg(message, Format::duration(m_retry.interval())));
            m_retry.start();
        });
        connect(&m_retry, &QTimer::timeout, this,
                [this] { m_discovery->discover(m_plan.discoverJob, m_plan.discoverScheme); });
    }
}

void LoadTesterConnector::start()
{
    if (!m_plan.adminUrls.isEmpty()) {
        useUrls(m_plan.adminUrls);
        emit replicasFound(int(m_plan.adminUrls.size()), tr("listed"));
    } else if (m_discovery) {
        m_discovery->discover(m_plan.discoverJob, m_plan.discoverScheme);
    }
}

void LoadTesterConnector::useUrls(const QList<QUrl> &urls)
{
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    for (const QUrl &url : urls) {
        replicas.push_back(makeLoadTesterAdapter(m_plan.kind, url, {m_plan.token, m_plan.spawnRate}));
    }
    m_controller->setReplicas(std::move(replicas));
    m_controller->startPolling();
}
