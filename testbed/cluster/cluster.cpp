// SPDX-License-Identifier: GPL-3.0-or-later
#include "cluster.h"

#include "kubestatemetrics.h"
#include "manifests.h"
#include "prometheustextwriter.h"

#include <QHttpServerResponse>
#include <csignal>
#include <cstdio>

namespace {

void log(const QString &line)
{
    std::fprintf(stderr, "chaoscope-cluster: %s\n", qPrintable(line));
    std::fflush(stderr);
}

} // namespace

Cluster::Cluster(ClusterConfig config, ClusterOptions options, TokenAuthenticator tokens, QStringList binaryDirs,
                 QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_options(std::move(options)), m_tokens(std::move(tokens)),
      m_store(m_options.watchHistory), m_events(m_store, m_config.node),
      m_kubelet(PodRunner::Environment{m_store, m_events, m_network, m_config.images, std::move(binaryDirs),
                                       m_options.logDir, m_config.restartBackoffSeconds}),
      m_deployments(m_store, m_kubelet, m_events, m_config.node),
      m_statefulsets(m_store, m_kubelet, m_events, m_config.node), m_api(m_store, m_kubelet, m_config),
      m_http(m_api, m_store, m_tokens)
{
    m_reconcileSoon.setSingleShot(true);
    connect(&m_reconcileSoon, &QTimer::timeout, this, &Cluster::reconcile);
    // The progress deadline and anything a missed change would leave behind.
    connect(&m_resync, &QTimer::timeout, this, &Cluster::reconcile);
    connect(&m_store, &ObjectStore::changed, this, [this](const ObjectStore::Change &change) {
        if (change.resource == QLatin1String("events"))
            return;
        if (!m_reconcileSoon.isActive())
            m_reconcileSoon.start(0);
    });
    connect(&m_kubelet, &Kubelet::allStopped, this, [this] {
        QString error;
        if (m_serviceDiscovery && !m_serviceDiscovery->writeEmpty(&error))
            log(error);
        emit stopped();
    });
    if (!m_options.serviceDiscoveryFile.isEmpty())
        m_serviceDiscovery = std::make_unique<ServiceDiscoveryWriter>(m_options.serviceDiscoveryFile);
}

Cluster::~Cluster()
{
    m_http.closeWatches();
}

bool Cluster::start(QString *error)
{
    if (!m_options.tlsCertFile.isEmpty() && !m_http.setTls(m_options.tlsCertFile, m_options.tlsKeyFile, error))
        return false;
    m_port = m_http.listen(m_options.port);
    if (m_port == 0) {
        *error = QStringLiteral("cannot listen on 127.0.0.1:%1").arg(m_options.port);
        return false;
    }
    m_metrics.route(QStringLiteral("/metrics"), QHttpServerRequest::Method::Get, [this] {
        return QHttpServerResponse(QByteArray(PrometheusTextWriter::contentType),
                                   KubeStateMetrics::render(m_store, m_config.node));
    });
    m_metricsPort = m_metrics.listen(QHostAddress(QHostAddress::LocalHost), m_options.metricsPort);
    if (m_metricsPort == 0) {
        *error = QStringLiteral("cannot listen on 127.0.0.1:%1 for /metrics").arg(m_options.metricsPort);
        return false;
    }
    if (m_serviceDiscovery && !m_serviceDiscovery->writeEmpty(error))
        return false;

    m_store.create(QStringLiteral("nodes"), Manifests::node(m_config));
    m_store.create(QStringLiteral("namespaces"), Manifests::namespaceObject(QStringLiteral("default")));
    if (m_config.ns != QLatin1String("default"))
        m_store.create(QStringLiteral("namespaces"), Manifests::namespaceObject(m_config.ns));
    QStringList summary;
    for (const WorkloadSpec &workload : m_config.workloads) {
        const QString resource = workload.kind == QLatin1String("Deployment") ? QStringLiteral("deployments")
                                                                              : QStringLiteral("statefulsets");
        m_store.create(resource, Manifests::workload(workload, m_config));
        summary << QStringLiteral("%1/%2 x%3").arg(workload.kind.toLower(), workload.name).arg(workload.replicas);
    }
    log(QStringLiteral("namespace %1: %2; bearer token %3")
            .arg(m_config.ns, summary.isEmpty() ? QStringLiteral("no workloads") : summary.join(QStringLiteral(", ")),
                 m_tokens.isEnabled() ? QStringLiteral("required") : QStringLiteral("not required")));
    m_resync.start(1000);
    reconcile();
    return true;
}

void Cluster::reconcile()
{
    if (m_shuttingDown)
        return;
    for (const QJsonObject &deployment : m_store.list(QStringLiteral("deployments")))
        m_deployments.reconcile(deployment);
    for (const QJsonObject &statefulSet : m_store.list(QStringLiteral("statefulsets")))
        m_statefulsets.reconcile(statefulSet);
    updateServiceDiscovery();
}

void Cluster::updateServiceDiscovery()
{
    QString error;
    if (m_serviceDiscovery && !m_serviceDiscovery->update(m_store, &error))
        log(error);
}

void Cluster::shutdown(int maxGraceSeconds)
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_resync.stop();
    m_reconcileSoon.stop();
    m_http.closeWatches();
    log(QStringLiteral("stopping every pod"));
    m_kubelet.shutdown(maxGraceSeconds);
}

void Cluster::killAll()
{
    for (const qint64 pid : m_kubelet.pids())
        ::kill(-static_cast<pid_t>(pid), SIGKILL);
}
