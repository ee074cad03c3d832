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
#include <algorithm>
#include <limits>

namespace {

constexpr qint64 kFoldMs = 1500;
// Our own change is recognised in the watch for this long after it was sent.
constexpr qint64 kOwnChangeMs = 30'000;
// A restart loop: one annotation per pod and container this often at most.
constexpr qint64 kRestartNoteMs = 60'000;

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
        for (const QJsonObject &pod : items)
            podChanged(QStringLiteral("LISTED"), pod);
    });
    connect(pods, &ResourceWatch::changed, this, &ClusterController::podChanged);
    m_watches.push_back(pods);
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
    for (ResourceWatch *watch : m_watches)
        watch->start();
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
    // Our own scale, seen coming back: not someone else's.
    for (Pending &pending : m_pending) {
        if (pending.key == after.key() && !pending.seen && after.desired == pending.replicas &&
            now - pending.sentAtMs < kOwnChangeMs) {
            pending.seen = true;
            changes.removeAll(QStringLiteral("replicas %1 → %2").arg(before.desired).arg(after.desired));
        }
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

QFuture<Result<QString>> ClusterController::scale(const QString &key, int replicas)
{
    const Workload *target = workload(key);
    if (!target)
        return finishedFuture(Result<QString>(
            Error::make(Error::Kind::Invalid, QStringLiteral("no workload %1 in the namespace").arg(key))));
    if (replicas < 0)
        return finishedFuture(Result<QString>(
            Error::make(Error::Kind::Invalid, QStringLiteral("replicas must be 0 or more, not %1").arg(replicas))));
    const Workload before = *target;
    const qint64 sentAt = m_clock();
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("replicas"), replicas}}}})
            .toJson(QJsonDocument::Compact);
    auto promise = std::make_shared<QPromise<Result<QString>>>();
    promise->start();
    QFuture<Result<QString>> future = promise->future();
    m_pending.push_back({key, replicas, sentAt, 0, false});
    whenFinished(
        m_client->request(
            "PATCH", m_client->path(QStringLiteral("apps/v1"), before.resource(), before.name, QStringLiteral("scale")),
            body, "application/merge-patch+json"),
        this,
        [this, promise, before, replicas, sentAt, key](const Result<QJsonObject> &answer) {
            const QString asked =
                QStringLiteral("%1 replicas %2 → %3").arg(before.name).arg(before.desired).arg(replicas);
            Annotation annotation;
            annotation.timeMs = sentAt;
            annotation.source = Annotation::Source::Action;
            annotation.tags = {QStringLiteral("kubernetes"), QStringLiteral("action")};
            const int granted =
                answer.ok() ? answer->value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(-1)
                            : -1;
            if (!answer || granted != replicas) {
                m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(),
                                               [&](const Pending &p) { return p.key == key && p.sentAtMs == sentAt; }),
                                m_pending.end());
                annotation.failed = true;
                annotation.tags << QStringLiteral("failed");
                annotation.text = answer.ok() ? QStringLiteral("%1: the cluster kept %2").arg(asked).arg(granted)
                                              : QStringLiteral("%1 refused: %2").arg(asked, answer.error().message);
                if (m_annotations)
                    m_annotations->add(annotation);
                promise->addResult(Error::make(Error::Kind::Http, annotation.text));
                promise->finish();
                return;
            }
            annotation.text = asked;
            // A region from the request until the rollout is done (checkRollouts ends it).
            annotation.endMs = sentAt;
            quint64 id = m_annotations ? m_annotations->add(annotation) : 0;
            for (Pending &pending : m_pending) {
                if (pending.key == key && pending.sentAtMs == sentAt)
                    pending.annotation = id;
            }
            if (!m_rolloutCheck.isActive())
                m_rolloutCheck.start();
            checkRollouts();
            promise->addResult(asked);
            promise->finish();
        },
        [promise] { promise->finish(); });
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
        const bool done = w && w->desired == it->replicas && w->isRolledOut() && it->seen;
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
                                        .arg(it->replicas);
            }
            m_annotations->update(*annotation);
        }
        it = m_pending.erase(it);
    }
    if (m_pending.empty())
        m_rolloutCheck.stop();
}

void ClusterController::podChanged(const QString &type, const QJsonObject &pod)
{
    if (type == QLatin1String("DELETED"))
        return;
    const QString name = pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    const QJsonArray statuses =
        pod.value(QLatin1String("status")).toObject().value(QLatin1String("containerStatuses")).toArray();
    for (const QJsonValue value : statuses) {
        const QJsonObject status = value.toObject();
        const QString container = status.value(QLatin1String("name")).toString();
        const QString id = name + QLatin1Char('/') + container;
        const int restarts = status.value(QLatin1String("restartCount")).toInt();
        const auto known = m_restarts.constFind(id);
        const bool first = known == m_restarts.cend();
        const int before = first ? restarts : *known;
        m_restarts.insert(id, restarts);
        if (first || restarts <= before || !m_annotations)
            continue;
        const qint64 now = m_clock();
        if (now - m_restartNotedAt.value(id, std::numeric_limits<qint64>::min() / 2) < kRestartNoteMs)
            continue; // a restart loop: the last annotation stands for it
        m_restartNotedAt.insert(id, now);
        const QJsonObject terminated =
            status.value(QLatin1String("lastState")).toObject().value(QLatin1String("terminated")).toObject();
        QString reason = terminated.value(QLatin1String("reason")).toString();
        if (reason.isEmpty())
            reason = QStringLiteral("unknown reason");
        Annotation annotation;
        annotation.timeMs = now;
        annotation.text = QStringLiteral("%1 restarted: %2 (exit %3)")
                              .arg(name, reason)
                              .arg(terminated.value(QLatin1String("exitCode")).toInt());
        if (restarts - before > 1)
            annotation.text += QStringLiteral(", %1 restarts").arg(restarts - before);
        annotation.source = Annotation::Source::Kubernetes;
        annotation.tags = {QStringLiteral("kubernetes"), QStringLiteral("restart")};
        m_annotations->add(annotation);
    }
}
