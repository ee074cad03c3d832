// SPDX-License-Identifier: GPL-3.0-or-later
#include "tables.h"

#include "kubejson.h"
#include "podtemplate.h"

#include <QDateTime>
#include <QJsonArray>
#include <QStringList>

namespace Tables {
namespace {

struct Column
{
    const char *name;
    const char *type;
    const char *description;
    int priority = 0;
};

QJsonArray columns(const QList<Column> &list)
{
    QJsonArray array;
    bool first = true;
    for (const Column &c : list) {
        array.append(QJsonObject{{QStringLiteral("name"), QLatin1String(c.name)},
                                 {QStringLiteral("type"), QLatin1String(c.type)},
                                 {QStringLiteral("format"), first ? QStringLiteral("name") : QString()},
                                 {QStringLiteral("description"), QLatin1String(c.description)},
                                 {QStringLiteral("priority"), c.priority}});
        first = false;
    }
    return array;
}

QString age(const QJsonObject &object)
{
    const QDateTime created =
        KubeJson::parseTimestamp(KubeJson::at(object, QStringLiteral("metadata.creationTimestamp")).toString());
    return created.isValid() ? KubeJson::humanDuration(created.secsTo(QDateTime::currentDateTimeUtc()))
                             : QStringLiteral("<unknown>");
}

QString since(const QString &timestamp)
{
    const QDateTime time = KubeJson::parseTimestamp(timestamp);
    return time.isValid() ? KubeJson::humanDuration(time.secsTo(QDateTime::currentDateTimeUtc()))
                          : QStringLiteral("<unknown>");
}

int intAt(const QJsonObject &object, const char *path)
{
    return KubeJson::at(object, QLatin1String(path)).toInt();
}

QStringList containerField(const QJsonObject &object, const char *field)
{
    QStringList values;
    for (const QJsonValue c : KubeJson::at(object, QStringLiteral("spec.template.spec.containers")).toArray())
        values << c.toObject().value(QLatin1String(field)).toString();
    return values;
}

QString selector(const QJsonObject &object)
{
    const QJsonObject labels = KubeJson::at(object, QStringLiteral("spec.selector.matchLabels")).toObject();
    QStringList parts;
    for (auto it = labels.begin(); it != labels.end(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value().toString();
    return parts.join(QLatin1Char(','));
}

// kubectl's STATUS of a pod: the phase, unless a container says more (CrashLoopBackOff,
// OOMKilled, ...), and Terminating while it is being deleted.
QString podStatus(const QJsonObject &pod)
{
    QString reason = KubeJson::at(pod, QStringLiteral("status.phase")).toString();
    const QString podReason = KubeJson::at(pod, QStringLiteral("status.reason")).toString();
    if (!podReason.isEmpty())
        reason = podReason;
    bool hasRunning = false;
    for (const QJsonValue value : KubeJson::at(pod, QStringLiteral("status.containerStatuses")).toArray()) {
        const QJsonObject state = value.toObject().value(QStringLiteral("state")).toObject();
        const QJsonObject waiting = state.value(QStringLiteral("waiting")).toObject();
        const QJsonObject terminated = state.value(QStringLiteral("terminated")).toObject();
        if (!waiting.value(QStringLiteral("reason")).toString().isEmpty()) {
            reason = waiting.value(QStringLiteral("reason")).toString();
        } else if (!terminated.isEmpty()) {
            const QString terminatedReason = terminated.value(QStringLiteral("reason")).toString();
            if (!terminatedReason.isEmpty())
                reason = terminatedReason;
            else if (terminated.value(QStringLiteral("signal")).toInt() != 0)
                reason = QStringLiteral("Signal:%1").arg(terminated.value(QStringLiteral("signal")).toInt());
            else
                reason = QStringLiteral("ExitCode:%1").arg(terminated.value(QStringLiteral("exitCode")).toInt());
        } else if (state.contains(QStringLiteral("running"))) {
            hasRunning = true;
        }
    }
    if (hasRunning && reason == QLatin1String("Completed"))
        reason = QStringLiteral("Running");
    if (PodTemplate::isTerminating(pod))
        reason = QStringLiteral("Terminating");
    return reason;
}

QJsonArray podCells(const QJsonObject &pod)
{
    const QJsonArray statuses = KubeJson::at(pod, QStringLiteral("status.containerStatuses")).toArray();
    const int total = static_cast<int>(
        std::max<qsizetype>(statuses.size(), KubeJson::at(pod, QStringLiteral("spec.containers")).toArray().size()));
    int ready = 0;
    int restarts = 0;
    QString lastRestart;
    for (const QJsonValue value : statuses) {
        const QJsonObject status = value.toObject();
        ready += status.value(QStringLiteral("ready")).toBool() ? 1 : 0;
        restarts += status.value(QStringLiteral("restartCount")).toInt();
        const QString finished = KubeJson::at(status, QStringLiteral("lastState.terminated.finishedAt")).toString();
        if (finished > lastRestart)
            lastRestart = finished;
    }
    const QString restartText = restarts > 0 && !lastRestart.isEmpty()
                                    ? QStringLiteral("%1 (%2 ago)").arg(restarts).arg(since(lastRestart))
                                    : QString::number(restarts);
    const QString ip = KubeJson::at(pod, QStringLiteral("status.podIP")).toString();
    return QJsonArray{PodTemplate::name(pod),
                      QStringLiteral("%1/%2").arg(ready).arg(total),
                      podStatus(pod),
                      restartText,
                      age(pod),
                      ip.isEmpty() ? QStringLiteral("<none>") : ip,
                      KubeJson::at(pod, QStringLiteral("spec.nodeName")).toString(QStringLiteral("<none>")),
                      QStringLiteral("<none>"),
                      QStringLiteral("<none>")};
}

QJsonArray eventCells(const QJsonObject &event)
{
    const QJsonObject involved = event.value(QStringLiteral("involvedObject")).toObject();
    const QString object = involved.value(QStringLiteral("kind")).toString().toLower() + QLatin1Char('/') +
                           involved.value(QStringLiteral("name")).toString();
    const QJsonObject source = event.value(QStringLiteral("source")).toObject();
    QString sourceText = source.value(QStringLiteral("component")).toString();
    if (source.contains(QStringLiteral("host")))
        sourceText += QStringLiteral(", ") + source.value(QStringLiteral("host")).toString();
    const int count = event.value(QStringLiteral("count")).toInt(1);
    QString lastSeen = since(event.value(QStringLiteral("lastTimestamp")).toString());
    if (count > 1)
        lastSeen = QStringLiteral("%1 (x%2 over %3)")
                       .arg(lastSeen)
                       .arg(count)
                       .arg(since(event.value(QStringLiteral("firstTimestamp")).toString()));
    return QJsonArray{lastSeen,
                      event.value(QStringLiteral("type")).toString(),
                      event.value(QStringLiteral("reason")).toString(),
                      object,
                      involved.value(QStringLiteral("fieldPath")).toString(),
                      sourceText,
                      event.value(QStringLiteral("message")).toString(),
                      since(event.value(QStringLiteral("firstTimestamp")).toString()),
                      count,
                      PodTemplate::name(event)};
}

QJsonArray cellsOf(const QString &resource, const QJsonObject &object)
{
    const QString objectName = PodTemplate::name(object);
    if (resource == QLatin1String("deployments"))
        return QJsonArray{
            objectName,
            QStringLiteral("%1/%2").arg(intAt(object, "status.readyReplicas")).arg(intAt(object, "spec.replicas")),
            intAt(object, "status.updatedReplicas"),
            intAt(object, "status.availableReplicas"),
            age(object),
            containerField(object, "name").join(QLatin1Char(',')),
            containerField(object, "image").join(QLatin1Char(',')),
            selector(object)};
    if (resource == QLatin1String("statefulsets"))
        return QJsonArray{
            objectName,
            QStringLiteral("%1/%2").arg(intAt(object, "status.readyReplicas")).arg(intAt(object, "spec.replicas")),
            age(object), containerField(object, "name").join(QLatin1Char(',')),
            containerField(object, "image").join(QLatin1Char(','))};
    if (resource == QLatin1String("replicasets"))
        return QJsonArray{objectName,
                          intAt(object, "spec.replicas"),
                          intAt(object, "status.replicas"),
                          intAt(object, "status.readyReplicas"),
                          age(object),
                          containerField(object, "name").join(QLatin1Char(',')),
                          containerField(object, "image").join(QLatin1Char(',')),
                          selector(object)};
    if (resource == QLatin1String("pods"))
        return podCells(object);
    if (resource == QLatin1String("events"))
        return eventCells(object);
    if (resource == QLatin1String("namespaces"))
        return QJsonArray{objectName, KubeJson::at(object, QStringLiteral("status.phase")).toString(), age(object)};
    if (resource == QLatin1String("nodes"))
        return QJsonArray{objectName, QStringLiteral("Ready"), QStringLiteral("<none>"), age(object),
                          QStringLiteral("v1.32.0-chaoscope")};
    return QJsonArray{objectName, age(object)};
}

QJsonArray definitionsOf(const QString &resource)
{
    if (resource == QLatin1String("deployments"))
        return columns({{"Name", "string", "Name must be unique within a namespace."},
                        {"Ready", "string", "Number of the pod with ready state"},
                        {"Up-to-date", "integer",
                         "Total number of non-terminated pods targeted by this deployment that have the "
                         "desired template spec."},
                        {"Available", "integer",
                         "Total number of available pods (ready for at least minReadySeconds) targeted by "
                         "this deployment."},
                        {"Age", "string",
                         "CreationTimestamp is a timestamp representing the server time when this object was "
                         "created."},
                        {"Containers", "string", "Names of each container in the template.", 1},
                        {"Images", "string", "Images referenced by each container in the template.", 1},
                        {"Selector", "string", "Label selector for pods.", 1}});
    if (resource == QLatin1String("statefulsets"))
        return columns({{"Name", "string", "Name must be unique within a namespace."},
                        {"Ready", "string", "Number of the pod with ready state"},
                        {"Age", "string",
                         "CreationTimestamp is a timestamp representing the server time when this object was "
                         "created."},
                        {"Containers", "string", "Names of each container in the template.", 1},
                        {"Images", "string", "Images referenced by each container in the template.", 1}});
    if (resource == QLatin1String("replicasets"))
        return columns(
            {{"Name", "string", "Name must be unique within a namespace."},
             {"Desired", "integer", "Replicas is the number of desired replicas."},
             {"Current", "integer", "Replicas is the most recently observed number of replicas."},
             {"Ready", "integer", "The number of ready replicas for this replica set."},
             {"Age", "string",
              "CreationTimestamp is a timestamp representing the server time when this object was "
              "created."},
             {"Containers", "string", "Names of each container in the template.", 1},
             {"Images", "string", "Images referenced by each container in the template.", 1},
             {"Selector", "string", "Selector is a label query over pods that should match the replica count.", 1}});
    if (resource == QLatin1String("pods"))
        return columns({{"Name", "string", "Name must be unique within a namespace."},
                        {"Ready", "string", "The aggregate readiness state of this pod for accepting traffic."},
                        {"Status", "string", "The aggregate status of the containers in this pod."},
                        {"Restarts", "string",
                         "The number of times the containers in this pod have been restarted and when the "
                         "last container in this pod has restarted."},
                        {"Age", "string",
                         "CreationTimestamp is a timestamp representing the server time when this object was "
                         "created."},
                        {"IP", "string",
                         "IP address allocated to the pod. Routable at least within the cluster. Empty if not "
                         "yet allocated.",
                         1},
                        {"Node", "string", "NodeName is a request to schedule this pod onto a specific node.", 1},
                        {"Nominated Node", "string",
                         "nominatedNodeName is set only when this pod preempts other pods on the node.", 1},
                        {"Readiness Gates", "string",
                         "If specified, all readiness gates will be evaluated for pod readiness.", 1}});
    if (resource == QLatin1String("events"))
        return columns({{"Last Seen", "string", "Time when this event was last observed."},
                        {"Type", "string", "Type of this event (Normal, Warning)."},
                        {"Reason", "string",
                         "This should be a short, machine understandable string that gives the reason for the "
                         "transition into the object's current status."},
                        {"Object", "string", "The object that this event is about."},
                        {"Subobject", "string", "The field of the object that this event is about.", 1},
                        {"Source", "string", "The component reporting this event.", 1},
                        {"Message", "string", "A human-readable description of the status of this operation."},
                        {"First Seen", "string", "The time at which the event was first recorded.", 1},
                        {"Count", "integer", "The number of times this event has occurred.", 1},
                        {"Name", "string", "Name must be unique within a namespace.", 1}});
    if (resource == QLatin1String("namespaces"))
        return columns({{"Name", "string", "Name must be unique within a namespace."},
                        {"Status", "string", "The status of the namespace"},
                        {"Age", "string",
                         "CreationTimestamp is a timestamp representing the server time when this "
                         "object was created."}});
    if (resource == QLatin1String("nodes"))
        return columns({{"Name", "string", "Name must be unique within a namespace."},
                        {"Status", "string", "The status of the node"},
                        {"Roles", "string", "The roles of the node"},
                        {"Age", "string",
                         "CreationTimestamp is a timestamp representing the server time when this "
                         "object was created."},
                        {"Version", "string", "Kubelet Version reported by the node."}});
    return columns({{"Name", "string", "Name must be unique within a namespace."},
                    {"Age", "string",
                     "CreationTimestamp is a timestamp representing the server time when this "
                     "object was created."}});
}

} // namespace

IncludeObject includeObjectFrom(const QString &parameter)
{
    if (parameter == QLatin1String("None"))
        return IncludeObject::None;
    if (parameter == QLatin1String("Object"))
        return IncludeObject::Object;
    return IncludeObject::Metadata;
}

bool knows(const QString &resource)
{
    static const QStringList resources{QStringLiteral("deployments"), QStringLiteral("statefulsets"),
                                       QStringLiteral("replicasets"), QStringLiteral("pods"),
                                       QStringLiteral("events"),      QStringLiteral("namespaces"),
                                       QStringLiteral("nodes")};
    return resources.contains(resource);
}

QJsonObject table(const QString &resource, const QList<QJsonObject> &objects, const QString &resourceVersion,
                  IncludeObject include)
{
    QJsonArray rows;
    for (const QJsonObject &object : objects) {
        QJsonObject row{{QStringLiteral("cells"), cellsOf(resource, object)}};
        if (include == IncludeObject::Object)
            row.insert(QStringLiteral("object"), object);
        else if (include == IncludeObject::Metadata)
            row.insert(QStringLiteral("object"),
                       QJsonObject{{QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata")},
                                   {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                                   {QStringLiteral("metadata"), object.value(QStringLiteral("metadata"))}});
        rows.append(row);
    }
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("Table")},
                       {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                       {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("resourceVersion"), resourceVersion}}},
                       {QStringLiteral("columnDefinitions"), definitionsOf(resource)},
                       {QStringLiteral("rows"), rows}};
}

} // namespace Tables
