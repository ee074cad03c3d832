// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

// Polls a condition while processing events, until it holds or the deadline passes.
// Tests wait on conditions, never on fixed sleeps.
template<typename Condition>
bool waitFor(Condition condition, int timeoutMs, int pollMs = 20)
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
