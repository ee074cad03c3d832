// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtesterwatch.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtestertext.h"

#include <QDateTime>
#include <cmath>

namespace {

QString nameOf(const LoadTesterStatus &status, int replica)
{
    return status.instance.isEmpty() ? QStringLiteral("replica %1").arg(replica + 1) : status.instance;
}

} // namespace

LoadTesterWatch::LoadTesterWatch(LoadTesterController *controller, AnnotationModel *annotations, QObject *parent)
    : QObject(parent), m_controller(controller), m_annotations(annotations),
      m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    m_flush.setSingleShot(true);
    m_flush.setInterval(1500); // replicas are polled one after another within a poll round
    connect(&m_flush, &QTimer::timeout, this, &LoadTesterWatch::flush);
    connect(controller, &LoadTesterController::statusUpdated, this, &LoadTesterWatch::onStatus);
    connect(controller, &LoadTesterController::actionStarted, this, [this] { m_actionInFlight = true; });
    connect(controller, &LoadTesterController::actionFinished, this, &LoadTesterWatch::onActionFinished);
    connect(controller, &LoadTesterController::replicasChanged, this, [this] {
        // Another set of replicas: nothing known about them yet, nothing to compare with. A
        // silence still open ends here, so the recording never keeps a region without an end.
        // What each named replica was last seen with stays: a pod that discovery finds again at
        // a new address after a restart is compared with it.
        for (int i = 0; i < int(m_replicas.size()); ++i) {
            const Replica &gone = m_replicas[size_t(i)];
            endSilence(i, gone.known ? nameOf(*gone.known, i) : QString());
            if (gone.known && !gone.known->instance.isEmpty())
                m_lastSeen.insert(gone.known->instance, *gone.known);
        }
        m_replicas.clear();
        m_pending.clear();
    });
}

std::optional<qint64> LoadTesterWatch::silentForMs(int replica) const
{
    if (replica < 0 || replica >= int(m_replicas.size()) || !m_replicas[size_t(replica)].silent)
        return std::nullopt;
    return m_clock() - m_replicas[size_t(replica)].lastProgressMs;
}

void LoadTesterWatch::onStatus(int replica)
{
    const auto status = m_controller->status(replica);
    if (!status || m_controller->statusError(replica))
        return; // down: the dock says so; what it comes back with is compared then
    if (replica >= int(m_replicas.size()))
        m_replicas.resize(size_t(replica) + 1);
    Replica &watched = m_replicas[size_t(replica)];

    // While Chaoscope's own change is under way, a poll may already see it: not news.
    if (!m_actionInFlight) {
        if (!watched.known && m_lastSeen.contains(status->instance))
            watched.known = m_lastSeen.take(status->instance); // the same replica, found again
        if (watched.known)
            compare(watched, *watched.known, *status, replica);
        watched.known = *status;
    }
    watchSilence(replica, *status);
}

void LoadTesterWatch::compare(Replica &watched, const LoadTesterStatus &before, const LoadTesterStatus &now,
                              int replica)
{
    // Only a backend with a change counter has set-points to compare: Locust's users and
    // k6's VUs are live counts that move while a ramp (its own or Chaoscope's) is under way.
    if (before.version < 0 || now.version < 0)
        return;
    // A restart starts the counters again: the change counter, or what it has sent.
    const bool restarted = now.version < before.version || (now.sent && before.sent && *now.sent < *before.sent);
    QString changes = describeChanges(before, now);
    if (restarted) {
        watched.pendingAction.reset();
        noteChange(nameOf(now, replica),
                   changes.isEmpty() ? QStringLiteral("restarted") : QStringLiteral("restarted: ") + changes, true);
        return;
    }
    if (now.version == before.version)
        return; // nothing was applied since
    // Chaoscope's own change that this replica took after its answer had failed (a timeout
    // in an overload): the action is on the timeline already.
    if (watched.pendingAction &&
        LoadTesterController::mismatch(*watched.pendingAction, now, m_controller->capabilities()).isEmpty()) {
        watched.pendingAction.reset();
        return;
    }
    watched.pendingAction.reset();
    if (!changes.isEmpty())
        noteChange(nameOf(now, replica), changes, false);
}

void LoadTesterWatch::onActionFinished(const ActionReport &report)
{
    m_actionInFlight = false;
    // The controller's newest status of each replica is the action's answer: what Chaoscope
    // set is the new baseline. A replica whose answer failed may still take the change later.
    for (int i = 0; i < int(m_replicas.size()); ++i) {
        Replica &watched = m_replicas[size_t(i)];
        if (const auto status = m_controller->status(i))
            watched.known = *status;
        const bool unconfirmed = size_t(i) < report.replicas.size() && !report.replicas[size_t(i)].confirmed;
        watched.pendingAction = unconfirmed ? std::optional<LoadTesterAction>(report.action) : std::nullopt;
    }
}

QString LoadTesterWatch::describeChanges(const LoadTesterStatus &before, const LoadTesterStatus &after) const
{
    const LoadTesterCapabilities caps = m_controller->capabilities();
    QStringList changes;
    if (!LoadTesterText::sameRate(before.rate, after.rate))
        changes << QStringLiteral("%1 %2 → %3")
                       .arg(caps.rateLabel.isEmpty() ? QStringLiteral("rate") : caps.rateLabel,
                            LoadTesterText::number(before.rate), LoadTesterText::withUnit(after.rate, caps.rateUnit));
    if (before.inflightLimit && after.inflightLimit && *before.inflightLimit != *after.inflightLimit)
        changes << QStringLiteral("in-flight limit %1 → %2")
                       .arg(LoadTesterText::limit(*before.inflightLimit), LoadTesterText::limit(*after.inflightLimit));
    if (before.paused != after.paused)
        changes << (after.paused ? QStringLiteral("paused") : QStringLiteral("resumed"));
    return changes.join(QStringLiteral(", "));
}

void LoadTesterWatch::noteChange(const QString &instance, const QString &change, bool restart)
{
    for (Pending &pending : m_pending) {
        if (pending.change == change && pending.restart == restart) {
            pending.instances << instance;
            return;
        }
    }
    m_pending.push_back({m_clock(), change, restart, {instance}});
    if (!m_flush.isActive())
        m_flush.start();
}

void LoadTesterWatch::flush()
{
    for (const Pending &pending : m_pending) {
        Annotation annotation;
        annotation.timeMs = pending.timeMs;
        const QString who = pending.instances.join(QStringLiteral(", "));
        annotation.text = pending.restart ? QStringLiteral("%1 %2").arg(who, pending.change)
                                          : QStringLiteral("%1 on %2, not by Chaoscope").arg(pending.change, who);
        annotation.source = Annotation::Source::Detector;
        annotation.tags = {QStringLiteral("load tester"),
                           pending.restart ? QStringLiteral("restart") : QStringLiteral("outside change")};
        m_annotations->add(annotation);
    }
    m_pending.clear();
}

void LoadTesterWatch::endSilence(int replica, const QString &name)
{
    Replica &watched = m_replicas[size_t(replica)];
    if (!watched.silent)
        return;
    watched.silent = false;
    const qint64 now = m_clock();
    if (auto open = m_annotations->find(watched.silenceAnnotation)) {
        open->endMs = std::max(now, open->timeMs + 1);
        open->text =
            QStringLiteral("%1 sent nothing for %2 although running").arg(name, Format::duration(now - open->timeMs));
        m_annotations->update(*open);
    }
    watched.silenceAnnotation = 0;
    emit silenceChanged(replica);
}

void LoadTesterWatch::watchSilence(int replica, const LoadTesterStatus &status)
{
    Replica &watched = m_replicas[size_t(replica)];
    const qint64 now = m_clock();
    const bool moved = status.sent && watched.lastSent && *status.sent != *watched.lastSent;
    watched.sentMoves = watched.sentMoves || moved;
    watched.lastSent = status.sent;
    // A counter seen moving once is one this backend keeps: an admin API that leaves it out
    // reads as a 0 that never moves, which is not silence.
    const bool due = watched.sentMoves && !status.paused && status.rate > 0;
    if (!due || moved || watched.lastProgressMs == 0) {
        endSilence(replica, nameOf(status, replica)); // it sends again, or is no longer meant to
        watched.lastProgressMs = now;
        return;
    }
    // At a low rate "sent" moves seldom: wait for three sends' worth of time at least.
    const qint64 threshold = std::max(m_silenceThresholdMs, qint64(std::ceil(3000.0 / status.rate)));
    if (watched.silent || now - watched.lastProgressMs < threshold)
        return;
    watched.silent = true;
    Annotation annotation;
    annotation.timeMs = watched.lastProgressMs;
    const QString unit = m_controller->capabilities().rateUnit;
    annotation.text = QStringLiteral("%1 sends nothing although running at %2")
                          .arg(nameOf(status, replica), LoadTesterText::withUnit(status.rate, unit));
    // A full in-flight limit is the usual reason, and worth seeing at once.
    if (status.inflight && status.inflightLimit && *status.inflightLimit > 0)
        annotation.text +=
            QStringLiteral(" (in flight %1 of limit %2)").arg(*status.inflight).arg(*status.inflightLimit);
    annotation.source = Annotation::Source::Detector;
    annotation.tags = {QStringLiteral("load tester"), QStringLiteral("silent")};
    watched.silenceAnnotation = m_annotations->add(annotation);
    emit silenceChanged(replica);
}
