// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timerange.h"

#include <QObject>

#include <functional>

// The one time axis every panel shares. In live mode the window follows "now" (advanced by
// the dashboard's refresh tick); a zoom or pan leaves live mode until reset.
class TimeWindow : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms; injectable for tests

    explicit TimeWindow(QObject *parent = nullptr);

    void setClock(Clock clock);
    qint64 now() const { return m_clock(); }

    TimeRange range() const { return m_range; }
    qint64 windowMs() const { return m_windowMs; }
    bool isLive() const { return m_live; }

    // Changes the length of the live window (5m … 24h) and returns to live mode.
    void setWindowMs(qint64 windowMs);
    // Moves the live window to end at now; does nothing when not live.
    void advanceToNow();
    // Shows a fixed range (zoom, pan, a recording): leaves live mode.
    void showRange(const TimeRange &range);
    void setLive(bool live);

signals:
    void rangeChanged(const TimeRange &range);
    void liveChanged(bool live);

private:
    void setRange(const TimeRange &range);

    Clock m_clock;
    TimeRange m_range;
    qint64 m_windowMs = 15 * 60 * 1000;
    bool m_live = true;
};
