// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/requestslots.h"

#include <algorithm>

void RequestSlots::acquire(QObject *owner, std::function<void()> start)
{
    if (m_closed)
        return;
    if (m_limit <= 0 || m_inUse < m_limit) {
        ++m_inUse;
        start();
        return;
    }
    m_waiting.emplace_back(owner, std::move(start));
}

void RequestSlots::release()
{
    m_inUse = std::max(0, m_inUse - 1);
    while (!m_closed && !m_waiting.empty() && (m_limit <= 0 || m_inUse < m_limit)) {
        auto [owner, start] = std::move(m_waiting.front());
        m_waiting.pop_front();
        if (!owner)
            continue; // gave up waiting
        ++m_inUse;
        start();
    }
}
