// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// Time in the models is always UTC milliseconds since the epoch; only views convert.
struct TimeRange
{
    qint64 startMs = 0;
    qint64 endMs = 0; // inclusive

    qint64 length() const { return endMs - startMs; }
    bool isEmpty() const { return endMs < startMs; }
    bool contains(qint64 t) const { return t >= startMs && t <= endMs; }
    bool operator==(const TimeRange &) const = default;
};
