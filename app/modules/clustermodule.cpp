// SPDX-License-Identifier: GPL-3.0-or-later
#include "modules/clustermodule.h"

#include "base/kubernetesnames.h"
#include "cli/console.h"
#include "cluster/clusterdock.h"
#include "dashboard/dashboardvariables.h"
#include "fetching/dashboardpoller.h"
#include "kubernetes/clustercontroller.h"
#include "kubernetes/clusterseries.h"
#include "kubernetes/kubeclient.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QProcessEnvironment>

ClusterModule::ClusterModule(AnnotationModel *annotations, SampleStore *store, DashboardPoller *poller, QObject *parent)
    : QObject(parent), m_annotations(annotations), m_store(store), m_poller(poller)
{}

ClusterModule::~ClusterModule() = default;

std::optional<int> ClusterModule::connectTo(const std::optional<KubeConfig::Request> &asked,
                                            const DashboardDefinition &dashboard)
{
    const KubernetesDefinition &wanted = dashboard.kubernetes;
    if (!asked && !wanted.isSet())
        return std::nullopt;
    // The command line wins; the dashboard's "kubernetes" fills what it leaves open (a
    // context, a namespace that may follow a $variable).
    KubeConfig::Request request = asked.value_or(KubeConfig::Request{});
    if (request.context.isEmpty())
        request.context = wanted.context;
    const bool namespaceFollowsDashboard = request.namespaceName.isEmpty() && !wanted.namespaceName.isEmpty();
    if (namespaceFollowsDashboard)
        request.namespaceName =
            DashboardVariables::substitute(wanted.namespaceName, m_poller->dashboard().variableDefinitions);
    // As kubectl: the files of $KUBECONFIG, else ~/.kube/config, unless one was given.
    const Result<KubeTarget> target = KubeConfig::resolve(request, QProcessEnvironment::systemEnvironment());
    if (!target && asked) {
        Console::say(QStringLiteral("--kubernetes: %1").arg(target.error().message));
        return 2;
    }
    if (!target) {
        Console::say(QStringLiteral("the dashboard's \"kubernetes\": %1; going on without the Cluster dock")
                         .arg(target.error().message));
        return std::nullopt;
    }
    m_controller = std::make_unique<ClusterController>(target.value(), m_annotations);
    m_series = std::make_unique<ClusterSeriesRecorder>(m_controller.get(), m_store);
    // The knobs' values as series, and every env var a panel draws.
    std::vector<KnobDefinition> recorded = wanted.knobs;
    for (const PanelDefinition &panel : dashboard.panels)
        for (const SeriesDefinition &series : panel.series)
            if (!series.env.isEmpty())
                recorded.push_back({series.workload, series.env, {}});
    m_series->setKnobs(recorded);
    if (namespaceFollowsDashboard)
        followNamespaceVariable(wanted.namespaceName);
    Console::say(
        QStringLiteral("watching %1 as %2").arg(m_controller->client()->describe(), target->credentialOrigin()));
    return std::nullopt;
}

void ClusterModule::host(MainWindow *window, const KubernetesDefinition &definition)
{
    if (!m_controller)
        return;
    auto *clusterDock = new ClusterDock(m_controller.get());
    clusterDock->setDefinition(definition);
    QDockWidget *dock =
        window->hostDock(tr("Cluster"), QStringLiteral("clusterDockWidget"), clusterDock, window->controlDock());
    // From anywhere in the window to the workloads, to act with the keyboard (+, −, 0, Enter).
    QAction *focus = window->menuNamed(QStringLiteral("viewMenu"), tr("&View"))->addAction(tr("&Cluster workloads"));
    focus->setObjectName(QStringLiteral("clusterFocusAction"));
    focus->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    focus->setToolTip(tr("Shows the Cluster dock and puts the keyboard in its table of workloads"));
    connect(focus, &QAction::triggered, dock, [dock, clusterDock] {
        dock->show();
        dock->raise();
        clusterDock->focusWorkloads();
    });
}

void ClusterModule::start()
{
    if (m_controller)
        m_controller->start();
}

void ClusterModule::followNamespaceVariable(const QString &namespaceName)
{
    // "namespace": "$namespace": another value in the toolbar watches another namespace.
    connect(m_poller, &DashboardPoller::variableChanged, m_controller.get(), [this, namespaceName] {
        const QString name = DashboardVariables::substitute(namespaceName, m_poller->dashboard().variableDefinitions);
        if (!KubernetesNames::isObjectName(name)) {
            Console::say(QStringLiteral("the Cluster dock stays on namespace %1: \"%2\" is not one namespace")
                             .arg(m_controller->namespaceName(), name));
            return;
        }
        m_controller->setNamespace(name);
    });
}
