// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "fetching/panelstatus.h"
#include "fetching/seriesbindings.h"

#include <QString>
#include <vector>

// What a running dashboard shows at one moment, as plain values: its definition (with the
// variables' current values), each panel's status and the store series each panel draws.
// The poller hands one out with a change that redraws whole panels (seriesReplaced) and to
// owners that build a view (snapshot()); a view keeps its copy current from the poller's
// signals, which carry what changed, so it never calls back to ask.
struct DashboardSnapshot
{
    DashboardDefinition dashboard;
    std::vector<PanelStatus> status;                // per panel
    std::vector<std::vector<SeriesBinding>> series; // per panel, in drawing order
    int refreshMs = 0;

    PanelStatus statusOf(int panel) const;
    std::vector<SeriesBinding> seriesOf(int panel) const;

    // The poller's signals applied to a copy: a new series in its drawing place (a binding
    // of the same panel and key replaced), a panel's new status, a variable's new value.
    void add(const SeriesBinding &binding);
    void setStatus(int panel, const PanelStatus &panelStatus);
    void setVariable(const QString &name, const QString &value);
};
