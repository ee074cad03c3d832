// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/phasestatistics.h"
#include "annotations/annotation.h"
#include "report/postdraft.h"

#include <QString>
#include <vector>

// How a run divides into the phases of a post: by the one phase rule (PhaseStatistics): a phase
// starts at each thing done (an action on the load tester or the cluster, a scenario's step, a
// change somebody made in the cluster) or a #phase note, and lasts until the next.
namespace PostPhases {

constexpr qint64 kMergeMs = Phases::kMergeMs;
// A first phase shorter than this (the moments before the first step) is left out.
constexpr qint64 kShortestFirstMs = 10000;

// The marks phases start at, within the run, in time order, one per kMergeMs: to give
// PhaseStatistics::compute, whose columns 2… are then the phases after the first.
std::vector<Annotation> boundaries(const TimeRange &run, const std::vector<Annotation> &annotations);

// The post's phases for a run and its statistics table (computed over the run with
// boundaries()): numbered from 1, each titled by what started it, with the things done in it,
// and the index of its column in the table. The pictures are left to the caller.
// The post's phases as columns of that table, in order, each with its title ("before rate
// 150 → 400 /s", then what started each): the first stretch only when it is at least
// kShortestFirstMs long. A phase's number is its place in this list, from 1.
struct Titled
{
    int column = 0;
    QString title;
};
std::vector<Titled> titled(const TimeRange &run, const std::vector<Annotation> &annotations);

struct Planned
{
    PostDraft::Phase phase;
    int column = 0; // in the PhaseStatisticsTable
};
std::vector<Planned> plan(const TimeRange &run, const std::vector<Annotation> &annotations,
                          const PhaseStatisticsTable &table);

// "rate 150 → 400 /s (Chaoscope starter, 1/1 replica)" → change and outcome.
PostDraft::Action actionOf(const Annotation &annotation);
// One column of a phase statistics table as a post's table: a row per series with its mean,
// min, max and last (and p95 when computed), then a row per check with its verdict.
QString statisticsMarkdown(const PhaseStatisticsTable &table, int column);
// "phase-2-rate-400.png": the phase's number and what started it, in a file name.
QString pictureName(int number, const QString &title);

} // namespace PostPhases
