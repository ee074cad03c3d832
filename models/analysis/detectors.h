// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/detectordefinition.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <optional>
#include <span>
#include <vector>

// Detectors read recorded series and suggest annotations for the moments a reliability
// engineer would mark by hand: throughput falling off a cliff, a scrape target going down or
// coming back, a backlog that keeps growing while throughput looks "recovered" (seed 004), a
// timeout rate crossing a threshold. They only suggest: the user accepts or dismisses.
// Pure functions over time-sorted samples, so they are tested on recorded series.
struct DetectorSuggestion
{
    qint64 timeMs = 0;
    std::optional<qint64> endMs; // a region (the backlog detector)
    QString text;
    QString detector; // "throughput-drop", "target-down", "target-up", "backlog-growth", "rate-above"

    bool operator==(const DetectorSuggestion &) const = default;
};

namespace Detectors {

using Times = std::span<const qint64>;
using Values = std::span<const double>;

// Each drop is reported once; the next can only start after the value recovered above the
// drop level or one window passed.
std::vector<DetectorSuggestion> throughputDrops(Times t, Values v, const QString &seriesName,
                                                const DetectorThresholds &thresholds = {});
// `up` is a Prometheus up series (1/0): every change is a suggestion.
std::vector<DetectorSuggestion> targetUpDown(Times t, Values up, const QString &target);
// A region for each stretch where the backlog kept growing for backlogGrowthMs or longer while
// the throughput (nearest samples) stayed flat.
std::vector<DetectorSuggestion> backlogGrowsWhileFlat(Times backlogT, Values backlog, Times throughputT,
                                                      Values throughput, const DetectorThresholds &thresholds = {});
// Each rise above the threshold after having been at or below it for rateQuietMs: a rate
// that flaps around the threshold is one event, not one per sample that crosses it.
std::vector<DetectorSuggestion> rateAbove(Times t, Values v, const QString &seriesName, const QString &unit,
                                          const DetectorThresholds &thresholds = {});

} // namespace Detectors
