// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadtester/loadtestercontroller.h"

#include "base/whenfinished.h"
#include "loadtester/loadtestertext.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

struct LoadTesterController::Replica
{
    std::unique_ptr<LoadTesterAdapter> adapter;
    std::optional<LoadTesterStatus> status;
    std::optional<Error> statusError;
    bool polling = false; // a status request is in flight: a slow replica gets no pile of them
    Generation epoch;     // advanced when an action's answer arrives: a poll sent before tells old news
};

namespace {

using StatusResult = Result<LoadTesterStatus>;

// whenFinishedIfCurrent() for the replicas' replies: the controller counts on every replica
// answering (an action waits for all of them, a poll in flight holds the next one back), so a
// reply that ends without a result (its adapter went away) still answers, as
// Error::Kind::Cancelled. Answers for replicas since replaced (the generation advanced) are
// dropped.
template<typename Callback>
void watchReply(const LoadTesterAdapter::Reply &reply, QObject *context, const Generation &generation,
                Callback callback)
{
    const Generation::Ticket ticket = generation.current();
    whenFinished(
        reply, context,
        [&generation, ticket, callback](const StatusResult &result) {
            if (generation.isCurrent(ticket))
                callback(result);
        },
        [&generation, ticket, callback] {
            if (generation.isCurrent(ticket))
                callback(StatusResult(Error::make(
                    Error::Kind::Cancelled, QStringLiteral("The request was cancelled before it was answered."))));
        });
}

QString replicaName(const LoadTesterAdapter &adapter)
{
    const QUrl url = adapter.baseUrl();
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

} // namespace

LoadTesterController::LoadTesterController(QObject *parent) : QObject(parent)
{
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &LoadTesterController::pollAll);
}

LoadTesterController::~LoadTesterController()
{
    // Watchers first: the adapters going would cancel their futures, and a canceled future
    // still calls back (as an error) into a half-destroyed controller.
    const auto watchers = findChildren<QFutureWatcherBase *>(QString(), Qt::FindDirectChildrenOnly);
    qDeleteAll(watchers);
    m_replicas.clear();
}

void LoadTesterController::setReplicas(std::vector<std::unique_ptr<LoadTesterAdapter>> replicas)
{
    m_generation.advance();
    if (m_busy) {
        for (ReplicaOutcome &outcome : m_report.replicas) {
            if (!outcome.after && !outcome.error)
                outcome.error = Error::make(Error::Kind::Invalid,
                                            QStringLiteral("The replicas were changed before this one answered."));
        }
        m_unanswered = 0;
        finishAction();
    }
    m_replicas.clear();
    for (auto &adapter : replicas) {
        if (!adapter)
            continue;
        auto replica = std::make_unique<Replica>();
        replica->adapter = std::move(adapter);
        replica->adapter->setParent(nullptr); // owned here, not by a QObject parent
        m_replicas.push_back(std::move(replica));
    }
    emit replicasChanged();
}

LoadTesterCapabilities LoadTesterController::capabilities() const
{
    if (!m_replicas.empty())
        return m_replicas.front()->adapter->capabilities();
    LoadTesterCapabilities none;
    const QString reason = QStringLiteral("No load tester is configured.");
    none.canSetRate = false;
    none.rateUnavailable = reason;
    none.canSetInflightLimit = false;
    none.inflightLimitUnavailable = reason;
    none.canPause = false;
    none.pauseUnavailable = reason;
    return none;
}

void LoadTesterController::setPollIntervalMs(int ms)
{
    m_poll.setInterval(std::max(ms, 10));
}

void LoadTesterController::startPolling()
{
    pollAll();
    m_poll.start();
}

void LoadTesterController::stopPolling()
{
    m_poll.stop();
}

const LoadTesterAdapter *LoadTesterController::adapter(int replica) const
{
    return replica >= 0 && replica < replicaCount() ? m_replicas[size_t(replica)]->adapter.get() : nullptr;
}

std::optional<LoadTesterStatus> LoadTesterController::status(int replica) const
{
    if (replica < 0 || replica >= replicaCount())
        return std::nullopt;
    return m_replicas[size_t(replica)]->status;
}

std::optional<Error> LoadTesterController::statusError(int replica) const
{
    if (replica < 0 || replica >= replicaCount())
        return std::nullopt;
    return m_replicas[size_t(replica)]->statusError;
}

void LoadTesterController::pollAll()
{
    for (int i = 0; i < replicaCount(); ++i) {
        Replica &replica = *m_replicas[size_t(i)];
        // Polls go on during an action: a Locust ramp takes a while, and its progress is news.
        if (replica.polling)
            continue;
        replica.polling = true;
        watchReply(
            replica.adapter->status(), this, m_generation,
            [this, i, epoch = replica.epoch.current()](const StatusResult &result) { onStatus(i, epoch, result); });
    }
}

void LoadTesterController::onStatus(int index, Generation::Ticket epoch, const StatusResult &result)
{
    if (index >= replicaCount())
        return;
    Replica &replica = *m_replicas[size_t(index)];
    replica.polling = false;
    if (!replica.epoch.isCurrent(epoch))
        return; // sent before an action changed the replica: older than what we know
    if (result.ok()) {
        replica.status = result.value();
        replica.statusError.reset();
    } else {
        replica.status.reset();
        replica.statusError = result.error();
    }
    emit statusUpdated(index);
}

bool LoadTesterController::apply(const LoadTesterAction &action)
{
    if (m_busy || m_replicas.empty())
        return false;
    m_busy = true;
    m_report = ActionReport{};
    m_report.action = action;
    m_report.requestedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_unanswered = replicaCount();
    emit actionStarted(action);

    // The adapters take an int limit; a value that is not one is each replica's error, so
    // that the report says so like any other refusal.
    const bool badLimit = action.kind == LoadTesterAction::Kind::SetInflightLimit &&
                          (!std::isfinite(action.value) || action.value != std::floor(action.value) ||
                           action.value < 0 || action.value > std::numeric_limits<int>::max());
    for (int i = 0; i < replicaCount(); ++i) {
        Replica &replica = *m_replicas[size_t(i)];
        ReplicaOutcome outcome;
        outcome.endpoint = replica.adapter->baseUrl();
        outcome.before = replica.status;
        outcome.instance = replica.status ? replica.status->instance : replicaName(*replica.adapter);
        m_report.replicas.push_back(std::move(outcome));

        LoadTesterAdapter &adapter = *replica.adapter;
        LoadTesterAdapter::Reply reply;
        switch (action.kind) {
        case LoadTesterAction::Kind::SetRate:
            reply = adapter.setRate(action.value);
            break;
        case LoadTesterAction::Kind::SetInflightLimit:
            reply = badLimit ? finishedFuture<StatusResult>(Error::make(
                                   Error::Kind::Invalid,
                                   QStringLiteral("The in-flight limit must be a whole number of at least 1, "
                                                  "or 0 for unlimited, not %1.")
                                       .arg(LoadTesterText::number(action.value))))
                             : adapter.setInflightLimit(int(action.value));
            break;
        case LoadTesterAction::Kind::Pause:
            reply = adapter.pause();
            break;
        case LoadTesterAction::Kind::Resume:
            reply = adapter.resume();
            break;
        }
        watchReply(reply, this, m_generation, [this, i](const StatusResult &result) { onActionAnswer(i, result); });
    }
    return true;
}

void LoadTesterController::onActionAnswer(int index, const StatusResult &result)
{
    if (!m_busy || index >= int(m_report.replicas.size()))
        return;
    ReplicaOutcome &outcome = m_report.replicas[size_t(index)];
    Replica &replica = *m_replicas[size_t(index)];
    if (result.ok()) {
        outcome.after = result.value();
        if (!result->instance.isEmpty())
            outcome.instance = result->instance;
        outcome.mismatch = mismatch(m_report.action, result.value(), replica.adapter->capabilities());
        outcome.confirmed = outcome.mismatch.isEmpty();
        replica.status = result.value();
        replica.statusError.reset();
        replica.epoch.advance(); // a poll still in flight was sent before this answer
        emit statusUpdated(index);
    } else {
        outcome.error = result.error();
    }
    if (--m_unanswered == 0)
        finishAction();
}

void LoadTesterController::finishAction()
{
    m_report.finishedAtMs = QDateTime::currentMSecsSinceEpoch();
    // Idle before anyone hears of it: a listener may apply the next action at once.
    m_busy = false;
    const ActionReport report = std::move(m_report);
    m_report = ActionReport{};
    emit actionFinished(report);
}

QString LoadTesterController::mismatch(const LoadTesterAction &action, const LoadTesterStatus &after,
                                       const LoadTesterCapabilities &capabilities)
{
    const QString state = after.state.isEmpty() ? QString() : QStringLiteral(" (state %1)").arg(after.state);
    switch (action.kind) {
    case LoadTesterAction::Kind::SetRate: {
        if (LoadTesterText::sameRate(after.rate, action.value))
            return {};
        const QString label = capabilities.rateLabel.isEmpty() ? QStringLiteral("rate") : capabilities.rateLabel;
        return QStringLiteral("%1 read back as %2, not %3%4")
            .arg(label, LoadTesterText::withUnit(after.rate, capabilities.rateUnit),
                 LoadTesterText::withUnit(action.value, capabilities.rateUnit), state);
    }
    case LoadTesterAction::Kind::SetInflightLimit:
        if (!after.inflightLimit)
            return QStringLiteral("the in-flight limit was not reported back");
        if (double(*after.inflightLimit) == action.value)
            return {};
        return QStringLiteral("in-flight limit read back as %1, not %2")
            .arg(LoadTesterText::limit(*after.inflightLimit), LoadTesterText::limit(action.value));
    case LoadTesterAction::Kind::Pause:
        return after.paused ? QString() : QStringLiteral("still not paused%1").arg(state);
    case LoadTesterAction::Kind::Resume:
        return after.paused ? QStringLiteral("still paused%1").arg(state) : QString();
    }
    return {};
}
