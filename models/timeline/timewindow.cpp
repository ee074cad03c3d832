// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timewindow.h"

#include <QDateTime>

TimeWindow::TimeWindow(QObject *parent) : QObject(parent), m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
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
    windowMs = qMax<qint64>(windowMs, 1000);
    if (!m_live)
        remember();
    m_scrolling = false;
    m_windowMs = windowMs;
    applyLive(true);
    setRange({now() - m_windowMs, now()});
}

void TimeWindow::advanceToNow()
{
    if (m_live)
        setRange({now() - m_windowMs, now()});
}

namespace {

// No view reaches past now: a pan or zoom that would is moved back to end at now, its length
// kept. What a server says of an instant that has not happened (a rate from fewer samples) is
// not data, and a chart showing it once read as a collapse.
TimeRange notAfter(TimeRange range, qint64 nowMs)
{
    const qint64 late = range.endMs - nowMs;
    if (late > 0) {
        range.startMs -= late;
        range.endMs -= late;
    }
    return range;
}

} // namespace

void TimeWindow::showRange(const TimeRange &range)
{
    if (range.length() <= 0)
        return;
    const TimeRange shown = notAfter(range, now());
    m_scrolling = false;
    if (!m_live && shown == m_range)
        return; // the same view again (a chart and its dashboard both forwarding one drag)
    remember();
    applyLive(false);
    setRange(shown);
}

void TimeWindow::scrollTo(const TimeRange &range)
{
    if (range.length() <= 0)
        return;
    const TimeRange shown = notAfter(range, now());
    if (m_live && shown.length() == m_range.length() && shown.endMs >= m_range.endMs)
        return; // a pan toward the future from live: live is as far as it goes
    if (!m_scrolling) {
        remember();
        m_scrolling = true;
    }
    applyLive(false);
    setRange(shown);
}

void TimeWindow::finishScroll()
{
    m_scrolling = false;
}

void TimeWindow::setLive(bool live)
{
    m_scrolling = false;
    if (m_live == live)
        return;
    remember();
    applyLive(live);
}

void TimeWindow::back()
{
    if (m_back.empty())
        return;
    const bool couldGoForward = canGoForward();
    m_scrolling = false;
    m_forward.push_back(currentView());
    const View view = m_back.back();
    m_back.pop_back();
    restore(view);
    emitHistoryChanges(true, couldGoForward);
}

void TimeWindow::forward()
{
    if (m_forward.empty())
        return;
    const bool couldGoBack = canGoBack();
    m_scrolling = false;
    m_back.push_back(currentView());
    const View view = m_forward.back();
    m_forward.pop_back();
    restore(view);
    emitHistoryChanges(couldGoBack, true);
}

TimeWindow::View TimeWindow::currentView() const
{
    return {m_live, m_windowMs, m_range};
}

void TimeWindow::remember()
{
    const bool couldGoBack = canGoBack();
    const bool couldGoForward = canGoForward();
    const View view = currentView();
    if (m_back.empty() || !(m_back.back() == view))
        m_back.push_back(view);
    if (int(m_back.size()) > kHistoryDepth)
        m_back.erase(m_back.begin());
    // A new navigation after going back forks the history: the old future is gone.
    m_forward.clear();
    emitHistoryChanges(couldGoBack, couldGoForward);
}

void TimeWindow::restore(const View &view)
{
    m_windowMs = view.windowMs;
    applyLive(view.live);
    setRange(view.live ? TimeRange{now() - m_windowMs, now()} : view.range);
}

void TimeWindow::applyLive(bool live)
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

void TimeWindow::emitHistoryChanges(bool couldGoBack, bool couldGoForward)
{
    if (couldGoBack != canGoBack())
        emit canGoBackChanged(canGoBack());
    if (couldGoForward != canGoForward())
        emit canGoForwardChanged(canGoForward());
}
