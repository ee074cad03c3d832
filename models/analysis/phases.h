// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/timerange.h"

#include <QString>
#include <vector>

// The one phase rule of Chaoscope (the legend's checks, a picture's, a post's sections and its
// Expected / Result, Statistics per phase): a phase starts at each thing done to the system (an action
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

namespace Phases {

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
std::vector<Phase> of(const TimeRange &range, const std::vector<Annotation> &annotations);

} // namespace Phases
