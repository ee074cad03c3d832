// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/sourcehealth.h"

#include <algorithm>

SourceHealth SourceHealth::judge(std::optional<bool> reachable, const QString &downReason,
                                 const std::vector<PanelStatus> &panels)
{
    using Panel = PanelStatus::State;
    SourceHealth health;
    if (reachable == false) {
        health.state = State::Down;
        health.detail = downReason;
        return health;
    }
    const auto answered = [](const PanelStatus &panel) {
        return panel.state == Panel::Ok || panel.state == Panel::NoData;
    };
    if (std::any_of(panels.begin(), panels.end(), answered)) {
        health.state = State::Up;
        return health;
    }
    for (const PanelStatus &panel : panels) {
        if (panel.state == Panel::QueryError) {
            if (health.failingPanels++ == 0)
                health.detail = panel.message;
        } else if (panel.state == Panel::SourceDown && health.detail.isEmpty()) {
            health.detail = panel.message;
        }
    }
    if (health.failingPanels > 0)
        health.state = State::EveryQueryFails;
    else if (!health.detail.isEmpty())
        health.state = State::Down; // the panels saw it go before the transport said so
    return health;
}
