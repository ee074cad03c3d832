// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtesterwatch.h"

#include "annotationmodel.h"
#include "loadtestercontroller.h"

#include <QDateTime>

#include <cmath>

namespace {

QString number(double value)
{
    return QString::number(value, 'g', 12);
}

QString limitText(int limit)
{
    return limit == 0 ? QStringLiteral("unlimited") : QString::number(limit);
}

QString nameOf(const LoadTesterStatus &status, int replica)
{
    return status.instance.isEmpty() ? QStringLiteral("replica %1").arg(replica + 1) : status.instance;
}

QString seconds(qint64 ms)
{
    return QStringLiteral("%1 s").arg(std::llround(double(ms) / 1000.0));
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
        // Another set of replicas: nothing known about them yet, nothing to compare with.
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
        if (watched.known) {
            const bool restarted = status->version >= 0 && watched.known->version >= 0
                                   && status->version < watched.known->version;
            const QString changes = describeChanges(*watched.known, *status);
            if (restarted)
                noteChange(nameOf(*status, replica),
                           changes.isEmpty() ? QStringLiteral("restarted") : QStringLiteral("restarted: ") + changes, true);
            else if (!changes.isEmpty())
                noteChange(nameOf(*status, replica), changes, false);
        }
        watched.known = *status;
    }
    watchSilence(replica, *status);
}

void LoadTesterWatch::onActionFinished()
{
    m_actionInFlight = false;
    // The controller's newest status of each replica is the action's answer: what Chaoscope
    // set is the new baseline.
    for (int i = 0; i < int(m_replicas.size()); ++i) {
        if (const auto status = m_controller->status(i))
            m_replicas[size_t(i)].known = *status;
    }
}

QString LoadTesterWatch::describeChanges(const LoadTesterStatus &before, const LoadTesterStatus &after) const
{
    const LoadTesterCapabilities caps = m_controller->capabilities();
    QStringList changes;
    if (std::abs(before.rate - after.rate) > 1e-9 * std::max(std::abs(before.rate), std::abs(after.rate))) {
        const QString unit = caps.rateUnit.isEmpty() ? QString() : QLatin1Char(' ') + caps.rateUnit;
        changes << QStringLiteral("%1 %2 → %3%4")
                       .arg(caps.rateLabel.isEmpty() ? QStringLiteral("rate") : caps.rateLabel, number(before.rate),
                            number(after.rate), unit);
    }
    if (before.inflightLimit && after.inflightLimit && *before.inflightLimit != *after.inflightLimit)
        changes << QStringLiteral("in-flight limit %1 → %2").arg(limitText(*before.inflightLimit), limitText(*after.inflightLimit));
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

void LoadTesterWatch::watchSilence(int replica, const LoadTesterStatus &status)
{
    Replica &watched = m_replicas[size_t(replica)];
    const qint64 now = m_clock();
    const bool due = status.sent && !status.paused && status.rate > 0;
    const bool moved = status.sent && watched.lastSent && *status.sent != *watched.lastSent;
    watched.lastSent = status.sent;
    if (!due || moved || watched.lastProgressMs == 0) {
        if (watched.silent) {
            watched.silent = false;
            // It sends again (or is no longer meant to): the region ends here.
            if (auto open = m_annotations->find(watched.silenceAnnotation)) {
                open->endMs = std::max(now, open->timeMs + 1);
                open->text = QStringLiteral("%1 sent nothing for %2 although running")
                                 .arg(nameOf(status, replica), seconds(now - open->timeMs));
                m_annotations->update(*open);
            }
            watched.silenceAnnotation = 0;
            emit silenceChanged(replica);
        }
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
    annotation.text = QStringLiteral("%1 sends nothing although running at %2%3")
                          .arg(nameOf(status, replica), number(status.rate),
                               unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
    // A full in-flight limit is the usual reason, and worth seeing at once.
    if (status.inflight && status.inflightLimit && *status.inflightLimit > 0)
        annotation.text += QStringLiteral(" (in flight %1 of limit %2)").arg(*status.inflight).arg(*status.inflightLimit);
    annotation.source = Annotation::Source::Detector;
    annotation.tags = {QStringLiteral("load tester"), QStringLiteral("silent")};
    watched.silenceAnnotation = m_annotations->add(annotation);
    emit silenceChanged(replica);
}
