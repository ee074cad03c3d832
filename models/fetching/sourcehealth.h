// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fetching/panelstatus.h"

#include <QString>
#include <optional>
#include <vector>

// What the status bar says of the metrics source. Reachable is not "up": a server that answers
// every query with an error (a wrong path behind a proxy, a PromQL it refuses) once read "up"
// while every panel showed an error. Up means at least one panel's queries were answered.
struct SourceHealth
{
    enum class State
    {
        Waiting,         // no answer yet
        Up,              // some panel's queries are answered (with data or with none)
        EveryQueryFails, // reachable, but every panel that asked got an error
        Down,            // not reachable
    };

    State state = State::Waiting;
    QString detail; // Down: why; EveryQueryFails: the first failing panel's error
    int failingPanels = 0;

    // `reachable`: what the transport last said (nullopt before any answer); `downReason` goes
    // with false. `panels`: each panel's status, in order.
    static SourceHealth judge(std::optional<bool> reachable, const QString &downReason,
                              const std::vector<PanelStatus> &panels);

    bool operator==(const SourceHealth &) const = default;
};
