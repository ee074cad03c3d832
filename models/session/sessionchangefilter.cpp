// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionchangefilter.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace {

quint64 mix(quint64 x)
{
    // splitmix64's finaliser: every input bit moves every output bit.
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace

quint64 SessionChangeFilter::sampleHash(qint64 t, double value)
{
    return mix(mix(quint64(t)) ^ std::bit_cast<quint64>(value));
}

qint64 SessionChangeFilter::bucketOf(qint64 t)
{
    // Floor division, so negative times (tests, odd sources) share the layout.
    return t >= 0 ? t / kBucketMs : -((-(t + 1)) / kBucketMs) - 1;
}

void SessionChangeFilter::select(std::span<const qint64> timestampsMs, std::span<const double> values,
                                 const TimeRange &changed, std::vector<qint64> &outTimes,
                                 std::vector<double> &outValues)
{
    const std::size_t size = std::min(timestampsMs.size(), values.size());
    timestampsMs = timestampsMs.first(size);
    if (size == 0 || changed.isEmpty())
        return;
    const auto indexOf = [&](qint64 t) {
        return std::size_t(std::lower_bound(timestampsMs.begin(), timestampsMs.end(), t) - timestampsMs.begin());
    };
    // History the store no longer holds has nothing left to compare against.
    m_buckets.erase(m_buckets.begin(), m_buckets.lower_bound(bucketOf(timestampsMs.front())));

    const qint64 tailFront = m_tailTimes.empty() ? std::numeric_limits<qint64>::max() : m_tailTimes.front();

    // Older than the tail: whole minutes, compared by hash. Walks the samples, not the
    // minutes, so a sparse history (a coarse step over a day) costs what it holds.
    if (!m_tailTimes.empty() && changed.startMs < tailFront) {
        const qint64 lastBucket = bucketOf(std::min(changed.endMs, tailFront - 1));
        const qint64 limit = std::min(lastBucket * kBucketMs + (kBucketMs - 1), tailFront - 1);
        std::size_t i = indexOf(bucketOf(changed.startMs) * kBucketMs);
        const std::size_t end = limit == std::numeric_limits<qint64>::max() ? size : indexOf(limit + 1);
        while (i < end) {
            const qint64 bucket = bucketOf(timestampsMs[i]);
            Bucket current;
            std::size_t j = i;
            for (; j < end && bucketOf(timestampsMs[j]) == bucket; ++j) {
                current.hash += sampleHash(timestampsMs[j], values[j]);
                ++current.count;
            }
            const auto it = m_buckets.find(bucket);
            if (it == m_buckets.end() || !(it->second == current)) {
                outTimes.insert(outTimes.end(), timestampsMs.begin() + qsizetype(i),
                                timestampsMs.begin() + qsizetype(j));
                outValues.insert(outValues.end(), values.begin() + qsizetype(i), values.begin() + qsizetype(j));
                m_buckets[bucket] = current;
            }
            i = j;
        }
    }

    // The tail: sample by sample.
    const std::size_t from = indexOf(std::max(changed.startMs, m_tailTimes.empty() ? changed.startMs : tailFront));
    const std::size_t to = changed.endMs == std::numeric_limits<qint64>::max() ? size : indexOf(changed.endMs + 1);
    for (std::size_t i = from; i < to; ++i) {
        const qint64 t = timestampsMs[i];
        const quint64 bits = std::bit_cast<quint64>(values[i]);
        const auto at = std::lower_bound(m_tailTimes.begin(), m_tailTimes.end(), t);
        const std::size_t index = std::size_t(at - m_tailTimes.begin());
        if (at != m_tailTimes.end() && *at == t) {
            if (m_tailBits[index] == bits)
                continue;
            m_tailBits[index] = bits;
        } else {
            m_tailTimes.insert(at, t);
            m_tailBits.insert(m_tailBits.begin() + qsizetype(index), bits);
        }
        outTimes.push_back(t);
        outValues.push_back(values[i]);
    }
    evict();
}

void SessionChangeFilter::evict()
{
    if (m_tailTimes.size() <= kTailSamples)
        return;
    const std::size_t excess = m_tailTimes.size() - kTailSamples;
    for (std::size_t i = 0; i < excess; ++i) {
        Bucket &bucket = m_buckets[bucketOf(m_tailTimes[i])];
        bucket.hash += sampleHash(m_tailTimes[i], std::bit_cast<double>(m_tailBits[i]));
        ++bucket.count;
    }
    m_tailTimes.erase(m_tailTimes.begin(), m_tailTimes.begin() + qsizetype(excess));
    m_tailBits.erase(m_tailBits.begin(), m_tailBits.begin() + qsizetype(excess));
    // The first select() of a series passes its whole history through the tail; without
    // this the tail kept that history's capacity (16 bytes per sample of every series)
    // for the rest of the run.
    if (m_tailTimes.capacity() > 4 * kTailSamples) {
        m_tailTimes.shrink_to_fit();
        m_tailBits.shrink_to_fit();
    }
}

void SessionChangeFilter::forget(const TimeRange &span)
{
    if (span.isEmpty())
        return;
    const auto first = std::lower_bound(m_tailTimes.begin(), m_tailTimes.end(), span.startMs);
    const auto last = std::upper_bound(first, m_tailTimes.end(), span.endMs);
    m_tailBits.erase(m_tailBits.begin() + (first - m_tailTimes.begin()),
                     m_tailBits.begin() + (last - m_tailTimes.begin()));
    m_tailTimes.erase(first, last);
    // A bucket marked with an impossible count never matches, so it is recorded again.
    for (auto it = m_buckets.lower_bound(bucketOf(span.startMs));
         it != m_buckets.end() && it->first <= bucketOf(span.endMs); ++it)
        it->second = Bucket{0, std::numeric_limits<quint64>::max()};
}

void SessionChangeFilter::clear()
{
    m_tailTimes.clear();
    m_tailBits.clear();
    m_buckets.clear();
}
