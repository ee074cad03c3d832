// SPDX-License-Identifier: GPL-3.0-or-later
#include "deploymentcontroller.h"

#include "eventrecorder.h"
#include "kubejson.h"
#include "kubelet.h"
#include "objectstore.h"
#include "podtemplate.h"

#include <QJsonArray>
#include <algorithm>

using PodTemplate::isReady;
using PodTemplate::name;

namespace {

const QString deployments = QStringLiteral("deployments");
const QString replicasets = QStringLiteral("replicasets");
const QString pods = QStringLiteral("pods");
const QString hashLabel = QStringLiteral("pod-template-hash");
const QString revisionAnnotation = QStringLiteral("deployment.kubernetes.io/revision");

int readyCount(const QList<QJsonObject> &list)
{
    return static_cast<int>(std::count_if(list.begin(), list.end(), isReady));
}

// Which pod goes first when there are too many: not ready before ready, newer before older.
void sortForDeletion(QList<QJsonObject> &list)
{
    std::sort(list.begin(), list.end(), [](const QJsonObject &a, const QJsonObject &b) {
        if (isReady(a) != isReady(b))
            return !isReady(a);
        return KubeJson::at(a, QStringLiteral("metadata.creationTimestamp")).toString() >
               KubeJson::at(b, QStringLiteral("metadata.creationTimestamp")).toString();
    });
}

QJsonObject condition(const QString &type, bool status, const QString &reason, const QString &message,
                      const QJsonArray &old)
{
    const QString text = status ? QStringLiteral("True") : QStringLiteral("False");
    QString transition = KubeJson::now();
    for (const QJsonValue value : old) {
        const QJsonObject c = value.toObject();
        if (c.value(QStringLiteral("type")) == type && c.value(QStringLiteral("status")) == text)
            transition = c.value(QStringLiteral("lastTransitionTime")).toString();
    }
    QString updated = KubeJson::now();
    for (const QJsonValue value : old) {
        const QJsonObject c = value.toObject();
        if (c.value(QStringLiteral("type")) == type && c.value(QStringLiteral("status")) == text &&
            c.value(QStringLiteral("reason")) == reason)
            updated = c.value(QStringLiteral("lastUpdateTime")).toString();
    }
    return QJsonObject{{QStringLiteral("type"), type},
                       {QStringLiteral("status"), text},
                       {QStringLiteral("lastUpdateTime"), updated},
                       {QStringLiteral("lastTransitionTime"), transition},
                       {QStringLiteral("reason"), reason},
                       {QStringLiteral("message"), message}};
}

} // namespace

DeploymentController::DeploymentController(ObjectStore &store, Kubelet &kubelet, EventRecorder &events, QString node)
    : m_store(store), m_kubelet(kubelet), m_events(events), m_node(std::move(node))
{}

DeploymentController::Pods DeploymentController::podsOf(const QJsonObject &deployment, const QString &hash) const
{
    const QString deploymentName = name(deployment);
    const QString ns = KubeJson::at(deployment, QStringLiteral("metadata.namespace")).toString();
    Pods result;
    for (const QJsonObject &pod : m_store.list(pods, ns)) {
        const QString podHash = PodTemplate::label(pod, hashLabel);
        if (PodTemplate::ownerName(pod, QStringLiteral("ReplicaSet")) != deploymentName + QLatin1Char('-') + podHash)
            continue;
        if (PodTemplate::isTerminating(pod))
            result.terminating << pod;
        else if (podHash == hash)
            result.current << pod;
        else
            result.old << pod;
    }
    return result;
}

QJsonObject DeploymentController::ensureReplicaSet(const QJsonObject &deployment, const QString &hash)
{
    const QString ns = KubeJson::at(deployment, QStringLiteral("metadata.namespace")).toString();
    const QString rsName = name(deployment) + QLatin1Char('-') + hash;
    if (std::optional<QJsonObject> existing = m_store.get(replicasets, ns, rsName))
        return *existing;
    int revision = 0;
    for (const QJsonObject &rs : m_store.list(replicasets, ns))
        if (PodTemplate::ownerName(rs, QStringLiteral("Deployment")) == name(deployment))
            revision = std::max(revision, KubeJson::at(rs, QStringLiteral("metadata.annotations"))
                                              .toObject()
                                              .value(revisionAnnotation)
                                              .toString()
                                              .toInt());
    QJsonObject podTemplate = KubeJson::at(deployment, QStringLiteral("spec.template")).toObject();
    QJsonObject labels = KubeJson::at(podTemplate, QStringLiteral("metadata.labels")).toObject();
    labels.insert(hashLabel, hash);
    KubeJson::set(podTemplate, QStringLiteral("metadata.labels"), labels);
    QJsonObject selector = KubeJson::at(deployment, QStringLiteral("spec.selector.matchLabels")).toObject();
    selector.insert(hashLabel, hash);
    const QJsonObject rs{
        {QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("ReplicaSet")},
        {QStringLiteral("metadata"),
         QJsonObject{
             {QStringLiteral("name"), rsName},
             {QStringLiteral("namespace"), ns},
             {QStringLiteral("labels"), labels},
             {QStringLiteral("annotations"), QJsonObject{{revisionAnnotation, QString::number(revision + 1)}}},
             {QStringLiteral("ownerReferences"),
              QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
                                     {QStringLiteral("kind"), QStringLiteral("Deployment")},
                                     {QStringLiteral("name"), name(deployment)},
                                     {QStringLiteral("uid"), KubeJson::at(deployment, QStringLiteral("metadata.uid"))},
                                     {QStringLiteral("controller"), true},
                                     {QStringLiteral("blockOwnerDeletion"), true}}}}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("replicas"), 0},
                     {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), selector}}},
                     {QStringLiteral("template"), podTemplate}}},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("replicas"), 0}}},
    };
    return m_store.create(replicasets, rs);
}

void DeploymentController::createPod(const QJsonObject &deployment, const QJsonObject &replicaSet, const QString &hash)
{
    const QString ns = KubeJson::at(deployment, QStringLiteral("metadata.namespace")).toString();
    QString podName;
    do {
        podName = name(replicaSet) + QLatin1Char('-') + KubeJson::randomSuffix();
    } while (m_store.get(pods, ns, podName));
    QJsonObject pod = PodTemplate::makePod(deployment, podName, replicaSet, QJsonObject{{hashLabel, hash}}, m_node);
    m_store.create(pods, pod);
    m_events.normal(replicaSet, QStringLiteral("SuccessfulCreate"), QStringLiteral("Created pod: %1").arg(podName),
                    QStringLiteral("replicaset-controller"));
    m_kubelet.runPod(ns, podName);
}

void DeploymentController::deletePod(const QJsonObject &pod)
{
    const QString ns = KubeJson::at(pod, QStringLiteral("metadata.namespace")).toString();
    const QString rsName = PodTemplate::ownerName(pod, QStringLiteral("ReplicaSet"));
    if (const std::optional<QJsonObject> rs = m_store.get(replicasets, ns, rsName))
        m_events.normal(*rs, QStringLiteral("SuccessfulDelete"), QStringLiteral("Deleted pod: %1").arg(name(pod)),
                        QStringLiteral("replicaset-controller"));
    m_kubelet.deletePod(ns, name(pod),
                        KubeJson::at(pod, QStringLiteral("spec.terminationGracePeriodSeconds")).toInt(30));
}

void DeploymentController::reconcile(const QJsonObject &deployment)
{
    const QJsonObject spec = deployment.value(QStringLiteral("spec")).toObject();
    const int desired = spec.value(QStringLiteral("replicas")).toInt(1);
    const QString hash = KubeJson::templateHash(spec.value(QStringLiteral("template")).toObject());
    const QJsonObject replicaSet = ensureReplicaSet(deployment, hash);
    Pods current = podsOf(deployment, hash);

    const QJsonObject strategy = spec.value(QStringLiteral("strategy")).toObject();
    if (strategy.value(QStringLiteral("type")).toString() == QLatin1String("Recreate")) {
        if (!current.old.isEmpty()) {
            for (const QJsonObject &pod : current.old)
                deletePod(pod);
        } else if (current.terminating.isEmpty()) {
            for (int i = static_cast<int>(current.current.size()); i < desired; ++i)
                createPod(deployment, replicaSet, hash);
        }
    } else {
        const QJsonObject rolling = strategy.value(QStringLiteral("rollingUpdate")).toObject();
        const int maxSurge =
            PodTemplate::resolveIntOrPercent(rolling.value(QStringLiteral("maxSurge")), desired, true, 1);
        int maxUnavailable =
            PodTemplate::resolveIntOrPercent(rolling.value(QStringLiteral("maxUnavailable")), desired, false, 0);
        if (maxSurge == 0 && maxUnavailable == 0)
            maxUnavailable = 1;
        const int total = static_cast<int>(current.current.size() + current.old.size());

        // Up: new pods, within the surge.
        const int room = desired + maxSurge - total;
        const int missing = desired - static_cast<int>(current.current.size());
        for (int i = 0; i < std::min(room, missing); ++i)
            createPod(deployment, replicaSet, hash);

        // Down: old pods, as long as enough stay available; extra new pods when scaling in.
        QList<QJsonObject> all = current.current + current.old;
        int available = readyCount(all);
        const int minAvailable = desired - maxUnavailable;
        sortForDeletion(current.old);
        for (const QJsonObject &pod : std::as_const(current.old)) {
            if (isReady(pod)) {
                if (available - 1 < minAvailable)
                    break;
                --available;
            }
            deletePod(pod);
        }
        if (current.old.isEmpty() && current.current.size() > desired) {
            sortForDeletion(current.current);
            for (qsizetype i = 0; i < current.current.size() - desired; ++i)
                deletePod(current.current.at(i));
        }
    }
    syncReplicaSets(deployment, hash);
    writeStatus(deployment, hash);
}

void DeploymentController::syncReplicaSets(const QJsonObject &deployment, const QString &hash)
{
    const QString ns = KubeJson::at(deployment, QStringLiteral("metadata.namespace")).toString();
    const Pods now = podsOf(deployment, hash);
    QList<QJsonObject> owned;
    for (const QJsonObject &rs : m_store.list(replicasets, ns))
        if (PodTemplate::ownerName(rs, QStringLiteral("Deployment")) == name(deployment))
            owned << rs;
    int revision = 0;
    QList<QJsonObject> emptyOld;
    for (QJsonObject rs : owned) {
        const QString rsHash = PodTemplate::label(rs, hashLabel);
        QList<QJsonObject> mine;
        for (const QJsonObject &pod : now.current + now.old)
            if (PodTemplate::label(pod, hashLabel) == rsHash)
                mine << pod;
        const int replicas = static_cast<int>(mine.size());
        const int before = KubeJson::at(rs, QStringLiteral("spec.replicas")).toInt();
        if (replicas != before)
            m_events.normal(deployment, QStringLiteral("ScalingReplicaSet"),
                            QStringLiteral("Scaled %1 replica set %2 from %3 to %4")
                                .arg(replicas > before ? QStringLiteral("up") : QStringLiteral("down"), name(rs))
                                .arg(before)
                                .arg(replicas),
                            QStringLiteral("deployment-controller"));
        KubeJson::set(rs, QStringLiteral("spec.replicas"), replicas);
        KubeJson::set(rs, QStringLiteral("status"),
                      QJsonObject{{QStringLiteral("replicas"), replicas},
                                  {QStringLiteral("fullyLabeledReplicas"), replicas},
                                  {QStringLiteral("readyReplicas"), readyCount(mine)},
                                  {QStringLiteral("availableReplicas"), readyCount(mine)},
                                  {QStringLiteral("observedGeneration"),
                                   KubeJson::at(rs, QStringLiteral("metadata.generation"))}});
        m_store.update(replicasets, rs);
        const int rsRevision = KubeJson::at(rs, QStringLiteral("metadata.annotations"))
                                   .toObject()
                                   .value(revisionAnnotation)
                                   .toString()
                                   .toInt();
        if (rsHash == hash)
            revision = rsRevision;
        else if (replicas == 0)
            emptyOld << rs;
    }
    // revisionHistoryLimit: the oldest empty ReplicaSets go.
    const int limit = KubeJson::at(deployment, QStringLiteral("spec.revisionHistoryLimit")).toInt(10);
    std::sort(emptyOld.begin(), emptyOld.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return KubeJson::at(a, QStringLiteral("metadata.creationTimestamp")).toString() <
               KubeJson::at(b, QStringLiteral("metadata.creationTimestamp")).toString();
    });
    for (qsizetype i = 0; i + limit < emptyOld.size(); ++i)
        m_store.remove(replicasets, ns, name(emptyOld.at(i)));

    if (std::optional<QJsonObject> fresh = m_store.get(deployments, ns, name(deployment))) {
        QJsonObject annotations = KubeJson::at(*fresh, QStringLiteral("metadata.annotations")).toObject();
        if (revision > 0 && annotations.value(revisionAnnotation).toString() != QString::number(revision)) {
            annotations.insert(revisionAnnotation, QString::number(revision));
            KubeJson::set(*fresh, QStringLiteral("metadata.annotations"), annotations);
            m_store.update(deployments, *fresh);
        }
    }
}

void DeploymentController::writeStatus(const QJsonObject &deployment, const QString &hash)
{
    const QString ns = KubeJson::at(deployment, QStringLiteral("metadata.namespace")).toString();
    std::optional<QJsonObject> fresh = m_store.get(deployments, ns, name(deployment));
    if (!fresh)
        return;
    const Pods now = podsOf(*fresh, hash);
    const QJsonObject spec = fresh->value(QStringLiteral("spec")).toObject();
    const int desired = spec.value(QStringLiteral("replicas")).toInt(1);
    const QList<QJsonObject> all = now.current + now.old;
    const int replicas = static_cast<int>(all.size());
    const int updated = static_cast<int>(now.current.size());
    const int ready = readyCount(all);
    const int maxUnavailable = PodTemplate::resolveIntOrPercent(
        KubeJson::at(spec, QStringLiteral("strategy.rollingUpdate.maxUnavailable")), desired, false, 0);
    const QString rsName = name(*fresh) + QLatin1Char('-') + hash;

    const QJsonObject old = fresh->value(QStringLiteral("status")).toObject();
    const QJsonArray oldConditions = old.value(QStringLiteral("conditions")).toArray();
    const bool complete = updated == desired && replicas == desired && ready == desired && now.terminating.isEmpty();
    const QString signature =
        QStringLiteral("%1/%2/%3/%4/%5").arg(hash).arg(desired).arg(updated).arg(ready).arg(replicas);
    const QString key = ns + QLatin1Char('/') + name(*fresh);
    Progress &progress = m_progress[key];
    if (progress.signature != signature) {
        progress.signature = signature;
        progress.at = QDateTime::currentDateTimeUtc();
    }
    const int deadline = spec.value(QStringLiteral("progressDeadlineSeconds")).toInt(600);
    QJsonObject progressing;
    if (complete)
        progressing =
            condition(QStringLiteral("Progressing"), true, QStringLiteral("NewReplicaSetAvailable"),
                      QStringLiteral("ReplicaSet \"%1\" has successfully progressed.").arg(rsName), oldConditions);
    else if (progress.at.secsTo(QDateTime::currentDateTimeUtc()) > deadline)
        progressing =
            condition(QStringLiteral("Progressing"), false, QStringLiteral("ProgressDeadlineExceeded"),
                      QStringLiteral("ReplicaSet \"%1\" has timed out progressing.").arg(rsName), oldConditions);
    else
        progressing = condition(QStringLiteral("Progressing"), true, QStringLiteral("ReplicaSetUpdated"),
                                QStringLiteral("ReplicaSet \"%1\" is progressing.").arg(rsName), oldConditions);
    const bool minimum = ready >= desired - maxUnavailable;
    const QJsonObject availability =
        condition(QStringLiteral("Available"), minimum,
                  minimum ? QStringLiteral("MinimumReplicasAvailable") : QStringLiteral("MinimumReplicasUnavailable"),
                  minimum ? QStringLiteral("Deployment has minimum availability.")
                          : QStringLiteral("Deployment does not have minimum availability."),
                  oldConditions);

    QJsonObject status{
        {QStringLiteral("observedGeneration"), KubeJson::at(*fresh, QStringLiteral("metadata.generation"))},
        {QStringLiteral("replicas"), replicas},
        {QStringLiteral("updatedReplicas"), updated},
        {QStringLiteral("readyReplicas"), ready},
        {QStringLiteral("availableReplicas"), ready},
        {QStringLiteral("conditions"), QJsonArray{availability, progressing}},
    };
    const int unavailable = std::max(0, std::max(desired, replicas) - ready);
    if (unavailable > 0)
        status.insert(QStringLiteral("unavailableReplicas"), unavailable);
    fresh->insert(QStringLiteral("status"), status);
    m_store.update(deployments, *fresh);
}
