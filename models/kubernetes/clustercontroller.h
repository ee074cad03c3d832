// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "kubernetes/kubeconfig.h"
#include "kubernetes/workload.h"
#include "kubernetes/workloadchange.h"

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <functional>
#include <vector>

class AnnotationModel;
class KubeClient;
class ResourceWatch;

// Kubernetes as a source and a target next to Prometheus and the load tester: the namespace's
// Deployments and StatefulSets kept current by watches (ResourceWatch), actions on them read
// back, and every change on the timelines.
//
// - change() (scale, resources, env, rollout restart): the annotation says what was asked and what happened: "worker
// replicas 1 → 0"
//   becomes a region until the rollout is done ("rolled out in 4.2 s"), or says it did not
//   ("not rolled out after 5 min: 1/3 ready"); a refusal is a failed annotation in the API's
//   words ("403 Forbidden: …"). Nothing pretends to have worked.
// - A change nobody made here (kubectl by a colleague, an autoscaler, Helm) becomes one
//   annotation of source "kubernetes": "worker replicas 3 → 5, not by Chaoscope"; changes to
//   one workload within 1.5 s fold into one.
// - A container that restarts: "starter-7d9f restarted: OOMKilled (exit 137)", a restart
//   loop folded to one annotation a minute per pod; a running pod that stops being ready,
//   and Warning events ("BackOff", "FailedScheduling"), once a minute per pod and reason.
//   The same news from several pods of one workload within seconds (a rollout, a node lost)
//   is one annotation with a count: "worker: 3 pods restarted: OOMKilled (exit 137)".
class ClusterController : public QObject
{
    Q_OBJECT
public:
    // What a workload's pods say together, for the dock's restarts column.
    struct PodSummary
    {
        int pods = 0;
        int ready = 0;
        int restarts = 0;   // of its containers, over the pods there now (as kubectl's RESTARTS)
        QString lastReason; // of the latest restart: "OOMKilled (exit 137)"
    };

    ClusterController(KubeTarget target, AnnotationModel *annotations, QObject *parent = nullptr);
    ~ClusterController() override;

    void start();
    KubeClient *client() const { return m_client; }
    // Sorted by name, Deployments and StatefulSets together.
    const std::vector<Workload> &workloads() const { return m_workloads; }
    const Workload *workload(const QString &key) const;
    // By name ("worker") or key ("statefulsets/camunda"); null when there is none, or when a
    // bare name is both a Deployment and a StatefulSet.
    const Workload *find(const QString &nameOrKey) const;
    bool isHealthy() const { return m_problems.isEmpty(); }
    QString stateText() const;

    // Makes a change and reads it back: the future answers the annotation's text once the API
    // has taken it ("worker replicas 1 → 0"), or the refusal in the API's words; the rollout
    // goes on and is annotated when it ends (or does not within the timeout).
    QFuture<Result<QString>> change(const WorkloadChange &change);
    QFuture<Result<QString>> scale(const QString &key, int replicas)
    {
        return change(WorkloadChange::scale(key, replicas));
    }
    // Whether the last change of a workload has rolled out; an error names what is missing
    // ("2/3 ready", "no workload …").
    Result<bool> rolloutState(const QString &nameOrKey) const;
    PodSummary podsOf(const QString &key) const;
    // Watch another namespace from now on (a dashboard's "$namespace" took a new value): the
    // workloads of the old one go, those of the new one are listed. Annotations stay.
    void setNamespace(const QString &name);
    QString namespaceName() const;
    // Whether a change of replicas is one to confirm first: to 0, or by more than ×2 either way,
    // the rule of the load tester's rate.
    static bool needsConfirmation(int from, int to);

    // For tests.
    void setClock(std::function<qint64()> clock) { m_clock = std::move(clock); }
    void setRolloutTimeoutMs(int ms) { m_rolloutTimeoutMs = ms; }
    ResourceWatch *watchOf(const QString &resource) const;

signals:
    void workloadsChanged();
    void podsChanged(); // a pod came, went, restarted or changed readiness
    // Another namespace is watched from now on (setNamespace), before its workloads are listed.
    void namespaceChanged(const QString &name);
    void stateChanged();

private:
    struct Pending // an action of ours, waiting to be seen and rolled out
    {
        QString key;
        QStringList changes;         // in the words of Workload::specChanges, to know them in the watch
        std::optional<int> replicas; // a scale: the count to reach
        qint64 sentAtMs = 0;
        qint64 generation = 0; // of the spec the API server answered with
        quint64 annotation = 0;
        bool seen = false; // the watch has shown the new spec
    };
    struct Folding // an outside change annotated moments ago, to fold more into
    {
        quint64 annotation = 0;
        qint64 atMs = 0;
    };
    struct Burst // the same news from pods of one workload, folded into one annotation
    {
        quint64 annotation = 0;
        qint64 atMs = 0;
        QStringList pods;
    };
    struct PodSeen
    {
        QJsonObject labels;
        bool ready = false;
        QHash<QString, int> restarts; // by container
        QString lastReason;
        qint64 lastRestartMs = 0;
    };

    void replaceAll(Workload::Kind kind, const QList<QJsonObject> &items);
    void apply(Workload::Kind kind, const QString &type, const QJsonObject &object);
    void noteOutsideChange(const Workload &before, const Workload &after);
    void checkRollouts();
    void podChanged(const QString &type, const QJsonObject &pod);
    void noteReadiness(const QString &pod, const QJsonObject &object);
    // Annotates news of a pod (`news` without the pod's name: "restarted: OOMKilled (exit
    // 137)"), or folds it into the same news of its workload's other pods moments ago.
    void notePodNews(const QString &pod, const QString &news, const QString &foldAs, const QStringList &tags,
                     qint64 atMs);
    const Workload *workloadOfPod(const QString &pod) const;
    void eventChanged(const QString &type, const QJsonObject &event);
    // Whether `what` (a pod and reason) was annotated within the last minute; marks it so.
    bool recentlyNoted(const QString &what, qint64 now);

    KubeClient *m_client;
    AnnotationModel *m_annotations;
    std::vector<ResourceWatch *> m_watches;
    std::vector<Workload> m_workloads;
    std::vector<Pending> m_pending;
    QHash<QString, Folding> m_folding;  // by workload key
    QHash<QString, PodSeen> m_pods;     // by pod name
    QHash<QString, Burst> m_bursts;     // by workload and news
    QHash<QString, qint64> m_notedAt;   // pod/container or pod/reason → when last annotated
    qint64 m_startedAtMs = 0;           // events older than this are history, not news
    QHash<QString, QString> m_problems; // resource → what is wrong with its watch
    QTimer m_rolloutCheck;
    std::function<qint64()> m_clock;
    int m_rolloutTimeoutMs = 5 * 60'000;
};
