// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
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
