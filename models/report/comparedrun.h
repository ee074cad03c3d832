// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "base/result.h"
#include "base/timerange.h"
#include "fetching/dashboardsnapshot.h"

#include <QString>
#include <optional>
#include <vector>

class SampleStore;

// A run's steady state as offsets from its zero: "+30s/+5m", "+30s/" or "+30s" (to the run's
// end), "0s/2m".
struct SteadyState
{
    qint64 startMs = 0;
    std::optional<qint64> endMs; // unset: to the run's end

    static Result<SteadyState> parse(const QString &text);
};

// One run of a comparison, as the run table and the pictures see it: where its samples are,
// which of them each panel draws, its marks, its own time and the instant it is aligned on.
// A recording brings a store of its own; the runs of one dashboard for several values of a
// variable share the live store and differ in their snapshots (the keys carry the value).
struct ComparedRun
{
    QString title;                       // "base", "500 PI/s", the recording's file name
    const SampleStore *store = nullptr;  // not owned; outlives every use of the run
    DashboardSnapshot snapshot;          // the store series each panel draws in this run
    std::vector<Annotation> annotations; // its marks (accepted ones only)
    TimeRange range;                     // the run's own time
    qint64 zeroMs = 0;                   // what "+0:00" is: the event the runs are aligned on
    TimeRange steady;                    // the run table's statistics are taken over this

    // The steady state from offsets to the zero ("+30s/+5m"), cut to the run's time.
    TimeRange steadyFrom(qint64 startOffsetMs, std::optional<qint64> endOffsetMs) const;
    TimeRange steadyFrom(const SteadyState &steady) const { return steadyFrom(steady.startMs, steady.endMs); }
    // The first mark within the run's own time whose text contains `text` (any case): the
    // event runs are aligned on ("rate", "in-flight limit").
    std::optional<qint64> firstMarkWith(const QString &text) const;
};
