// SPDX-License-Identifier: GPL-3.0-or-later
#include "statefulsetcontroller.h"

#include "eventrecorder.h"
#include "kubejson.h"
#include "kubelet.h"
#include "objectstore.h"
#include "podtemplate.h"

#include <QJsonArray>
#include <map>

using PodTemplate::isReady;
using PodTemplate::isTerminating;
using PodTemplate::name;

namespace {

const QString statefulsets = QStringLiteral("statefulsets");
const QString pods = QStringLiteral("pods");
const QString revisionLabel = QStringLiteral("controller-revision-hash");

QString nsOf(const QJsonObject &object)
{
    return KubeJson::at(object, QStringLiteral("metadata.namespace")).toString();
}

} // namespace

StatefulSetController::StatefulSetController(ObjectStore &store, Kubelet &kubelet, EventRecorder &events, QString node)
    : m_store(store), m_kubelet(kubelet), m_events(events), m_node(std::move(node))
{}

void StatefulSetController::createPod(const QJsonObject &statefulSet, int ordinal, const QString &revision)
{
    const QString podName = QStringLiteral("%1-%2").arg(name(statefulSet)).arg(ordinal);
    const QJsonObject pod =
        PodTemplate::makePod(statefulSet, podName, statefulSet,
                             QJsonObject{{revisionLabel, revision},
                                         {QStringLiteral("statefulset.kubernetes.io/pod-name"), podName},
                                         {QStringLiteral("apps.kubernetes.io/pod-index"), QString::number(ordinal)}},
                             m_node);
    m_store.create(pods, pod);
    m_events.normal(statefulSet, QStringLiteral("SuccessfulCreate"),
                    QStringLiteral("create Pod %1 in StatefulSet %2 successful").arg(podName, name(statefulSet)),
                    QStringLiteral("statefulset-controller"));
    m_kubelet.runPod(nsOf(statefulSet), podName);
}

void StatefulSetController::deletePod(const QJsonObject &statefulSet, const QJsonObject &pod)
{
    m_events.normal(statefulSet, QStringLiteral("SuccessfulDelete"),
                    QStringLiteral("delete Pod %1 in StatefulSet %2 successful").arg(name(pod), name(statefulSet)),
                    QStringLiteral("statefulset-controller"));
    m_kubelet.deletePod(nsOf(pod), name(pod),
                        KubeJson::at(pod, QStringLiteral("spec.terminationGracePeriodSeconds")).toInt(30));
}

void StatefulSetController::reconcile(const QJsonObject &statefulSet)
{
    const QString ns = nsOf(statefulSet);
    const int desired = KubeJson::at(statefulSet, QStringLiteral("spec.replicas")).toInt(1);
    const QString revision =
        name(statefulSet) + QLatin1Char('-') +
        KubeJson::templateHash(KubeJson::at(statefulSet, QStringLiteral("spec.template")).toObject());
    std::map<int, QJsonObject> byOrdinal;
    const QString prefix = name(statefulSet) + QLatin1Char('-');
    for (const QJsonObject &pod : m_store.list(pods, ns)) {
        if (PodTemplate::ownerName(pod, QStringLiteral("StatefulSet")) != name(statefulSet))
            continue;
        bool ok = false;
        const int ordinal = name(pod).mid(prefix.size()).toInt(&ok);
        if (ok)
            byOrdinal[ordinal] = pod;
    }

    const auto act = [&]() {
        // Up, in order: each pod only when the ones before it run and are ready.
        for (int ordinal = 0; ordinal < desired; ++ordinal) {
            const auto it = byOrdinal.find(ordinal);
            if (it == byOrdinal.end()) {
                createPod(statefulSet, ordinal, revision);
                return;
            }
            if (isTerminating(it->second) || !isReady(it->second))
                return;
        }
        // Down, from the highest ordinal, one at a time.
        for (auto it = byOrdinal.rbegin(); it != byOrdinal.rend(); ++it) {
            if (it->first < desired)
                break;
            if (!isTerminating(it->second))
                deletePod(statefulSet, it->second);
            return;
        }
        // A new revision, from the highest ordinal down.
        for (auto it = byOrdinal.rbegin(); it != byOrdinal.rend(); ++it) {
            if (PodTemplate::label(it->second, revisionLabel) != revision) {
                deletePod(statefulSet, it->second);
                return;
            }
        }
    };
    act();
    writeStatus(statefulSet, revision);
}

void StatefulSetController::writeStatus(const QJsonObject &statefulSet, const QString &revision)
{
    std::optional<QJsonObject> fresh = m_store.get(statefulsets, nsOf(statefulSet), name(statefulSet));
    if (!fresh)
        return;
    int replicas = 0;
    int ready = 0;
    int updated = 0;
    for (const QJsonObject &pod : m_store.list(pods, nsOf(statefulSet))) {
        if (PodTemplate::ownerName(pod, QStringLiteral("StatefulSet")) != name(statefulSet) || isTerminating(pod))
            continue;
        ++replicas;
        ready += isReady(pod) ? 1 : 0;
        updated += PodTemplate::label(pod, revisionLabel) == revision ? 1 : 0;
    }
    const int desired = KubeJson::at(*fresh, QStringLiteral("spec.replicas")).toInt(1);
    const QJsonObject old = fresh->value(QStringLiteral("status")).toObject();
    QString current = old.value(QStringLiteral("currentRevision")).toString(revision);
    if (updated == replicas && replicas == desired)
        current = revision; // the rollout is through
    QJsonObject status{
        {QStringLiteral("observedGeneration"), KubeJson::at(*fresh, QStringLiteral("metadata.generation"))},
        {QStringLiteral("replicas"), replicas},
        {QStringLiteral("readyReplicas"), ready},
        {QStringLiteral("availableReplicas"), ready},
        {QStringLiteral("currentReplicas"), current == revision ? updated : replicas - updated},
        {QStringLiteral("updatedReplicas"), updated},
        {QStringLiteral("currentRevision"), current},
        {QStringLiteral("updateRevision"), revision},
        {QStringLiteral("collisionCount"), 0},
    };
    fresh->insert(QStringLiteral("status"), status);
    m_store.update(statefulsets, *fresh);
}
