// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QObject>
#include <functional>
#include <vector>

// The one time axis every panel shares. In live mode the window follows "now" (advanced by
// the dashboard's refresh tick); a zoom or pan leaves live mode until reset.
//
// It also keeps the user's zoom history, like a browser's: every zoom, pan, pause or return
// to live remembers the view it left, back() and forward() walk through them. A continuous
// gesture (a pan by drag or wheel, a wheel zoom) is one step in that history, not one per
// mouse event: scrollTo() calls up to finishScroll() count once.
class TimeWindow : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>; // UTC ms; injectable for tests

    // The oldest views are forgotten past this many.
    static constexpr int kHistoryDepth = 50;

    explicit TimeWindow(QObject *parent = nullptr);

    void setClock(Clock clock);
    qint64 now() const { return m_clock(); }

    TimeRange range() const { return m_range; }
    qint64 windowMs() const { return m_windowMs; }
    bool isLive() const { return m_live; }

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }

public slots:
    // Changes the length of the live window (5m … 24h) and returns to live mode. Remembered in
    // the history only when it leaves a zoomed view: picking a length while live is a setting.
    void setWindowMs(qint64 windowMs);
    // Moves the live window to end at now; does nothing when not live.
    void advanceToNow();
    // Shows a fixed range (zoom, a recording): leaves live mode.
    void showRange(const TimeRange &range);
    // One move of a continuous gesture (pan, wheel zoom): leaves live mode; the view before
    // the gesture is remembered once, until finishScroll().
    void scrollTo(const TimeRange &range);
    void finishScroll();
    void setLive(bool live);
    // Zoom history: Alt+Left / Alt+Right. Nothing happens at either end.
    void back();
    void forward();

signals:
    void rangeChanged(const TimeRange &range);
    void liveChanged(bool live);
    void canGoBackChanged(bool canGoBack);
    void canGoForwardChanged(bool canGoForward);

private:
    struct View
    {
        bool live = true;
        qint64 windowMs = 0;
        TimeRange range; // meaningful when not live
        bool operator==(const View &other) const
        {
            return live == other.live && windowMs == other.windowMs && (live || range == other.range);
        }
    };

    View currentView() const;
    void remember();                // before a navigation: the current view goes on the back stack
    void restore(const View &view); // back/forward: no history of its own
    void applyLive(bool live);
    void setRange(const TimeRange &range);
    void emitHistoryChanges(bool couldGoBack, bool couldGoForward);

    Clock m_clock;
    TimeRange m_range;
    qint64 m_windowMs = 15LL * 60 * 1000;
    bool m_live = true;
    bool m_scrolling = false;
    std::vector<View> m_back;
    std::vector<View> m_forward;
};
