// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/samplestore.h"

#include <QObject>
#include <QPointer>
#include <optional>

// The instant under the mouse, shared by every panel of a dashboard: the panel under the
// mouse sets it, all of them draw their crosshair there, so one vertical line runs through
// the whole grid at the same time. It knows which panel set it (the origin), because only
// that one shows the value read-out next to the mouse.
class TimeCursor : public QObject
{
    Q_OBJECT
public:
    explicit TimeCursor(QObject *parent = nullptr);

    std::optional<qint64> timeMs() const { return m_timeMs; }
    const QObject *origin() const { return m_origin; }

    // The mouse is over `origin` at timeMs.
    void hover(qint64 timeMs, const QObject *origin);
    // The mouse left `origin`; ignored when another panel took the cursor meanwhile (the leave
    // of one panel may arrive after the enter of its neighbour).
    void leave(const QObject *origin);

signals:
    void changed();

private:
    std::optional<qint64> m_timeMs;
    QPointer<const QObject> m_origin;
};

// A series' sample nearest to an instant: what a read-out shows at the cursor.
struct NearestSample
{
    qint64 timestampMs = 0;
    double value = 0;
};

// Binary search for the sample nearest to timeMs (ties go to the older one); nullopt when the
// series is empty or the nearest sample is more than maxDistanceMs away (a gap in the data
// must read as "no value", not as a far-away one).
std::optional<NearestSample> nearestSample(const SampleStore::Series &series, qint64 timeMs, qint64 maxDistanceMs);
