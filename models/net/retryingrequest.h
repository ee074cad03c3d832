// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "net/promisejob.h"
#include "net/requestslots.h"
#include "net/retrypolicy.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <functional>
#include <optional>
#include <utility>

// One request with its retries: each attempt waits for a turn among the source's requests in
// flight (when there are slots), a transient failure is sent again after the policy's wait,
// the last answer or failure is the result. Cancelling the returned future cancels the
// attempt under way; destroying `parent` does too. The RetryPolicy is the one rule of what
// is worth another try; which requests get one is the caller's choice (queries and status
// reads do, actions that change the load never: give those RetryPolicy::Settings with
// maxAttempts 1, or do not come here).
template<typename T> class RetryingRequest : public PromiseJob<Result<T>>
{
public:
    // Sends one attempt; what it creates is parented to the given owner. The future it returns
    // must be this request's alone: its result is taken, not copied.
    using Attempt = std::function<QFuture<Result<T>>(QObject *owner)>;
    // The failure an attempt's result is judged by, nothing for one that needs no retry.
    // Default: its error, if any.
    using Judge = std::function<std::optional<Error>(const Result<T> &)>;

    // `turns` may be null (no limit); it must outlive this request.
    static QFuture<Result<T>> send(Attempt attempt, RetryPolicy policy, RequestSlots *turns, QObject *parent,
                                   Judge judge = {})
    {
        auto *request = new RetryingRequest(std::move(attempt), policy, turns, std::move(judge), parent);
        QFuture<Result<T>> future = request->future();
        request->waitForTurn(); // may finish at once
        return future;
    }

    ~RetryingRequest() override { releaseSlot(); }

private:
    RetryingRequest(Attempt attempt, RetryPolicy policy, RequestSlots *turns, Judge judge, QObject *parent)
        : PromiseJob<Result<T>>(parent), m_attempt(std::move(attempt)), m_policy(policy), m_slots(turns),
          m_judge(std::move(judge))
    {
        m_wait.setSingleShot(true);
        QObject::connect(&m_wait, &QTimer::timeout, this, [this] { waitForTurn(); });
    }

    void cancelled() override { m_current.cancel(); }
    void closing() override
    {
        m_wait.stop();
        releaseSlot();
    }

    void waitForTurn()
    {
        if (this->isDone())
            return;
        if (!m_slots) {
            launch();
            return;
        }
        m_slots->acquire(this, [this] {
            m_holdsSlot = true;
            launch();
        });
    }

    void launch()
    {
        if (this->isDone()) {
            releaseSlot();
            return;
        }
        ++m_attempts;
        m_current = m_attempt(this);
        auto *watcher = new QFutureWatcher<Result<T>>(this);
        QObject::connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
            watcher->deleteLater();
            releaseSlot();
            if (this->isDone())
                return;
            if (watcher->isCanceled() || watcher->future().resultCount() == 0) {
                this->answerNothing(); // the attempt's producer went away
                return;
            }
            attemptFinished(watcher->future().takeResult());
        });
        watcher->setFuture(m_current);
    }

    void attemptFinished(Result<T> result)
    {
        const std::optional<Error> failure =
            m_judge ? m_judge(result) : (result.ok() ? std::nullopt : std::optional<Error>(result.error()));
        if (failure) {
            if (const auto delay = m_policy.delayBeforeRetry(m_attempts, *failure)) {
                m_wait.start(*delay);
                return;
            }
        }
        this->answer(std::move(result));
    }

    void releaseSlot()
    {
        if (!m_holdsSlot)
            return;
        m_holdsSlot = false;
        m_slots->release();
    }

    Attempt m_attempt;
    RetryPolicy m_policy;
    RequestSlots *m_slots;
    Judge m_judge;
    QTimer m_wait;
    QFuture<Result<T>> m_current;
    int m_attempts = 0;
    bool m_holdsSlot = false;
};
