// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <memory>
#include <utility>

// Calls `callback(result)` on `context`'s thread when `future` finishes with a result.
// Use this instead of QFuture::then(context, ...): in Qt 6.4 a `then` continuation asserts
// (and in release builds misbehaves) when its context is destroyed before the future
// finishes, which happens whenever a window closes with a query in flight. The watcher here
// is a child of the context, so it dies with it and the callback is simply not called.
// A cancelled future (e.g. its producer was destroyed) does not call the callback either.
template<typename T, typename Callback>
void whenFinished(const QFuture<T> &future, QObject *context, Callback &&callback)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, callback = std::forward<Callback>(callback)]() mutable {
                         watcher->deleteLater();
                         if (watcher->isCanceled() || watcher->future().resultCount() == 0)
                             return;
                         callback(watcher->result());
                     });
    watcher->setFuture(future);
}

// whenFinished() for a receiver that counts on an answer either way: a future that ends
// without a result (cancelled, or its producer went away) calls onCancelled() instead.
template<typename T, typename Callback, typename OnCancelled>
void whenFinished(const QFuture<T> &future, QObject *context, Callback &&callback, OnCancelled &&onCancelled)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, callback = std::forward<Callback>(callback),
                      onCancelled = std::forward<OnCancelled>(onCancelled)]() mutable {
                         watcher->deleteLater();
                         if (watcher->isCanceled() || watcher->future().resultCount() == 0)
                             onCancelled();
                         else
                             callback(watcher->result());
                     });
    watcher->setFuture(future);
}

// A future that has its value already, for answers known without asking anyone (bad input,
// a control a backend does not have).
template<typename T> QFuture<T> finishedFuture(T value)
{
    QPromise<T> promise;
    promise.start();
    promise.addResult(std::move(value));
    promise.finish();
    return promise.future();
}

// Answers on `promise` what `future` answers, on context's thread. If `future` ends without
// a result, or context goes first, `promise` is dropped unanswered: its future is cancelled.
// Cancelling the promise's future cancels `future` too: whoever waits no longer wants the
// answer, so the work behind it (a request on the wire) can stop.
template<typename T> void forwardTo(const QFuture<T> &future, QObject *context, std::shared_ptr<QPromise<T>> promise)
{
    auto *cancellation = new QFutureWatcher<T>(context);
    QObject::connect(cancellation, &QFutureWatcherBase::canceled, context,
                     [source = future]() mutable { source.cancel(); });
    QObject::connect(cancellation, &QFutureWatcherBase::finished, cancellation, &QObject::deleteLater);
    cancellation->setFuture(promise->future());
    whenFinished(future, context, [promise = std::move(promise)](const T &value) {
        promise->addResult(value);
        promise->finish();
    });
}
