// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "base/timerange.h"

#include <QtGlobal>
#include <vector>

// The tail polls of one refresh tick, grouped into requests. Polls at the same step are
// asked as one merged request (MergedQuery) over the union of their ranges: on a refresh the
// server's cost is mostly per request, not per sample. A poll whose range starts well before
// the others' (one catching up after an outage) goes alone, so that the others do not fetch
// its minutes again; so does one that cannot be merged (it broke a merged request before).
namespace TailBatches {

struct Poll
{
    int query = 0;
    TimeRange range;
    qint64 stepMs = 0;
    bool mergeable = true;
};

struct Request
{
    std::vector<int> queries; // in the order of the polls; one: asked alone
    TimeRange range;          // the union of their ranges
    qint64 stepMs = 0;
};

// How much earlier than the group's typical start a poll may start and still join it.
constexpr qint64 kMaxExtraMs = 60'000;

// Polls grouped into requests: every poll is in exactly one request.
std::vector<Request> group(const std::vector<Poll> &polls, qint64 maxExtraMs = kMaxExtraMs);

} // namespace TailBatches
