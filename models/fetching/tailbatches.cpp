// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/tailbatches.h"

#include <algorithm>
#include <map>

namespace TailBatches {

std::vector<Request> group(const std::vector<Poll> &polls, qint64 maxExtraMs)
{
    std::vector<Request> requests;
    std::map<qint64, std::vector<const Poll *>> byStep;
    for (const Poll &poll : polls) {
        if (poll.mergeable)
            byStep[poll.stepMs].push_back(&poll);
        else
            requests.push_back({{poll.query}, poll.range, poll.stepMs});
    }
    for (const auto &[stepMs, members] : byStep) {
        std::vector<qint64> starts;
        starts.reserve(members.size());
        for (const Poll *poll : members)
            starts.push_back(poll->range.startMs);
        std::nth_element(starts.begin(), starts.begin() + std::ptrdiff_t(starts.size() / 2), starts.end());
        const qint64 typicalStart = starts[starts.size() / 2];
        Request batch;
        batch.stepMs = stepMs;
        for (const Poll *poll : members) {
            if (poll->range.startMs < typicalStart - maxExtraMs) {
                requests.push_back({{poll->query}, poll->range, stepMs});
                continue;
            }
            batch.range = batch.queries.empty() ? poll->range
                                                : TimeRange{std::min(batch.range.startMs, poll->range.startMs),
                                                            std::max(batch.range.endMs, poll->range.endMs)};
            batch.queries.push_back(poll->query);
        }
        if (!batch.queries.empty())
            requests.push_back(std::move(batch));
    }
    return requests;
}

} // namespace TailBatches
