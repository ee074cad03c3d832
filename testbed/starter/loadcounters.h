// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <atomic>

// What the scheduler thread has done, published lock-free for the admin thread (status,
// metrics, liveness). Written by the scheduler only.
struct LoadCounters
{
    std::atomic<qint64> sent{0};      // handed to the client (queued or leased)
    std::atomic<qint64> succeeded{0}; // 2xx answers
    std::atomic<qint64> failed{0};    // other answers, deadlines and connection errors
    std::atomic<qint64> skipped{0};   // ticks skipped because the in-flight limit was reached
    std::atomic<qint64> dropped{0};   // ticks refused because the pending FIFO was full

    std::atomic<qint32> pending{0}; // waiting for a pooled connection
    std::atomic<qint32> leased{0};  // on a connection, waiting for the answer

    std::atomic<qint64> schedulerErrors{0}; // failures caught inside the scheduler loop
    std::atomic<qint64> heartbeatMs{0};     // steady-clock ms of the last completed iteration
    std::atomic<bool> schedulerRunning{false};

    qint32 inflight() const { return pending.load() + leased.load(); }
};
