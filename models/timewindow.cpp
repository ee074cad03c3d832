// SPDX-License-Identifier: GPL-3.0-or-later
#include "timewindow.h"

#include <QDateTime>

TimeWindow::TimeWindow(QObject *parent)
    : QObject(parent), m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    m_range = {m_clock() - m_windowMs, m_clock()};
}

void TimeWindow::setClock(Clock clock)
{
    m_clock = std::move(clock);
    if (m_live)
        setRange({now() - m_windowMs, now()});
}

void TimeWindow::setWindowMs(qint64 windowMs)
{
    m_windowMs = qMax<qint64>(windowMs, 1000);
    setLive(true);
    setRange({now() - m_windowMs, now()});
}

void TimeWindow::advanceToNow()
{
    if (m_live)
        setRange({now() - m_windowMs, now()});
}

void TimeWindow::showRange(const TimeRange &range)
{
    if (range.length() <= 0)
        return;
    setLive(false);
    setRange(range);
}

void TimeWindow::setLive(bool live)
{
    if (m_live == live)
        return;
    m_live = live;
    emit liveChanged(live);
    if (live)
        setRange({now() - m_windowMs, now()});
}

void TimeWindow::setRange(const TimeRange &range)
{
    if (range == m_range)
        return;
    m_range = range;
    emit rangeChanged(range);
}
