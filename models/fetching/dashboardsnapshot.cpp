// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/dashboardsnapshot.h"

#include <algorithm>

PanelStatus DashboardSnapshot::statusOf(int panel) const
{
    return panel >= 0 && panel < int(status.size()) ? status[std::size_t(panel)] : PanelStatus{};
}

std::vector<SeriesBinding> DashboardSnapshot::seriesOf(int panel) const
{
    return panel >= 0 && panel < int(series.size()) ? series[std::size_t(panel)] : std::vector<SeriesBinding>{};
}

void DashboardSnapshot::add(const SeriesBinding &binding)
{
    if (binding.panel < 0)
        return;
    if (binding.panel >= int(series.size()))
        series.resize(std::size_t(binding.panel) + 1);
    std::vector<SeriesBinding> &panel = series[std::size_t(binding.panel)];
    panel.erase(
        std::remove_if(panel.begin(), panel.end(), [&](const SeriesBinding &b) { return b.key == binding.key; }),
        panel.end());
    const auto at = std::upper_bound(panel.begin(), panel.end(), binding,
                                     [](const SeriesBinding &a, const SeriesBinding &b) { return a.drawsBefore(b); });
    panel.insert(at, binding);
}

void DashboardSnapshot::setStatus(int panel, const PanelStatus &panelStatus)
{
    if (panel < 0)
        return;
    if (panel >= int(status.size()))
        status.resize(std::size_t(panel) + 1);
    status[std::size_t(panel)] = panelStatus;
}

void DashboardSnapshot::setVariable(const QString &name, const QString &value)
{
    for (VariableDefinition &variable : dashboard.variableDefinitions) {
        if (variable.name == name)
            variable.value = value;
    }
}
