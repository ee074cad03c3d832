// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/clustercontroller.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "base/whenfinished.h"
#include "kubernetes/kubeclient.h"
#include "kubernetes/resourcewatch.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <algorithm>
#include <limits>

namespace {

constexpr qint64 kFoldMs = 1500;
// Our own change is recognised in the watch for this long after it was sent.
constexpr qint64 kOwnChangeMs = 30'000;
// A restart loop: one annotation per pod and container this often at most.
constexpr qint64 kRestartNoteMs = 60'000;
// The same news from pods of one workload this close together is one burst.
constexpr qint64 kBurstMs = 10'000;

} // namespace

ClusterController::ClusterController(KubeTarget target, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_client(new KubeClient(std::move(target), this)), m_annotations(annotations),
      m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    const auto watchWorkloads = [this](const QString &resource, Workload::Kind kind) {
        auto *watch = new ResourceWatch(m_client, QStringLiteral("apps/v1"), resource, this);
        connect(watch, &ResourceWatch::listed, this,
                [this, kind](const QList<QJsonObject> &items) { replaceAll(kind, items); });
        connect(watch, &ResourceWatch::changed, this,
                [this, kind](const QString &type, const QJsonObject &object) { apply(kind, type, object); });
        m_watches.push_back(watch);
    };
    watchWorkloads(QStringLiteral("deployments"), Workload::Kind::Deployment);
    watchWorkloads(QStringLiteral("statefulsets"), Workload::Kind::StatefulSet);
    auto *pods = new ResourceWatch(m_client, QStringLiteral("v1"), QStringLiteral("pods"), this);
    connect(pods, &ResourceWatch::listed, this, [this](const QList<QJsonObject> &items) {
        // A relist after a gap: the pods gone meanwhile are gone here too.
        QSet<QString> listed;
        for (const QJsonObject &pod : items)
            listed.insert(pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString());
        for (auto it = m_pods.begin(); it != m_pods.end();)
            it = listed.contains(it.key()) ? std::next(it) : m_pods.erase(it);
        for (const QJsonObject &pod : items)
            podChanged(QStringLiteral("LISTED"), pod);
    });
    connect(pods, &ResourceWatch::changed, this, &ClusterController::podChanged);
    m_watches.push_back(pods);
    auto *events = new ResourceWatch(m_client, QStringLiteral("v1"), QStringLiteral("events"), this);
    connect(events, &ResourceWatch::changed, this, &ClusterController::eventChanged);
    m_watches.push_back(events);
    for (ResourceWatch *watch : m_watches) {
        connect(watch, &ResourceWatch::stateChanged, this, [this, watch](bool healthy, const QString &message) {
            if (healthy)
                m_problems.remove(watch->resource());
            else
                m_problems.insert(watch->resource(), message);
            emit stateChanged();
        });
    }
    // The rollout of our own action is decided from the watch; this only ends the waits
    // that never end.
    m_rolloutCheck.setInterval(1000);
    connect(&m_rolloutCheck, &QTimer::timeout, this, &ClusterController::checkRollouts);
}

ClusterController::~ClusterController() = default;

void ClusterController::start()
{
    m_startedAtMs = m_clock();
    for (ResourceWatch *watch : m_watches)
        watch->start();
}

QString ClusterController::namespaceName() const
{
    return m_client->target().namespaceName;
}

void ClusterController::setNamespace(const QString &name)
{
    if (name.isEmpty() || name == namespaceName())
        return;
    for (ResourceWatch *watch : m_watches)
        watch->stop();
    // Our changes still rolling out are in the old namespace: their regions end here, said so.
    for (const Pending &pending : m_pending) {
        if (std::optional<Annotation> annotation =
                m_annotations ? m_annotations->find(pending.annotation) : std::nullopt) {
            annotation->endMs = m_clock();
            annotation->text += QStringLiteral(", rollout no longer watched (namespace changed)");
            m_annotations->update(*annotation);
        }
    }
    m_pending.clear();
    m_workloads.clear();
    m_pods.clear();
    m_bursts.clear();
    m_folding.clear();
    m_problems.clear();
    m_client->setNamespace(name);
    emit namespaceChanged(name);
    emit workloadsChanged();
    emit podsChanged();
    emit stateChanged();
    start();
}

ResourceWatch *ClusterController::watchOf(const QString &resource) const
{
    for (ResourceWatch *watch : m_watches) {
        if (watch->resource() == resource)
            return watch;
    }
    return nullptr;
}

const Workload *ClusterController::workload(const QString &key) const
{
    const auto found =
        std::find_if(m_workloads.begin(), m_workloads.end(), [&](const Workload &w) { return w.key() == key; });
    return found == m_workloads.end() ? nullptr : &*found;
}

const Workload *ClusterController::find(const QString &nameOrKey) const
{
    if (nameOrKey.contains(QLatin1Char('/')))
        return workload(nameOrKey);
    const Workload *named = nullptr;
    for (const Workload &w : m_workloads) {
        if (w.name != nameOrKey)
            continue;
        if (named)
            return nullptr; // a Deployment and a StatefulSet: the key says which
        named = &w;
    }
    return named;
}

Result<bool> ClusterController::rolloutState(const QString &nameOrKey) const
{
    const Workload *w = find(nameOrKey);
    if (!w)
        return Error::make(Error::Kind::Invalid, QStringLiteral("no workload %1 in the namespace").arg(nameOrKey));
    // Our own change still waiting counts even before the watch has shown its new spec: until
    // then the workload looks rolled out at its old generation.
    const bool ours =
        std::any_of(m_pending.cbegin(), m_pending.cend(), [&](const Pending &p) { return p.key == w->key(); });
    if (w->isRolledOut() && !ours)
        return true;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("%1/%2 ready, %3 updated").arg(w->ready).arg(w->desired).arg(w->updated));
}

QString ClusterController::stateText() const
{
    if (!m_problems.isEmpty())
        return m_problems.values().join(QStringLiteral("; "));
    return QStringLiteral("%1 · %2").arg(
        m_client->describe(),
        Format::counted(qint64(m_workloads.size()), QStringLiteral("workload"), QStringLiteral("workloads")));
}

bool ClusterController::needsConfirmation(int from, int to)
{
    if (to == 0)
        return from != 0;
    if (from == 0)
        return to > 2;
    return to > 2 * from || 2 * to < from;
}

void ClusterController::replaceAll(Workload::Kind kind, const QList<QJsonObject> &items)
{
    std::vector<Workload> kept;
    for (const Workload &w : m_workloads) {
        if (w.kind != kind)
            kept.push_back(w);
    }
    for (const QJsonObject &item : items) {
        Result<Workload> parsed = Workload::fromJson(item, kind);
        if (!parsed)
            continue;
        // A relist after a gap: what changed meanwhile is a change all the same.
        if (const Workload *was = workload(parsed->key()))
            noteOutsideChange(*was, parsed.value());
        kept.push_back(parsed.value());
    }
    std::sort(kept.begin(), kept.end(), [](const Workload &a, const Workload &b) { return a.name < b.name; });
    m_workloads = std::move(kept);
    emit workloadsChanged();
}

void ClusterController::apply(Workload::Kind kind, const QString &type, const QJsonObject &object)
{
    Result<Workload> parsed = Workload::fromJson(object, kind);
    if (!parsed)
        return;
    const auto found = std::find_if(m_workloads.begin(), m_workloads.end(),
                                    [&](const Workload &w) { return w.key() == parsed->key(); });
    if (type == QLatin1String("DELETED")) {
        if (found != m_workloads.end())
            m_workloads.erase(found);
    } else if (found == m_workloads.end()) {
        m_workloads.push_back(parsed.value());
        std::sort(m_workloads.begin(), m_workloads.end(),
                  [](const Workload &a, const Workload &b) { return a.name < b.name; });
    } else {
        const Workload before = *found;
        *found = parsed.value();
        noteOutsideChange(before, *found);
    }
    checkRollouts();
    emit workloadsChanged();
}

void ClusterController::noteOutsideChange(const Workload &before, const Workload &after)
{
    QStringList changes = Workload::specChanges(before, after);
    if (changes.isEmpty())
        return;
    const qint64 now = m_clock();
    // Our own change, seen coming back: not someone else's.
    for (Pending &pending : m_pending) {
        if (pending.key != after.key() || pending.seen || now - pending.sentAtMs >= kOwnChangeMs)
            continue;
        const bool ours = std::all_of(pending.changes.cbegin(), pending.changes.cend(),
                                      [&](const QString &change) { return changes.contains(change); });
        if (!ours)
            continue;
        pending.seen = true;
        for (const QString &change : pending.changes)
            changes.removeAll(change);
    }
    if (changes.isEmpty() || !m_annotations)
        return;
    const QString what = changes.join(QStringLiteral(", "));
    const auto folding = m_folding.constFind(after.key());
    if (folding != m_folding.cend() && now - folding->atMs < kFoldMs) {
        if (std::optional<Annotation> existing = m_annotations->find(folding->annotation)) {
            existing->text.replace(QStringLiteral(", not by Chaoscope"),
                                   QStringLiteral(", %1, not by Chaoscope").arg(what));
            m_annotations->update(*existing);
            return;
        }
    }
    Annotation annotation;
    annotation.timeMs = now;
    annotation.text = QStringLiteral("%1 %2, not by Chaoscope").arg(after.name, what);
    annotation.source = Annotation::Source::Kubernetes;
    annotation.tags = {QStringLiteral("kubernetes"), QStringLiteral("outside change")};
    m_folding.insert(after.key(), {m_annotations->add(annotation), now});
}

QFuture<Result<QString>> ClusterController::change(const WorkloadChange &change)
{
    const auto refused = [](const QString &message) {
        return finishedFuture(Result<QString>(Error::make(Error::Kind::Invalid, message)));
    };
    const Workload *target = find(change.workload);
    if (!target)
        return refused(QStringLiteral("no workload %1 in the namespace").arg(change.workload));
    if (const std::optional<QString> problem = change.problem(*target))
        return refused(*problem);
    const Workload before = *target;
    const Workload expected = change.appliedTo(before);
    const QStringList asked = Workload::specChanges(before, expected);
    if (asked.isEmpty())
        return finishedFuture(Result<QString>(QStringLiteral("%1: already so").arg(change.describe())));
    const QString key = before.key();
    const QString text = QStringLiteral("%1 %2").arg(before.name, asked.join(QStringLiteral(", ")));
    const qint64 sentAt = m_clock();
    auto promise = std::make_shared<QPromise<Result<QString>>>();
    promise->start();
    QFuture<Result<QString>> future = promise->future();
    Pending pending{key, asked, std::nullopt, sentAt, 0, 0, false};
    if (change.kind == WorkloadChange::Kind::Scale)
        pending.replicas = change.replicas;
    m_pending.push_back(pending);
    const auto forget = [this, key, sentAt] {
        m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                       [&](const Pending &p) { return p.key == key && p.sentAtMs == sentAt; }),
                        m_pending.end());
    };
    whenFinished(
        m_client->request(
            "PATCH", m_client->path(QStringLiteral("apps/v1"), before.resource(), before.name, change.subresource()),
            change.patchBody(before), change.contentType()),
        this,
        [this, promise, change, before, expected, text, sentAt, key, forget](const Result<QJsonObject> &answer) {
            Annotation annotation;
            annotation.timeMs = sentAt;
            annotation.source = Annotation::Source::Action;
            annotation.tags = {QStringLiteral("kubernetes"), QStringLiteral("action")};
            // Read back: the spec the API server answered with must be the one asked for.
            QString kept;
            qint64 generation = 0;
            if (answer.ok()) {
                if (change.kind == WorkloadChange::Kind::Scale) {
                    const int granted =
                        answer->value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(-1);
                    if (granted != change.replicas)
                        kept = QStringLiteral("the cluster kept %1").arg(granted);
                } else if (Result<Workload> now = Workload::fromJson(answer.value(), before.kind); now.ok()) {
                    generation = now->generation;
                    if (const QStringList missing = Workload::specChanges(expected, now.value()); !missing.isEmpty())
                        kept = QStringLiteral("the cluster answered %1").arg(missing.join(QStringLiteral(", ")));
                } else {
                    kept = QStringLiteral("the answer was not a %1: %2").arg(before.kindName(), now.error().message);
                }
            }
            if (!answer || !kept.isEmpty()) {
                forget();
                annotation.failed = true;
                annotation.tags << QStringLiteral("failed");
                annotation.text = answer.ok() ? QStringLiteral("%1: %2").arg(text, kept)
                                              : QStringLiteral("%1 refused: %2").arg(text, answer.error().message);
                if (m_annotations)
                    m_annotations->add(annotation);
                promise->addResult(Error::make(Error::Kind::Http, annotation.text));
                promise->finish();
                return;
            }
            annotation.text = text;
            // A region from the request until the rollout is done (checkRollouts ends it).
            annotation.endMs = sentAt;
            const quint64 id = m_annotations ? m_annotations->add(annotation) : 0;
            for (Pending &waiting : m_pending) {
                if (waiting.key == key && waiting.sentAtMs == sentAt) {
                    waiting.annotation = id;
                    waiting.generation = generation;
                }
            }
            if (!m_rolloutCheck.isActive())
                m_rolloutCheck.start();
            checkRollouts();
            promise->addResult(text);
            promise->finish();
        },
        [promise, forget] {
            forget();
            promise->finish();
        });
    return future;
}

void ClusterController::checkRollouts()
{
    const qint64 now = m_clock();
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (it->annotation == 0) {
            ++it; // not answered yet
            continue;
        }
        const Workload *w = workload(it->key);
        std::optional<Annotation> annotation = m_annotations ? m_annotations->find(it->annotation) : std::nullopt;
        const bool done = w && it->seen && w->isRolledOut() && w->observedGeneration >= it->generation &&
                          (!it->replicas || w->desired == *it->replicas);
        const bool tooLong = now - it->sentAtMs > m_rolloutTimeoutMs;
        if (!done && !tooLong) {
            ++it;
            continue;
        }
        if (annotation) {
            annotation->endMs = now;
            if (done) {
                annotation->text += QStringLiteral(", rolled out in %1").arg(Format::duration(now - it->sentAtMs));
            } else {
                annotation->failed = true;
                annotation->text += QStringLiteral(", not rolled out after %1: %2/%3 ready")
                                        .arg(Format::duration(m_rolloutTimeoutMs))
                                        .arg(w ? w->ready : 0)
                                        .arg(it->replicas.value_or(w ? w->desired : 0));
            }
            m_annotations->update(*annotation);
        }
        it = m_pending.erase(it);
    }
    if (m_pending.empty())
        m_rolloutCheck.stop();
}

bool ClusterController::recentlyNoted(const QString &what, qint64 now)
{
    if (now - m_notedAt.value(what, std::numeric_limits<qint64>::min() / 2) < kRestartNoteMs)
        return true;
    m_notedAt.insert(what, now);
    return false;
}

void ClusterController::podChanged(const QString &type, const QJsonObject &pod)
{
    const QJsonObject metadata = pod.value(QLatin1String("metadata")).toObject();
    const QString name = metadata.value(QLatin1String("name")).toString();
    if (type == QLatin1String("DELETED")) {
        if (m_pods.remove(name) > 0)
            emit podsChanged();
        return;
    }
    m_pods[name].labels = metadata.value(QLatin1String("labels")).toObject();
    noteReadiness(name, pod);
    const QJsonArray statuses =
        pod.value(QLatin1String("status")).toObject().value(QLatin1String("containerStatuses")).toArray();
    for (const QJsonValue value : statuses) {
        const QJsonObject status = value.toObject();
        const QString container = status.value(QLatin1String("name")).toString();
        const int restarts = status.value(QLatin1String("restartCount")).toInt();
        PodSeen &now = m_pods[name]; // noteReadiness may have touched the hash
        const auto count = now.restarts.constFind(container);
        const bool first = count == now.restarts.cend();
        const int before = first ? restarts : *count;
        now.restarts.insert(container, restarts);
        if (restarts == 0 || (!first && restarts <= before))
            continue;
        const QJsonObject terminated =
            status.value(QLatin1String("lastState")).toObject().value(QLatin1String("terminated")).toObject();
        QString reason = terminated.value(QLatin1String("reason")).toString();
        if (reason.isEmpty())
            reason = QStringLiteral("unknown reason");
        now.lastReason =
            QStringLiteral("%1 (exit %2)").arg(reason).arg(terminated.value(QLatin1String("exitCode")).toInt());
        now.lastRestartMs = m_clock();
        if (first)
            continue; // restarts from before we watched: the dock counts them, the timeline did not see them
        if (!m_annotations || recentlyNoted(name + QLatin1Char('/') + container, m_clock()))
            continue; // a restart loop: the last annotation stands for it
        QString news = QStringLiteral("restarted: %1").arg(now.lastReason);
        const QString foldAs = news;
        if (restarts - before > 1)
            news += QStringLiteral(", %1 restarts").arg(restarts - before);
        notePodNews(name, news, foldAs, {QStringLiteral("kubernetes"), QStringLiteral("restart")}, m_clock());
    }
    emit podsChanged();
}

void ClusterController::noteReadiness(const QString &pod, const QJsonObject &object)
{
    const QJsonObject status = object.value(QLatin1String("status")).toObject();
    bool ready = false;
    QString why;
    for (const QJsonValue value : status.value(QLatin1String("conditions")).toArray()) {
        const QJsonObject condition = value.toObject();
        if (condition.value(QLatin1String("type")).toString() == QLatin1String("Ready")) {
            ready = condition.value(QLatin1String("status")).toString() == QLatin1String("True");
            why = condition.value(QLatin1String("message")).toString();
        }
    }
    PodSeen &seen = m_pods[pod];
    const bool wasReady = seen.ready;
    seen.ready = ready;
    if (ready || !wasReady || !m_annotations)
        return;
    // A pod on its way out, or a container that stopped (its restart is annotated), is not
    // news here: this is a running pod that stopped answering its readiness probe.
    if (object.value(QLatin1String("metadata")).toObject().contains(QLatin1String("deletionTimestamp")))
        return;
    for (const QJsonValue value : status.value(QLatin1String("containerStatuses")).toArray()) {
        if (!value.toObject().value(QLatin1String("state")).toObject().contains(QLatin1String("running")))
            return;
    }
    if (recentlyNoted(pod + QStringLiteral("/not ready"), m_clock()))
        return;
    notePodNews(pod, why.isEmpty() ? QStringLiteral("not ready") : QStringLiteral("not ready: %1").arg(why),
                QStringLiteral("not ready"), {QStringLiteral("kubernetes"), QStringLiteral("not ready")}, m_clock());
}

const Workload *ClusterController::workloadOfPod(const QString &pod) const
{
    const auto seen = m_pods.constFind(pod);
    if (seen == m_pods.cend())
        return nullptr;
    for (const Workload &w : m_workloads) {
        if (w.selects(seen->labels))
            return &w;
    }
    return nullptr;
}

void ClusterController::notePodNews(const QString &pod, const QString &news, const QString &foldAs,
                                    const QStringList &tags, qint64 atMs)
{
    // A burst (a rollout's pods, a node lost): the first pod's annotation counts the others
    // of its workload with the same news within kBurstMs, instead of one mark per pod.
    const Workload *owner = workloadOfPod(pod);
    const QString burstKey = owner ? owner->key() + QLatin1Char('|') + foldAs : QString();
    if (owner) {
        const auto burst = m_bursts.find(burstKey);
        if (burst != m_bursts.end() && atMs - burst->atMs < kBurstMs && !burst->pods.contains(pod)) {
            if (std::optional<Annotation> existing = m_annotations->find(burst->annotation)) {
                burst->pods << pod;
                existing->text = QStringLiteral("%1: %2 pods %3").arg(owner->name).arg(burst->pods.size()).arg(foldAs);
                m_annotations->update(*existing);
                return;
            }
        }
    }
    Annotation annotation;
    annotation.timeMs = atMs;
    annotation.text = QStringLiteral("%1 %2").arg(pod, news);
    annotation.source = Annotation::Source::Kubernetes;
    annotation.tags = tags;
    const quint64 id = m_annotations->add(annotation);
    if (owner)
        m_bursts.insert(burstKey, {id, atMs, {pod}});
}

ClusterController::PodSummary ClusterController::podsOf(const QString &key) const
{
    PodSummary summary;
    const Workload *w = workload(key);
    if (!w)
        return summary;
    qint64 latest = 0;
    for (const PodSeen &pod : m_pods) {
        if (!w->selects(pod.labels))
            continue;
        ++summary.pods;
        summary.ready += pod.ready ? 1 : 0;
        for (const int restarts : pod.restarts)
            summary.restarts += restarts;
        if (pod.lastRestartMs > latest) {
            latest = pod.lastRestartMs;
            summary.lastReason = pod.lastReason;
        }
    }
    return summary;
}

void ClusterController::eventChanged(const QString &type, const QJsonObject &event)
{
    if (type == QLatin1String("DELETED") || !m_annotations ||
        event.value(QLatin1String("type")).toString() != QLatin1String("Warning"))
        return;
    // A watch resumed after a gap replays what it missed; a warning from before the start is
    // history the timeline did not show either.
    const QString last = event.value(QLatin1String("lastTimestamp")).toString();
    const QDateTime at = QDateTime::fromString(last, Qt::ISODate);
    if (at.isValid() && at.toMSecsSinceEpoch() < m_startedAtMs - 1000)
        return;
    const QJsonObject involved = event.value(QLatin1String("involvedObject")).toObject();
    const QString object = involved.value(QLatin1String("name")).toString();
    const QString reason = event.value(QLatin1String("reason")).toString();
    if (recentlyNoted(object + QLatin1Char('/') + reason, m_clock()))
        return; // a repeating warning ("Unhealthy" every probe): once a minute
    const qint64 atMs = at.isValid() ? std::min(at.toMSecsSinceEpoch(), m_clock()) : m_clock();
    // A pod's warning folds with the same reason from its workload's other pods.
    notePodNews(object,
                QStringLiteral("%1: %2").arg(reason, event.value(QLatin1String("message")).toString().left(200)),
                reason, {QStringLiteral("kubernetes"), QStringLiteral("warning"), reason}, atMs);
}
