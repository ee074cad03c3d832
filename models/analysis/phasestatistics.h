// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/checkjudgement.h"
#include "analysis/phases.h"
#include "annotations/annotation.h"
#include "base/timerange.h"

#include <QString>
#include <optional>
#include <span>
#include <vector>

// Statistics of a panel's series per phase of a run ("mean completed/s before the rate change:
// 298, after: 214"): the first column is the whole range, then each phase of it (Phases::of).
struct PhaseSeries
{
    QString name;
    QString unit; // of the axis it is drawn on
    std::span<const qint64> timestampsMs;
    std::span<const double> values;
};

struct PhaseStatisticsTable
{
    enum class Statistic
    {
        Mean,
        Min,
        Max,
        Last,
        P95
    };

    struct Row
    {
        QString series;
        QString unit;
        Statistic statistic = Statistic::Mean;
        std::vector<std::optional<double>> values; // one per column; empty where no sample
    };

    // A check on the panel's series, judged per phase: "held · worst …", "FAILED at …".
    struct CheckRow
    {
        Check check;
        std::vector<CheckVerdict> verdicts; // one per column
    };

    std::vector<Phase> columns;
    std::vector<Row> rows; // per series: mean, min, max, last (and p95 on request)
    std::vector<CheckRow> checks;

    static QString statisticName(Statistic statistic); // "mean", "p95", ...
    static QString checkTitle(const Check &check);     // "no timeouts ≤ 0"
    // For a spreadsheet: a header line, then one line per row; plain numbers.
    QString toTabSeparated() const;
    // For a report: a Markdown table with values in the panel's unit ("298 ops/s").
    QString toMarkdown() const;
};

namespace PhaseStatistics {

// A check and the series of the panel it judges (every series of its query).
struct PhaseCheck
{
    Check check;
    std::vector<CheckJudgement::Samples> series;
};

PhaseStatisticsTable compute(const std::vector<PhaseSeries> &series, const TimeRange &visible,
                             const std::vector<Annotation> &annotations, bool withP95,
                             const std::vector<PhaseCheck> &checks = {});

// The 95th percentile (nearest rank) of the finite values with a timestamp in the range.
std::optional<double> p95(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &range);

} // namespace PhaseStatistics
