// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>
#include <vector>

// A load that changes over time in moves the load tester can take: a linear ramp
// ({"ramp": {"to": 500, "over": "2m"}}) or stairs ({"stairs": {"from": 100, "step": 50,
// "every": "1m", "until": 500}}). The set-point is the load tester's own: requests/s for the
// starter, users for Locust, VUs for k6, so set-points are whole numbers.
struct LoadShape
{
    enum class Kind
    {
        Ramp,
        Stairs,
    };

    // One move: the set-point to take, and when, from the shape's start.
    struct Move
    {
        qint64 offsetMs = 0;
        double rate = 0;
        bool operator==(const Move &) const = default;
    };

    Kind kind = Kind::Ramp;
    std::optional<double> from; // a ramp without one starts from the current set-point
    double to = 0;              // the ramp's end; the highest stair ("until")
    double step = 0;            // stairs: how much each stair adds
    qint64 everyMs = 0;         // stairs: how long each stair holds
    qint64 overMs = 0;          // ramp: how long it takes

    // At most one move a second, whole set-points only, none repeated: a ramp of 10 → 50
    // users over 2 minutes is 40 moves, 3 s apart, not 120. The last move reaches `to`.
    std::vector<Move> plan(double currentRate) const;
    // From the first move to the end of the last stair (stairs) or of the ramp.
    qint64 durationMs() const;
    // "ramp to 500 over 2m", "ramp 100 → 500 over 2m", "stairs 100 → 500 by 50 every 1m"
    QString describe() const;
    // What is wrong with it in words, or empty: "\"step\" must be > 0", "more than 1000 stairs".
    QString problem() const;
};
