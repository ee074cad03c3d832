// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "checks/check.h"
#include "dashboard/dashboarddefinition.h"

#include <QString>
#include <vector>

// A check as one panel draws and judges it: the level on the axis of the series it judges,
// and which of the panel's store series those are.
struct PanelCheck
{
    Check check;
    QString reference; // SeriesKey reference of the judged series (a query's prefix, a formula's key)
    AxisSide axis = AxisSide::Left;
    QString label;           // drawn by the line: "no timeouts ≤ 0", "guard pending cap < 5k"
    bool failedLive = false; // a running scenario judged it failed (its own queries)
};

// A level as a panel draws it: one line per value, label and axis, however many checks
// (an imported threshold judges each query of its panel) share it.
struct PanelLevel
{
    double value = 0;
    QString label;
    AxisSide axis = AxisSide::Left;
    bool failed = false; // any of its checks failed (or a running scenario judged it so)
};

namespace PanelChecks {

// The lines of `checks`, in their order; failed[i] says check i failed where it is drawn.
std::vector<PanelLevel> levels(const std::vector<PanelCheck> &checks, const std::vector<bool> &failed);

// The checks `panel` shows: those whose "series" is the id of one of its series, or whose
// "query" is one of its series' queries (compared without white space). `label` is put in
// front of each line's words ("guard").
std::vector<PanelCheck> of(const DashboardDefinition &dashboard, int panel, const std::vector<Check> &checks,
                           const QString &label = {});

} // namespace PanelChecks
