// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubestatemetrics.h"

#include "kubejson.h"
#include "objectstore.h"
#include "podtemplate.h"
#include "prometheustextwriter.h"
#include "resourcequantity.h"

#include <QJsonArray>

namespace KubeStateMetrics {
namespace {

using Labels = PrometheusTextWriter::Labels;

QByteArray text(const QJsonObject &object, const char *path)
{
    return KubeJson::at(object, QLatin1String(path)).toString().toUtf8();
}

qint64 number(const QJsonObject &object, const char *path)
{
    return KubeJson::at(object, QLatin1String(path)).toInt();
}

void workloads(PrometheusTextWriter &w, const ObjectStore &store)
{
    const QList<QJsonObject> deployments = store.list(QStringLiteral("deployments"));
    struct Series
    {
        const char *name;
        const char *help;
        const char *path;
    };
    const Series deploymentSeries[] = {
        {"kube_deployment_spec_replicas", "Number of desired pods for a deployment.", "spec.replicas"},
        {"kube_deployment_status_replicas", "The number of replicas per deployment.", "status.replicas"},
        {"kube_deployment_status_replicas_ready", "The number of ready replicas per deployment.",
         "status.readyReplicas"},
        {"kube_deployment_status_replicas_available", "The number of available replicas per deployment.",
         "status.availableReplicas"},
        {"kube_deployment_status_replicas_updated", "The number of updated replicas per deployment.",
         "status.updatedReplicas"},
        {"kube_deployment_status_replicas_unavailable", "The number of unavailable replicas per deployment.",
         "status.unavailableReplicas"},
        {"kube_deployment_status_observed_generation", "The generation observed by the deployment controller.",
         "status.observedGeneration"},
        {"kube_deployment_metadata_generation",
         "Sequence number representing a specific generation of the desired state.", "metadata.generation"},
    };
    for (const Series &series : deploymentSeries) {
        w.family(series.name, "gauge", series.help);
        for (const QJsonObject &d : deployments)
            w.sample(series.name, number(d, series.path),
                     Labels{{"namespace", text(d, "metadata.namespace")}, {"deployment", text(d, "metadata.name")}});
    }
    const QList<QJsonObject> statefulsets = store.list(QStringLiteral("statefulsets"));
    const Series statefulSetSeries[] = {
        {"kube_statefulset_replicas", "Number of desired pods for a StatefulSet.", "spec.replicas"},
        {"kube_statefulset_status_replicas", "The number of replicas per StatefulSet.", "status.replicas"},
        {"kube_statefulset_status_replicas_ready", "The number of ready replicas per StatefulSet.",
         "status.readyReplicas"},
        {"kube_statefulset_status_replicas_current", "The number of current replicas per StatefulSet.",
         "status.currentReplicas"},
        {"kube_statefulset_status_replicas_updated", "The number of updated replicas per StatefulSet.",
         "status.updatedReplicas"},
    };
    for (const Series &series : statefulSetSeries) {
        w.family(series.name, "gauge", series.help);
        for (const QJsonObject &s : statefulsets)
            w.sample(series.name, number(s, series.path),
                     Labels{{"namespace", text(s, "metadata.namespace")}, {"statefulset", text(s, "metadata.name")}});
    }
}

void pods(PrometheusTextWriter &w, const ObjectStore &store, const QByteArray &node)
{
    const QList<QJsonObject> list = store.list(QStringLiteral("pods"));
    const auto podLabels = [](const QJsonObject &pod) {
        return Labels{{"namespace", text(pod, "metadata.namespace")},
                      {"pod", text(pod, "metadata.name")},
                      {"uid", text(pod, "metadata.uid")}};
    };
    w.family("kube_pod_info", "gauge", "Information about pod.");
    for (const QJsonObject &pod : list) {
        QByteArray kind = "ReplicaSet";
        QByteArray owner = PodTemplate::ownerName(pod, QStringLiteral("ReplicaSet")).toUtf8();
        if (owner.isEmpty()) {
            kind = "StatefulSet";
            owner = PodTemplate::ownerName(pod, QStringLiteral("StatefulSet")).toUtf8();
        }
        Labels labels = podLabels(pod);
        labels << QPair<QByteArray, QByteArray>{"host_ip", "127.0.0.1"}
               << QPair<QByteArray, QByteArray>{"pod_ip", text(pod, "status.podIP")}
               << QPair<QByteArray, QByteArray>{"node", node} << QPair<QByteArray, QByteArray>{"created_by_kind", kind}
               << QPair<QByteArray, QByteArray>{"created_by_name", owner};
        w.sample("kube_pod_info", qint64(1), labels);
    }
    w.family("kube_pod_status_phase", "gauge", "The pods current phase.");
    for (const QJsonObject &pod : list) {
        const QByteArray phase = text(pod, "status.phase");
        for (const char *candidate : {"Pending", "Succeeded", "Failed", "Unknown", "Running"}) {
            Labels labels = podLabels(pod);
            labels << QPair<QByteArray, QByteArray>{"phase", candidate};
            w.sample("kube_pod_status_phase", qint64(phase == candidate ? 1 : 0), labels);
        }
    }
    w.family("kube_pod_status_ready", "gauge", "Describes whether the pod is ready to serve requests.");
    for (const QJsonObject &pod : list) {
        const bool ready = PodTemplate::isReady(pod);
        for (const char *condition : {"true", "false"}) {
            Labels labels = podLabels(pod);
            labels << QPair<QByteArray, QByteArray>{"condition", condition};
            w.sample("kube_pod_status_ready", qint64((qstrcmp(condition, "true") == 0) == ready ? 1 : 0), labels);
        }
    }
    w.family("kube_pod_deletion_timestamp", "gauge", "Unix deletion timestamp of a terminating pod.");
    for (const QJsonObject &pod : list) {
        if (PodTemplate::isTerminating(pod))
            w.sample(
                "kube_pod_deletion_timestamp",
                KubeJson::parseTimestamp(QString::fromUtf8(text(pod, "metadata.deletionTimestamp"))).toSecsSinceEpoch(),
                podLabels(pod));
    }

    struct Container
    {
        QJsonObject pod;
        QJsonObject spec;
        QJsonObject status;
    };
    QList<Container> containers;
    for (const QJsonObject &pod : list) {
        const QJsonArray statuses = KubeJson::at(pod, QStringLiteral("status.containerStatuses")).toArray();
        for (const QJsonValue spec : KubeJson::at(pod, QStringLiteral("spec.containers")).toArray()) {
            QJsonObject status;
            for (const QJsonValue s : statuses)
                if (s.toObject().value(QStringLiteral("name")) == spec.toObject().value(QStringLiteral("name")))
                    status = s.toObject();
            containers << Container{pod, spec.toObject(), status};
        }
    }
    const auto containerLabels = [&](const Container &c) {
        Labels labels = podLabels(c.pod);
        labels << QPair<QByteArray, QByteArray>{"container", c.spec.value(QStringLiteral("name")).toString().toUtf8()};
        return labels;
    };
    w.family("kube_pod_container_info", "gauge", "Information about a container in a pod.");
    for (const Container &c : containers) {
        Labels labels = containerLabels(c);
        labels << QPair<QByteArray, QByteArray>{"image", c.spec.value(QStringLiteral("image")).toString().toUtf8()}
               << QPair<QByteArray, QByteArray>{"container_id",
                                                c.status.value(QStringLiteral("containerID")).toString().toUtf8()};
        w.sample("kube_pod_container_info", qint64(1), labels);
    }
    w.family("kube_pod_container_status_ready", "gauge", "Describes whether the containers readiness check succeeded.");
    for (const Container &c : containers)
        w.sample("kube_pod_container_status_ready", qint64(c.status.value(QStringLiteral("ready")).toBool() ? 1 : 0),
                 containerLabels(c));
    w.family("kube_pod_container_status_running", "gauge",
             "Describes whether the container is currently in running state.");
    for (const Container &c : containers)
        w.sample("kube_pod_container_status_running",
                 qint64(KubeJson::at(c.status, QStringLiteral("state.running")).isObject() ? 1 : 0),
                 containerLabels(c));
    w.family("kube_pod_container_status_waiting_reason", "gauge",
             "Describes the reason the container is currently in waiting state.");
    for (const Container &c : containers) {
        const QString reason = KubeJson::at(c.status, QStringLiteral("state.waiting.reason")).toString();
        if (reason.isEmpty())
            continue;
        Labels labels = containerLabels(c);
        labels << QPair<QByteArray, QByteArray>{"reason", reason.toUtf8()};
        w.sample("kube_pod_container_status_waiting_reason", qint64(1), labels);
    }
    w.family("kube_pod_container_status_restarts_total", "counter", "The number of container restarts per container.");
    for (const Container &c : containers)
        w.sample("kube_pod_container_status_restarts_total",
                 qint64(c.status.value(QStringLiteral("restartCount")).toInt()), containerLabels(c));
    w.family("kube_pod_container_status_last_terminated_reason", "gauge",
             "Describes the last reason the container was in terminated state.");
    for (const Container &c : containers) {
        const QString reason = KubeJson::at(c.status, QStringLiteral("lastState.terminated.reason")).toString();
        if (reason.isEmpty())
            continue;
        Labels labels = containerLabels(c);
        labels << QPair<QByteArray, QByteArray>{"reason", reason.toUtf8()};
        w.sample("kube_pod_container_status_last_terminated_reason", qint64(1), labels);
    }
    w.family("kube_pod_container_status_last_terminated_exitcode", "gauge",
             "Describes the exit code for the last container in terminated state.");
    for (const Container &c : containers) {
        const QJsonValue code = KubeJson::at(c.status, QStringLiteral("lastState.terminated.exitCode"));
        if (code.isDouble())
            w.sample("kube_pod_container_status_last_terminated_exitcode", qint64(code.toInt()), containerLabels(c));
    }
    for (const char *kind : {"limits", "requests"}) {
        const QByteArray family = QByteArray("kube_pod_container_resource_") + kind;
        w.family(family, "gauge", QByteArray("The number of requested ") + kind + " resource by a container.");
        for (const Container &c : containers) {
            const QJsonObject entries =
                KubeJson::at(c.spec, QStringLiteral("resources.") + QLatin1String(kind)).toObject();
            for (const char *resource : {"cpu", "memory"}) {
                const auto quantity = ResourceQuantity::parse(entries.value(QLatin1String(resource)).toString());
                if (!entries.contains(QLatin1String(resource)) || !quantity)
                    continue;
                Labels labels = containerLabels(c);
                labels << QPair<QByteArray, QByteArray>{"node", node}
                       << QPair<QByteArray, QByteArray>{"resource", resource}
                       << QPair<QByteArray, QByteArray>{"unit", qstrcmp(resource, "cpu") == 0 ? "core" : "byte"};
                w.sample(family, quantity->value(), labels);
            }
        }
    }
}

} // namespace

QByteArray render(const ObjectStore &store, const QString &node)
{
    PrometheusTextWriter w;
    workloads(w, store);
    pods(w, store, node.toUtf8());
    return w.text();
}

} // namespace KubeStateMetrics
