// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/timecursor.h"

#include <algorithm>

TimeCursor::TimeCursor(QObject *parent) : QObject(parent) {}

void TimeCursor::hover(qint64 timeMs, const QObject *origin)
{
    if (m_timeMs == timeMs && m_origin == origin)
        return;
    m_timeMs = timeMs;
    m_origin = origin;
    emit changed();
}

void TimeCursor::leave(const QObject *origin)
{
    if (!m_timeMs || m_origin != origin)
        return;
    m_timeMs.reset();
    m_origin = nullptr;
    emit changed();
}

std::optional<NearestSample> nearestSample(const SampleStore::Series &series, qint64 timeMs, qint64 maxDistanceMs)
{
    const auto timestamps = series.timestampsMs();
    if (timestamps.empty())
        return std::nullopt;
    const auto after = std::lower_bound(timestamps.begin(), timestamps.end(), timeMs);
    auto nearest = after;
    if (after == timestamps.end()) {
        nearest = after - 1;
    } else if (after != timestamps.begin()) {
        const auto before = after - 1;
        if (timeMs - *before <= *after - timeMs)
            nearest = before;
    }
    const qint64 distance = *nearest > timeMs ? *nearest - timeMs : timeMs - *nearest;
    if (distance > maxDistanceMs)
        return std::nullopt;
    const auto index = std::size_t(nearest - timestamps.begin());
    return NearestSample{*nearest, series.values()[index]};
}
