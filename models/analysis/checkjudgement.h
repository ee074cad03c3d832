// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "checks/check.h"

#include <QString>
#include <optional>
#include <span>
#include <vector>

struct Phase;

// How a check fared over recorded samples in one stretch of time: what a panel's legend says
// for the visible range and what the phase statistics add per phase. Judged as CheckTracker
// judges a live run, sample by sample: a break must last the check's `for` to fail it, a gap
// ends a break, and its "after" is counted from the start of the stretch (the settling after
// an annotation's change).
struct CheckVerdict
{
    bool applies = true; // false: the check's "during" names no phase of this stretch
    int samples = 0;
    std::optional<double> worst;
    qint64 worstAtMs = 0; // since the epoch
    std::optional<qint64> failedAtMs;
    double failedValue = 0;
    // Broken while the stretch settled (Check::settleMs), holding since: this long after its
    // start. A fix that needs a few seconds to drain reads "held after 11 s", not "FAILED".
    std::optional<qint64> heldAfterMs;

    bool failed() const { return failedAtMs.has_value(); }
    // "held · worst 4.21k at 11:02:13", "held after 11 s (settling 15 s) · worst …", "FAILED at 11:03:10: 5.21k ≥ 5k
    // for 10 s · worst 6k at 11:03:40", "no samples", "not judged here"; times as clock times of the day.
    QString describe(const Check &check) const;
    // The same for a table cell, the words in full in its tooltip and copies: "✓ worst 4.21k",
    // "✗ 5.21k at 11:03:10", "not judged", "no samples".
    QString cell(const Check &check) const;
    // The shortest, for a legend row: "✓ ≤ 0", "✗ 5.21k at 11:03:10".
    QString badge(const Check &check) const;
};

namespace CheckJudgement {

struct Samples
{
    std::span<const qint64> timestampsMs;
    std::span<const double> values;
};

// One stretch of a check's series (every series of its query: a check is as bad as its worst
// series). `phase` is the name of the phase the stretch is in ("" for none): a check with
// "during" applies only in the phases it names. Its settling and "after" count from
// `phaseStartMs` (the range's start when not given): a stretch that opens inside a phase
// settles as the phase did.
CheckVerdict judge(const Check &check, const std::vector<Samples> &series, const TimeRange &range, const QString &phase,
                   std::optional<qint64> phaseStartMs = std::nullopt);

// The verdicts of `phases` as PhaseStatistics::phases lays them out (the one phase rule): the
// first is the whole range, the others its stretches between the things done. Each stretch is
// judged on its own; the whole range failed when one of them failed (the earliest failure),
// its worst is theirs.
std::vector<CheckVerdict> perPhase(const Check &check, const std::vector<Samples> &series,
                                   const std::vector<Phase> &phases);

} // namespace CheckJudgement
