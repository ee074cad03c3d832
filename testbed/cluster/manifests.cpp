// SPDX-License-Identifier: GPL-3.0-or-later
#include "manifests.h"

#include "kubejson.h"

#include <QJsonArray>
#include <QStringList>

namespace Manifests {

QJsonObject namespaceObject(const QString &name)
{
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Namespace")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), name},
                     {QStringLiteral("labels"), QJsonObject{{QStringLiteral("kubernetes.io/metadata.name"), name}}}}},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("finalizers"), QJsonArray{QStringLiteral("kubernetes")}}}},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}}},
    };
}

QJsonObject node(const ClusterConfig &config)
{
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Node")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), config.node}}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("addresses"),
                      QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("InternalIP")},
                                             {QStringLiteral("address"), QStringLiteral("127.0.0.1")}}}}}},
    };
}

QJsonObject workload(const WorkloadSpec &spec, const ClusterConfig &config)
{
    const ImageSpec image = config.images.value(spec.image);
    QJsonArray env;
    for (const auto &[name, value] : spec.env)
        env.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), value}});
    QJsonObject container{
        {QStringLiteral("name"), spec.name},
        {QStringLiteral("image"), spec.image},
        {QStringLiteral("imagePullPolicy"), QStringLiteral("IfNotPresent")},
        {QStringLiteral("resources"), spec.resources},
        {QStringLiteral("terminationMessagePath"), QStringLiteral("/dev/termination-log")},
        {QStringLiteral("terminationMessagePolicy"), QStringLiteral("File")},
    };
    if (!env.isEmpty())
        container.insert(QStringLiteral("env"), env);
    if (!spec.args.isEmpty())
        container.insert(QStringLiteral("args"), QJsonArray::fromStringList(spec.args));
    if (spec.containerPort > 0)
        container.insert(QStringLiteral("ports"),
                         QJsonArray{QJsonObject{{QStringLiteral("containerPort"), spec.containerPort},
                                                {QStringLiteral("protocol"), QStringLiteral("TCP")},
                                                {QStringLiteral("name"), QStringLiteral("http")}}});
    if (!image.readinessPath.isEmpty())
        container.insert(
            QStringLiteral("readinessProbe"),
            QJsonObject{{QStringLiteral("httpGet"), QJsonObject{{QStringLiteral("path"), image.readinessPath},
                                                                {QStringLiteral("port"), QStringLiteral("http")},
                                                                {QStringLiteral("scheme"), QStringLiteral("HTTP")}}},
                        {QStringLiteral("periodSeconds"), 1},
                        {QStringLiteral("timeoutSeconds"), 1},
                        {QStringLiteral("successThreshold"), 1},
                        {QStringLiteral("failureThreshold"), 3}});
    const QJsonObject podTemplate{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), spec.labels}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("containers"), QJsonArray{container}},
                     {QStringLiteral("restartPolicy"), QStringLiteral("Always")},
                     {QStringLiteral("terminationGracePeriodSeconds"), spec.terminationGracePeriodSeconds},
                     {QStringLiteral("dnsPolicy"), QStringLiteral("ClusterFirst")},
                     {QStringLiteral("schedulerName"), QStringLiteral("default-scheduler")}}},
    };
    QJsonObject workloadSpec{
        {QStringLiteral("replicas"), spec.replicas},
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), spec.labels}}},
        {QStringLiteral("template"), podTemplate},
        {QStringLiteral("revisionHistoryLimit"), 10},
    };
    QJsonObject metadata{{QStringLiteral("name"), spec.name},
                         {QStringLiteral("namespace"), config.ns},
                         {QStringLiteral("labels"), spec.labels}};
    if (spec.kind == QLatin1String("Deployment")) {
        workloadSpec.insert(
            QStringLiteral("strategy"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("RollingUpdate")},
                        {QStringLiteral("rollingUpdate"),
                         QJsonObject{{QStringLiteral("maxSurge"), 1}, {QStringLiteral("maxUnavailable"), 0}}}});
        workloadSpec.insert(QStringLiteral("progressDeadlineSeconds"), 600);
        metadata.insert(QStringLiteral("annotations"),
                        QJsonObject{{QStringLiteral("deployment.kubernetes.io/revision"), QStringLiteral("1")}});
    } else {
        workloadSpec.insert(QStringLiteral("serviceName"), spec.name);
        workloadSpec.insert(QStringLiteral("podManagementPolicy"), QStringLiteral("OrderedReady"));
        workloadSpec.insert(
            QStringLiteral("updateStrategy"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("RollingUpdate")},
                        {QStringLiteral("rollingUpdate"), QJsonObject{{QStringLiteral("partition"), 0}}}});
    }
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
                       {QStringLiteral("kind"), spec.kind},
                       {QStringLiteral("metadata"), metadata},
                       {QStringLiteral("spec"), workloadSpec},
                       {QStringLiteral("status"), QJsonObject()}};
}

QString selectorText(const QJsonObject &workload)
{
    const QJsonObject labels = KubeJson::at(workload, QStringLiteral("spec.selector.matchLabels")).toObject();
    QStringList parts;
    for (auto it = labels.begin(); it != labels.end(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value().toString();
    return parts.join(QLatin1Char(','));
}

QJsonObject scale(const QJsonObject &workload)
{
    const QJsonObject metadata = workload.value(QStringLiteral("metadata")).toObject();
    QJsonObject scaleMetadata;
    for (const char *field : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"})
        scaleMetadata.insert(QLatin1String(field), metadata.value(QLatin1String(field)));
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("Scale")},
        {QStringLiteral("apiVersion"), QStringLiteral("autoscaling/v1")},
        {QStringLiteral("metadata"), scaleMetadata},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("replicas"), KubeJson::at(workload, QStringLiteral("spec.replicas")).toInt()}}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("replicas"), KubeJson::at(workload, QStringLiteral("status.replicas")).toInt()},
                     {QStringLiteral("selector"), selectorText(workload)}}},
    };
}

} // namespace Manifests
