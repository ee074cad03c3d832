// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "store/keyrename.h"

#include <QMap>
#include <QObject>
#include <QReadWriteLock>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

// Raw samples, kept once, per series: columnar (UTC ms timestamps, double values), sorted by
// time, no duplicate timestamps. Bounded by a retention span measured back from the newest
// sample of each series. Lives on the UI thread and is changed only there. Work on other
// threads (the charts' render jobs) reads series in place while holding readLock(), instead
// of copying what it needs: a copy of every visible sample per render cost as much memory as
// the store itself, and a memcpy of the whole day every second.
class SampleStore : public QObject
{
    Q_OBJECT
public:
    // One series. Read-only outside the store: the samples are handed out as spans because
    // retention drops old samples by moving a start offset (compacting only now and then), so
    // that dropping is amortised O(1) per sample instead of a memmove of the whole series on
    // every poll.
    class Series
    {
    public:
        const QString &key() const { return m_key; }                      // unique in the store, chosen by the writer
        const QMap<QString, QString> &labels() const { return m_labels; } // as the source sent them

        // Sorted ascending, no duplicates. The spans stay valid until the next merge into this
        // series, setRetentionMs(), remove() or clear(); on another thread, only while
        // holding the store's readLock().
        std::span<const qint64> timestampsMs() const { return {m_timestampsMs.data() + m_head, size()}; }
        std::span<const double> values() const { return {m_values.data() + m_head, size()}; }
        std::size_t size() const { return m_timestampsMs.size() - m_head; }
        bool isEmpty() const { return size() == 0; }

        // Index range [first, last) into timestampsMs()/values() of the samples with
        // startMs <= t <= endMs (binary search). first == last when none; an empty range
        // (endMs < startMs) gives first == last too.
        std::pair<std::size_t, std::size_t> indexRange(const TimeRange &range) const;

    private:
        friend class SampleStore;

        QString m_key;
        QMap<QString, QString> m_labels;
        // Storage; the live samples are [m_head, size()). Everything before m_head has expired.
        std::vector<qint64> m_timestampsMs;
        std::vector<double> m_values;
        std::size_t m_head = 0;
    };

    explicit SampleStore(QObject *parent = nullptr);

    // How far back from its newest sample a series keeps samples (default 25 h). 0 = no bound;
    // negative values count as 0. Applied to every series at once; each series that loses
    // samples emits samplesChanged with the span that was dropped.
    void setRetentionMs(qint64 retentionMs);
    qint64 retentionMs() const { return m_retentionMs; }

    // Merges a batch into a series (created on first use, even by an empty batch). Timestamps
    // in the batch need not be sorted; a timestamp repeated within the batch keeps its last
    // value. Where a timestamp already exists, the new value wins (a re-fetched, final value
    // replaces a provisional one); otherwise samples are inserted in order. A batch entirely
    // after the newest sample is appended in amortised O(batch); an overlapping batch costs
    // O(batch + the samples from the batch's first timestamp on). Non-empty labels replace
    // the stored ones. When the spans differ in length the extra elements of the longer one
    // are ignored (a writer bug, warned about).
    //
    // Emits samplesChanged at most once: with the span from the first to the last timestamp
    // that was inserted or got a different value; not at all when the batch changed nothing
    // (a re-fetch of identical values), so views can skip work. The routine retention trim
    // at the old end is not part of that span (it would widen every live update to the whole
    // history); a view showing that far back finds out from the series' first timestamp.
    // Returns the number of samples that were new (not replacements), counted before retention.
    qsizetype merge(const QString &key, const QMap<QString, QString> &labels, std::span<const qint64> timestampsMs,
                    std::span<const double> values);

    // For reading on another thread: while the returned locker lives, the store does not
    // change (series(), the spans and indexRange() may be used). The UI thread needs none, as
    // nothing else changes the store; but its next change waits for the lock, so hold it
    // briefly: one series at a time. Never emits, so a slot cannot deadlock on it.
    [[nodiscard]] QReadLocker readLock() const { return QReadLocker(&m_lock); }

    bool contains(const QString &key) const;
    // nullptr when unknown. The pointer stays valid until remove(key), clear() or the store's
    // destruction (merging into other series does not move it).
    const Series *series(const QString &key) const;
    QStringList keys() const;                                // sorted
    QStringList keysWithPrefix(const QString &prefix) const; // sorted

    // Index range [first, last) of the samples with startMs <= t <= endMs (binary search);
    // {0, 0} for an unknown key. Indices into series(key)->timestampsMs()/values().
    std::pair<std::size_t, std::size_t> indexRange(const QString &key, const TimeRange &range) const;
    // The newest timestamp of a series, or nullopt when it has no samples.
    std::optional<qint64> newestTimestamp(const QString &key) const;

    void remove(const QString &key); // emits seriesRemoved when the key existed
    // Gives keys new names, all at once (so "p1/" ↔ "p2/" swaps), samples and labels untouched.
    // A key matching several renames takes the first; a new name already held is replaced
    // (the old holder is renamed itself or was stale). Emits seriesRenamed once, with every
    // key moved (old name, new name), so that listeners see a swap as one.
    void rename(const std::vector<KeyRename> &renames);
    void clear(); // emits cleared

    // Total samples held, over all series (for the status bar and the benchmarks).
    qsizetype sampleCount() const;
    // Bytes the sample columns take, reserve included (for the benchmarks and their tests:
    // 16 per sample plus growth slack and samples expired but not yet compacted).
    std::size_t bytesReserved() const;

signals:
    void samplesChanged(const QString &key, const TimeRange &span);
    void seriesRemoved(const QString &key);
    void seriesRenamed(const std::vector<std::pair<QString, QString>> &moved);
    void cleared();

private:
    struct Change
    {
        qsizetype inserted = 0;
        bool any = false;
        qint64 firstMs = 0;
        qint64 lastMs = 0;
        void note(qint64 t);
    };

    void mergeLocked(const QString &key, const QMap<QString, QString> &labels, std::span<const qint64> timestampsMs,
                     std::span<const double> values, Change &change);
    void appendSorted(Series &series, std::span<const qint64> timestampsMs, std::span<const double> values,
                      Change &change);
    void mergeSorted(Series &series, std::span<const qint64> timestampsMs, std::span<const double> values,
                     Change &change);
    // Drops the samples older than the retention span; returns the dropped span, if any.
    std::optional<TimeRange> applyRetention(Series &series);

    // std::map: sorted keys for keys()/keysWithPrefix(), and nodes that never move, so the
    // pointers series() hands out survive merges into other series.
    std::map<QString, Series> m_series;
    // Held for writing by every change (on the UI thread, never while emitting), for reading
    // by readers on other threads. See readLock().
    mutable QReadWriteLock m_lock;
    qint64 m_retentionMs = 25ll * 3600 * 1000;

    // Reused between merges so that an overlapping merge does not allocate every poll.
    std::vector<qint64> m_scratchTimestamps;
    std::vector<double> m_scratchValues;
};
