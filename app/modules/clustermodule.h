// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubernetes/kubeconfig.h"

#include <QObject>
#include <memory>
#include <optional>

class AnnotationModel;
class ClusterController;
class ClusterSeriesRecorder;
class DashboardPoller;
class MainWindow;
class SampleStore;
struct DashboardDefinition;
struct KubernetesDefinition;

// The cluster of a run, as one feature: the kubeconfig resolved as kubectl resolves it (the
// command line first, the dashboard's "kubernetes" for what it leaves open), the controller
// that watches and acts on the workloads, their replicas and knobs recorded as series, and a
// namespace that follows a $variable, and the Cluster dock. LiveRun composes it; the window
// only hosts the dock.
class ClusterModule : public QObject
{
    Q_OBJECT
public:
    ClusterModule(AnnotationModel *annotations, SampleStore *store, DashboardPoller *poller, QObject *parent = nullptr);
    ~ClusterModule() override;

    // Connects when --kubernetes asked for a cluster (`asked`) or the dashboard names one. A
    // kubeconfig that cannot be used stops the start (a value: exit with it, 2, after the
    // reason on stderr) when the cluster was asked for; a dashboard that merely names one
    // goes on without it. Not started yet: start() once the window hosts it.
    std::optional<int> connectTo(const std::optional<KubeConfig::Request> &asked, const DashboardDefinition &dashboard);
    // The Cluster dock in the window (tabbed with the Load tester's), and View ▸ Cluster
    // workloads (Ctrl+Shift+K); nothing when not connected.
    void host(MainWindow *window, const KubernetesDefinition &definition);
    void start();

    // Null until connected (and for good without a cluster).
    ClusterController *controller() const { return m_controller.get(); }

private:
    void followNamespaceVariable(const QString &namespaceName);

    AnnotationModel *m_annotations;
    SampleStore *m_store;
    DashboardPoller *m_poller;
    std::unique_ptr<ClusterController> m_controller;
    std::unique_ptr<ClusterSeriesRecorder> m_series; // controller, store
};
