// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clusterconfig.h"
#include "clusteroptions.h"
#include "deploymentcontroller.h"
#include "eventrecorder.h"
#include "kubeapi.h"
#include "kubehttpserver.h"
#include "kubelet.h"
#include "objectstore.h"
#include "servicediscoverywriter.h"
#include "statefulsetcontroller.h"
#include "tokenauthenticator.h"

#include <QHttpServer>
#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <memory>

// The whole cluster, its parts in the order they depend on each other: the store, the
// events written into it, the kubelet running pods, the controllers driving the kubelet,
// the API over all of it, and what Prometheus reads (kube-state-metrics, service discovery).
class Cluster : public QObject
{
    Q_OBJECT
public:
    Cluster(ClusterConfig config, ClusterOptions options, TokenAuthenticator tokens, QStringList binaryDirs,
            QObject *parent = nullptr);
    ~Cluster() override;

    // Listens, creates the config's objects, starts reconciling. False with a message.
    bool start(QString *error);
    // Every pod gets SIGTERM (SIGKILL after its grace period, at most `maxGraceSeconds`);
    // stopped() follows when all are gone.
    void shutdown(int maxGraceSeconds);
    void killAll();

    quint16 port() const { return m_port; }
    quint16 metricsPort() const { return m_metricsPort; }

signals:
    void stopped();

private:
    void reconcile();
    void updateServiceDiscovery();

    ClusterConfig m_config;
    ClusterOptions m_options;
    TokenAuthenticator m_tokens;
    ObjectStore m_store;
    EventRecorder m_events;
    QNetworkAccessManager m_network;
    Kubelet m_kubelet;
    DeploymentController m_deployments;
    StatefulSetController m_statefulsets;
    KubeApi m_api;
    KubeHttpServer m_http;
    QHttpServer m_metrics;
    std::unique_ptr<ServiceDiscoveryWriter> m_serviceDiscovery;
    QTimer m_reconcileSoon;
    QTimer m_resync;
    bool m_shuttingDown = false;
    quint16 m_port = 0;
    quint16 m_metricsPort = 0;
};
