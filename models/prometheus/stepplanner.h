// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <vector>

// Chooses the resolution step of a range query and splits long ranges so that no request
// asks for more points per series than the server allows (Prometheus: 11,000).
namespace StepPlanner {

constexpr int kServerMaxPointsPerSeries = 11000;

// The step for a panel: about one point per pixel column, never below the scrape interval,
// rounded up to a "nice" step (1s, 2s, 5s, 10s, 15s, 30s, 1m, 2m, 5m, 10m, 15m, 30m, 1h, ...)
// so that consecutive polls evaluate at the same instants. Result in ms, at least 1000.
qint64 chooseStepMs(qint64 windowMs, int pixelWidth, qint64 scrapeIntervalMs);

// Aligns a range to the step grid: start rounded down, end rounded down to a multiple of step.
TimeRange alignToStep(const TimeRange &range, qint64 stepMs);

// Splits [start, end] into consecutive chunks of at most maxPoints evaluation instants each
// (inclusive ends, no instant requested twice, no instant missed).
std::vector<TimeRange> splitRange(const TimeRange &range, qint64 stepMs, int maxPoints = kServerMaxPointsPerSeries);

} // namespace StepPlanner
