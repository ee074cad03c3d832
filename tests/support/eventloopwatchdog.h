// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <algorithm>

// Measures the longest time the event loop was kept from running, the way a user would notice
// a frozen window: a 10 ms timer, and the longest gap between its ticks.
class EventLoopWatchdog
{
public:
    EventLoopWatchdog()
    {
        m_clock.start();
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout,
                         [this] { m_longestMs = std::max(m_longestMs, m_clock.restart()); });
        m_timer.start();
    }
    qint64 longestStallMs() const { return m_longestMs; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_longestMs = 0;
};
