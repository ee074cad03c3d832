// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <chrono>
#include <optional>

// What the scheduler needs from the HTTP client: hand over a request, let it work, wait for
// it. RequestPool is the real one; tests put a fake here to break the loop on purpose.
class RequestDispatcher
{
public:
    using Clock = std::chrono::steady_clock;
    enum class Admission
    {
        Accepted,
        Dropped
    };

    virtual ~RequestDispatcher() = default;

    // Queues one request scheduled at `scheduledAt`; Dropped when there is no room for it.
    virtual Admission submit(Clock::time_point scheduledAt) = 0;
    // Lets the client make progress and records what finished. Never blocks.
    virtual void pump() = 0;
    // Waits for activity, a wakeup() or the timeout, whichever comes first.
    virtual void poll(std::chrono::milliseconds timeout) = 0;
    // Interrupts a poll() from any thread.
    virtual void wakeup() = 0;
    // Sent and not yet answered.
    virtual qint32 inflight() const = 0;
    // When the next queued request runs out of time, if any is queued.
    virtual std::optional<Clock::time_point> nextPendingDeadline() const = 0;
};
