// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QString>

// How the history planner's pieces print what they plan and what they know, for tests and
// logs that read like the plan itself: "coarse 0–8h step 30s". Times are written relative to
// an origin (the start of the window a test opens), durations as the dashboard files write
// them (Format::compactDuration).
namespace HistoryText {

QString time(qint64 ms, qint64 originMs);               // "0", "6h6m40s", "-2s"
QString range(const TimeRange &range, qint64 originMs); // "6h6m40s–8h"
QString step(qint64 stepMs);                            // "1s", "15s"

} // namespace HistoryText
