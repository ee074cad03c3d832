// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFuture>
#include <QThread>
#include <optional>

// Polls a condition while processing events, until it holds or the deadline passes.
// Tests wait on conditions, never on fixed sleeps.
template<typename Condition> bool waitFor(Condition condition, int timeoutMs, int pollMs = 20)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!condition()) {
        if (deadline.hasExpired())
            return condition();
        QCoreApplication::processEvents(QEventLoop::AllEvents, pollMs);
        QThread::msleep(static_cast<unsigned long>(pollMs / 4 + 1));
    }
    return true;
}

// Waits (processing events) for a future's result; nullopt when it did not finish in time or
// finished without a result (cancelled).
template<typename T> std::optional<T> awaitResult(const QFuture<T> &future, int timeoutMs)
{
    waitFor([&] { return future.isFinished(); }, timeoutMs);
    if (!future.isFinished() || future.resultCount() == 0)
        return std::nullopt;
    return future.result();
}
