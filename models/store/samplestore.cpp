// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/samplestore.h"

#include <QDebug>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace {

// A re-fetch that brings the same value (NaN included) is not a change worth redrawing.
bool sameValue(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

bool strictlyAscending(std::span<const qint64> timestampsMs)
{
    return std::adjacent_find(timestampsMs.begin(), timestampsMs.end(), [](qint64 a, qint64 b) { return a >= b; }) ==
           timestampsMs.end();
}

// Sorts a batch by time; where a timestamp repeats, the sample that came last in the batch
// wins, as it would have if the batch had been merged one sample at a time.
void sortBatch(std::span<const qint64> timestampsMs, std::span<const double> values,
               std::vector<qint64> &sortedTimestamps, std::vector<double> &sortedValues)
{
    std::vector<std::size_t> order(timestampsMs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return timestampsMs[a] < timestampsMs[b]; });
    sortedTimestamps.clear();
    sortedValues.clear();
    sortedTimestamps.reserve(order.size());
    sortedValues.reserve(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const bool lastOfItsTime = i + 1 == order.size() || timestampsMs[order[i + 1]] != timestampsMs[order[i]];
        if (!lastOfItsTime)
            continue;
        sortedTimestamps.push_back(timestampsMs[order[i]]);
        sortedValues.push_back(values[order[i]]);
    }
}

// Makes room for `needed` samples in both columns. Grows by an eighth, not by std::vector's
// doubling: a backfill merges chunks into the middle of a series, and doubling left the
// columns of a loaded day up to twice as large as their samples (32 bytes per sample instead
// of 16). An eighth keeps appends amortised O(1) (each sample is moved about eight times in
// all) and the slack at 12.5 %.
void reserveFor(std::vector<qint64> &timestamps, std::vector<double> &values, std::size_t needed)
{
    if (needed <= timestamps.capacity() && needed <= values.capacity())
        return;
    const std::size_t capacity = needed + std::max<std::size_t>(needed / 8, 64);
    timestamps.reserve(capacity);
    values.reserve(capacity);
}

} // namespace

std::pair<std::size_t, std::size_t> SampleStore::Series::indexRange(const TimeRange &range) const
{
    const auto timestamps = timestampsMs();
    const auto first = std::lower_bound(timestamps.begin(), timestamps.end(), range.startMs);
    if (range.isEmpty()) {
        const auto index = static_cast<std::size_t>(first - timestamps.begin());
        return {index, index};
    }
    const auto last = std::upper_bound(first, timestamps.end(), range.endMs);
    return {static_cast<std::size_t>(first - timestamps.begin()), static_cast<std::size_t>(last - timestamps.begin())};
}

void SampleStore::Change::note(qint64 t)
{
    if (!any) {
        any = true;
        firstMs = lastMs = t;
        return;
    }
    firstMs = std::min(firstMs, t);
    lastMs = std::max(lastMs, t);
}

SampleStore::SampleStore(QObject *parent) : QObject(parent) {}

void SampleStore::setRetentionMs(qint64 retentionMs)
{
    std::vector<std::pair<QString, TimeRange>> droppedSpans;
    {
        const QWriteLocker locked(&m_lock);
        m_retentionMs = std::max<qint64>(0, retentionMs);
        for (auto &[key, series] : m_series) {
            if (const auto dropped = applyRetention(series))
                droppedSpans.emplace_back(key, *dropped);
        }
    }
    for (const auto &[key, dropped] : droppedSpans)
        emit samplesChanged(key, dropped);
}

qsizetype SampleStore::merge(const QString &key, const QMap<QString, QString> &labels,
                             std::span<const qint64> timestampsMs, std::span<const double> values)
{
    if (timestampsMs.size() != values.size()) {
        qWarning() << "SampleStore::merge:" << key << "got" << timestampsMs.size() << "timestamps but" << values.size()
                   << "values; ignoring the extra ones";
    }
    const std::size_t count = std::min(timestampsMs.size(), values.size());
    timestampsMs = timestampsMs.first(count);
    values = values.first(count);

    // Batches from a range query are sorted already; only pay for sorting when they are not.
    std::vector<qint64> sortedTimestamps;
    std::vector<double> sortedValues;
    if (count > 0 && !strictlyAscending(timestampsMs)) {
        sortBatch(timestampsMs, values, sortedTimestamps, sortedValues);
        timestampsMs = sortedTimestamps;
        values = sortedValues;
    }

    Change change;
    {
        const QWriteLocker locked(&m_lock);
        mergeLocked(key, labels, timestampsMs, values, change);
    }
    if (change.any)
        emit samplesChanged(key, TimeRange{change.firstMs, change.lastMs});
    return change.inserted;
}

void SampleStore::mergeLocked(const QString &key, const QMap<QString, QString> &labels,
                              std::span<const qint64> timestampsMs, std::span<const double> values, Change &change)
{
    auto it = m_series.find(key);
    if (it == m_series.end()) {
        it = m_series.emplace(key, Series{}).first;
        it->second.m_key = key;
    }
    Series &series = it->second;
    if (!labels.isEmpty())
        series.m_labels = labels;
    if (timestampsMs.empty())
        return;
    if (series.isEmpty() || timestampsMs.front() > series.timestampsMs().back())
        appendSorted(series, timestampsMs, values, change);
    else
        mergeSorted(series, timestampsMs, values, change);
    applyRetention(series);
}

void SampleStore::appendSorted(Series &series, std::span<const qint64> timestampsMs, std::span<const double> values,
                               Change &change)
{
    reserveFor(series.m_timestampsMs, series.m_values, series.m_timestampsMs.size() + timestampsMs.size());
    series.m_timestampsMs.insert(series.m_timestampsMs.end(), timestampsMs.begin(), timestampsMs.end());
    series.m_values.insert(series.m_values.end(), values.begin(), values.end());
    change.inserted = static_cast<qsizetype>(timestampsMs.size());
    change.note(timestampsMs.front());
    change.note(timestampsMs.back());
}

void SampleStore::mergeSorted(Series &series, std::span<const qint64> timestampsMs, std::span<const double> values,
                              Change &change)
{
    auto &storedTimes = series.m_timestampsMs;
    auto &storedValues = series.m_values;
    // Only the stored samples within the batch's span are merged one by one; those after it
    // are moved in one piece. A backfill loads its chunks newest first, each in front of
    // what is stored: the cost is the chunk plus a memmove, not a sample-by-sample pass over
    // the rest of the series.
    const auto liveBegin = storedTimes.begin() + static_cast<std::ptrdiff_t>(series.m_head);
    const auto overlapBegin = std::lower_bound(liveBegin, storedTimes.end(), timestampsMs.front());
    const auto overlapEnd = std::upper_bound(overlapBegin, storedTimes.end(), timestampsMs.back());
    const std::size_t from = static_cast<std::size_t>(overlapBegin - storedTimes.begin());
    const std::size_t to = static_cast<std::size_t>(overlapEnd - storedTimes.begin());

    m_scratchTimestamps.clear();
    m_scratchValues.clear();
    m_scratchTimestamps.reserve(to - from + timestampsMs.size());
    m_scratchValues.reserve(to - from + timestampsMs.size());

    std::size_t i = from;
    std::size_t j = 0;
    while (i < to && j < timestampsMs.size()) {
        if (storedTimes[i] < timestampsMs[j]) {
            m_scratchTimestamps.push_back(storedTimes[i]);
            m_scratchValues.push_back(storedValues[i]);
            ++i;
        } else if (storedTimes[i] > timestampsMs[j]) {
            m_scratchTimestamps.push_back(timestampsMs[j]);
            m_scratchValues.push_back(values[j]);
            ++change.inserted;
            change.note(timestampsMs[j]);
            ++j;
        } else {
            m_scratchTimestamps.push_back(timestampsMs[j]);
            m_scratchValues.push_back(values[j]);
            if (!sameValue(storedValues[i], values[j]))
                change.note(timestampsMs[j]);
            ++i;
            ++j;
        }
    }
    // The batch ends at or after the last stored sample of the span, so only batch samples
    // can be left here.
    for (; j < timestampsMs.size(); ++j) {
        m_scratchTimestamps.push_back(timestampsMs[j]);
        m_scratchValues.push_back(values[j]);
        ++change.inserted;
        change.note(timestampsMs[j]);
    }

    // Make room: the merged span replaces [from, to), which it outgrows by the samples that
    // were new; what follows moves up by as many.
    const std::size_t merged = m_scratchTimestamps.size();
    const std::size_t oldSize = storedTimes.size();
    const std::size_t newSize = oldSize - (to - from) + merged;
    reserveFor(storedTimes, storedValues, newSize);
    storedTimes.resize(newSize);
    storedValues.resize(newSize);
    std::move_backward(storedTimes.begin() + std::ptrdiff_t(to), storedTimes.begin() + std::ptrdiff_t(oldSize),
                       storedTimes.end());
    std::move_backward(storedValues.begin() + std::ptrdiff_t(to), storedValues.begin() + std::ptrdiff_t(oldSize),
                       storedValues.end());
    std::copy(m_scratchTimestamps.begin(), m_scratchTimestamps.end(), storedTimes.begin() + std::ptrdiff_t(from));
    std::copy(m_scratchValues.begin(), m_scratchValues.end(), storedValues.begin() + std::ptrdiff_t(from));
}

std::optional<TimeRange> SampleStore::applyRetention(Series &series)
{
    if (m_retentionMs <= 0 || series.isEmpty())
        return std::nullopt;
    const qint64 newest = series.m_timestampsMs.back();
    if (newest < std::numeric_limits<qint64>::min() + m_retentionMs)
        return std::nullopt; // nothing can be older than the cutoff
    const qint64 cutoff = newest - m_retentionMs;

    auto &times = series.m_timestampsMs;
    const auto liveBegin = times.begin() + static_cast<std::ptrdiff_t>(series.m_head);
    if (*liveBegin >= cutoff)
        return std::nullopt;
    const auto keepFrom = std::lower_bound(liveBegin, times.end(), cutoff);
    const TimeRange dropped{*liveBegin, *(keepFrom - 1)};
    series.m_head = static_cast<std::size_t>(keepFrom - times.begin());

    // Compact once a quarter of the storage has expired: each compaction moves at most three
    // live samples per expired one, so dropping stays amortised O(1) per sample while the
    // storage never holds more than a third more than the live samples.
    if (series.m_head * 4 >= times.size()) {
        const auto head = static_cast<std::ptrdiff_t>(series.m_head);
        times.erase(times.begin(), times.begin() + head);
        series.m_values.erase(series.m_values.begin(), series.m_values.begin() + head);
        series.m_head = 0;
    }
    return dropped;
}

bool SampleStore::contains(const QString &key) const
{
    return m_series.find(key) != m_series.end();
}

const SampleStore::Series *SampleStore::series(const QString &key) const
{
    const auto it = m_series.find(key);
    return it == m_series.end() ? nullptr : &it->second;
}

QStringList SampleStore::keys() const
{
    QStringList result;
    result.reserve(static_cast<qsizetype>(m_series.size()));
    for (const auto &entry : m_series)
        result.append(entry.first);
    return result;
}

QStringList SampleStore::keysWithPrefix(const QString &prefix) const
{
    QStringList result;
    for (auto it = m_series.lower_bound(prefix); it != m_series.end() && it->first.startsWith(prefix); ++it)
        result.append(it->first);
    return result;
}

std::pair<std::size_t, std::size_t> SampleStore::indexRange(const QString &key, const TimeRange &range) const
{
    const Series *s = series(key);
    return s ? s->indexRange(range) : std::pair<std::size_t, std::size_t>{0, 0};
}

std::optional<qint64> SampleStore::newestTimestamp(const QString &key) const
{
    const Series *s = series(key);
    if (!s || s->isEmpty())
        return std::nullopt;
    return s->timestampsMs().back();
}

void SampleStore::remove(const QString &key)
{
    // A copy: the caller may have passed series(key)->key(), which the erase destroys.
    const QString removedKey = key; // NOLINT(performance-unnecessary-copy-initialization)
    std::size_t erased = 0;
    {
        const QWriteLocker locked(&m_lock);
        erased = m_series.erase(removedKey);
    }
    if (erased > 0)
        emit seriesRemoved(removedKey);
}

void SampleStore::rename(const std::vector<KeyRename> &renames)
{
    std::vector<std::pair<QString, QString>> moved;
    QStringList replaced;
    {
        const QWriteLocker locked(&m_lock);
        std::vector<decltype(m_series)::node_type> nodes;
        for (auto it = m_series.begin(); it != m_series.end();) {
            std::optional<QString> to;
            for (const KeyRename &rename : renames) {
                if ((to = rename.applyTo(it->first)))
                    break;
            }
            if (!to || *to == it->first) {
                ++it;
                continue;
            }
            moved.emplace_back(it->first, *to);
            nodes.push_back(m_series.extract(it++)); // the node, and the samples in it, stay put
        }
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            nodes[i].key() = moved[i].second;
            nodes[i].mapped().m_key = moved[i].second;
            if (m_series.erase(moved[i].second) > 0)
                replaced.append(moved[i].second);
            m_series.insert(std::move(nodes[i]));
        }
    }
    for (const QString &key : replaced)
        emit seriesRemoved(key);
    if (!moved.empty())
        emit seriesRenamed(moved);
}

void SampleStore::clear()
{
    {
        const QWriteLocker locked(&m_lock);
        m_series.clear();
    }
    emit cleared();
}

std::size_t SampleStore::bytesReserved() const
{
    std::size_t bytes = 0;
    for (const auto &entry : m_series) {
        bytes += entry.second.m_timestampsMs.capacity() * sizeof(qint64);
        bytes += entry.second.m_values.capacity() * sizeof(double);
    }
    return bytes;
}

qsizetype SampleStore::sampleCount() const
{
    qsizetype total = 0;
    for (const auto &entry : m_series)
        total += static_cast<qsizetype>(entry.second.size());
    return total;
}
