// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "session/format/sessioncontents.h"

#include <QList>

class AnnotationModel;
class SampleStore;

// Puts a recording back where the live run kept it: the samples into the store (whole: its
// retention is switched off), the annotations into the model with their ids (so edits made
// offline refer to the same ones), and the dashboard it was shown with.
namespace SessionReplay {

struct Loaded
{
    DashboardDefinition dashboard;
    QList<DashboardIssue> issues; // problems reading the recorded dashboard back
    TimeRange recorded;           // first to last thing recorded
    QStringList seriesOrder;      // store keys in the order they first arrived live
    qint64 windowMs = 0;          // the live window's length at the end of the run
    // Where the window opens: "now" pinned to the end of what was last seen live, and the
    // range to show when the run ended zoomed in (nullopt: the live window at `nowMs`).
    qint64 nowMs = 0;
    std::optional<TimeRange> zoomed;
};

Loaded load(const SessionContents &contents, SampleStore *store, AnnotationModel *annotations);

// A dashboard for a recording whose dashboard record was lost: one panel per recorded panel
// key ("p3/q0/…"), titled by number, each recorded query a plain series.
DashboardDefinition dashboardFromKeys(const SessionContents &contents);

} // namespace SessionReplay
