// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <deque>
#include <functional>
#include <utility>

// Turns for requests to one source: at most `limit` at once, the others wait in order.
// A waiting owner that is destroyed simply loses its turn.
class RequestSlots
{
public:
    void setLimit(int limit) { m_limit = limit; }
    int inUse() const { return m_inUse; }
    // Calls start() now when a slot is free, otherwise once one is (and owner still exists).
    void acquire(QObject *owner, std::function<void()> start);
    // Gives a slot back and hands it to the next owner still waiting.
    void release();
    // No more turns are handed out (the client is going away).
    void close() { m_closed = true; }

private:
    int m_limit = 0;
    int m_inUse = 0;
    bool m_closed = false;
    std::deque<std::pair<QPointer<QObject>, std::function<void()>>> m_waiting;
};
