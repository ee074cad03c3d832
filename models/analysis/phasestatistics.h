// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/checkjudgement.h"
#include "annotations/annotation.h"
#include "base/timerange.h"

#include <QString>
#include <optional>
#include <span>
#include <vector>

// Statistics of a panel's series per phase of a run ("mean completed/s before the rate change:
// 298, after: 214"). The first column is the whole range, then "before <first>",
// "<first> → <second>", …, "after <last>".
//
// The one phase rule of Chaoscope (the legend's checks, a picture's, a post's sections and its
// Expected / Result, this table): a phase starts at each thing done to the system (an action
// taken in Chaoscope, a scenario's step, a change somebody made in the cluster) and at a note
// the user marks as a phase with #phase. Observations (other notes, detectors' findings,
// annotation queries' marks, a scenario's verdict, unaccepted suggestions) do not start one:
// a check's settling follows a change, not a remark. Things done within kMergeMs start one
// phase together, named by the first. A range that begins inside a phase keeps that phase's
// start and name, so a check settles as it did in the whole run.
struct Phase
{
    QString title;
    TimeRange range;   // inclusive; consecutive phases do not share a millisecond
    QString startedBy; // the name of the phase (see phaseName); empty before the first and for the whole
    // When the phase began: range.startMs, or earlier when the range cut into it. A check's
    // settling and "after" count from here.
    qint64 startedAtMs = 0;
};

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

// Things done closer than this start one phase (a scenario's note and its action at one step).
constexpr qint64 kMergeMs = 3000;

// Something done to the system: an action, a scenario's step, a change in the cluster.
bool isDone(const Annotation &annotation);
// Whether a phase starts at the annotation: something done, or a note tagged #phase.
bool startsPhase(const Annotation &annotation);
// What `during` names a phase by: the first line of what started it, without the #phase tag.
QString phaseName(const Annotation &annotation);
// The annotations phases start at, over all time, in time order, one per kMergeMs.
std::vector<Annotation> boundaries(const std::vector<Annotation> &annotations);

// The range first, then one phase per stretch between the boundaries (above) inside it; the
// first stretch belongs to the phase a boundary at or before the range's start began.
std::vector<Phase> phases(const TimeRange &range, const std::vector<Annotation> &annotations);

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
