// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QtGlobal>
#include <map>
#include <span>
#include <vector>

// Decides which samples of one series are worth recording: those new to the recording or
// whose value changed since they were recorded. The poller re-fetches an overlap on every
// poll and whole ranges at another step when the view zooms out; recording all that again
// would make the file grow with every look around.
//
// Exact for the newest samples recorded (a tail of the last kTailSamples: the overlap and the
// provisional newest points land there). For older ones it keeps, per minute of time, a
// count and an order-independent hash of what was recorded; a minute whose current samples
// hash differently is recorded again as a whole. So a zoom-out that brings nothing new costs
// a hash over the range, not a copy of it in the file. Memory: the tail plus 16 bytes per
// minute of history.
class SessionChangeFilter
{
public:
    static constexpr std::size_t kTailSamples = 512;
    static constexpr qint64 kBucketMs = 60'000;

    // Given all samples of the series (ascending, as the store holds them) and the span in
    // which they changed, appends to `outTimes`/`outValues` (ascending) those to record, and
    // remembers them as recorded.
    void select(std::span<const qint64> timestampsMs, std::span<const double> values, const TimeRange &changed,
                std::vector<qint64> &outTimes, std::vector<double> &outValues);

    // Forgets what was recorded in a span (it was lost, e.g. while a write error paused the
    // recording): the next select() over it records it again.
    void forget(const TimeRange &span);

    // Forgets everything: the next select() records all it is given.
    void clear();

private:
    struct Bucket
    {
        quint64 hash = 0;
        quint64 count = 0;
        bool operator==(const Bucket &) const = default;
    };

    static quint64 sampleHash(qint64 t, double value);
    static qint64 bucketOf(qint64 t);
    void remember(qint64 t, double value);
    void evict();

    // Exact tail of what was recorded, ascending.
    std::vector<qint64> m_tailTimes;
    std::vector<quint64> m_tailBits;
    // Older than the tail: per minute, what was recorded.
    std::map<qint64, Bucket> m_buckets;
};
