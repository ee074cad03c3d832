// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

// What a panel shows about itself besides its curves: is it loading, empty, failing, or is
// its source down — so a user never mistakes a stale flat line for a healthy one.
struct PanelStatus
{
    enum class State
    {
        Loading,    // first fetch not answered yet
        Ok,         // data arrived on the last poll
        NoData,     // the queries answered, with no series
        QueryError, // at least one query was refused or did not parse
        SourceDown, // Prometheus could not be reached (refused, timeout)
    };

    State state = State::Loading;
    QString message;      // for QueryError / SourceDown: what went wrong, for the user
    QStringList warnings; // the server's warnings, and our own (series cap)
    qint64 stepMs = 0;    // effective resolution of the panel's queries
    std::optional<qint64> newestSampleMs;

    bool operator==(const PanelStatus &) const = default;
};
