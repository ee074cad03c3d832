// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "session/format/sessioncontents.h"

#include <QString>

class AnnotationModel;
class SampleStore;

// --session A --compare-session B --export …: two runs side by side, seed 000's "left 500
// PI/s, right 300 PI/s". Each side shows its own run, from the moment its recording began to
// the last thing it recorded: what a live run fetched of the past before it began (its first
// window, backfilled from Prometheus) is not part of it, so a second run of the same
// dashboard, whose backfill reaches back into the first, never mixes into the first's side.
namespace SessionComparison {

struct Second
{
    TimeRange run;         // the second recording's run
    QString compareRanges; // "A/B,C/D" for ExportOptions::compare: the first run, then the second
};

// From the start of the recording to the last thing recorded (within what a trimmed copy
// kept).
TimeRange runOf(const SessionContents &contents);

// Reads the recording at `path` and puts the samples of its run, and its annotations, into
// `store` and `annotations`, which hold the first recording; each series keeps only the
// samples of the two runs. Refused, changing nothing, when it cannot be read, was made with
// other queries than `firstDashboard` (its series would land in the wrong panels), or its
// run overlaps the first.
Result<Second> addSecondRecording(const QString &path, const SessionContents &first,
                                  const DashboardDefinition &firstDashboard, SampleStore *store,
                                  AnnotationModel *annotations);

// Why two dashboards' queries differ, the first difference in words; empty when they match.
QString queryDifference(const DashboardDefinition &first, const DashboardDefinition &second);

} // namespace SessionComparison
