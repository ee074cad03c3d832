// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QString>
#include <vector>

// Where the labels of a time axis go: at round instants (every 10 s, 1 min, 15 min, …) of
// local time, about every `minSpacingPx` pixels — not at fifths of an arbitrary span, so
// that the same instants carry labels in every panel and in every screenshot.
namespace TimeTicks {

struct Ticks
{
    qint64 intervalMs = 0;
    std::vector<qint64> instantsMs;
    QString labelFormat; // QDateTime format: "HH:mm:ss", "HH:mm", "MMM d"
};

// utcOffsetMs: the local zone's offset, so that hour and day ticks fall on local midnights.
Ticks compute(const TimeRange &range, int pixelWidth, int minSpacingPx, qint64 utcOffsetMs);

} // namespace TimeTicks
