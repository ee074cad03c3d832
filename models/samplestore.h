// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timerange.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QString>

#include <span>
#include <vector>

// Raw samples, kept once, per series: columnar (UTC ms timestamps, double values), sorted by
// time, no duplicate timestamps. Bounded by a retention span measured back from the newest
// sample of each series. Lives on the UI thread; readers take copies of slices for work on
// other threads.
class SampleStore : public QObject
{
    Q_OBJECT
public:
    struct Series
    {
        QString key;                   // unique in the store, chosen by the writer
        QMap<QString, QString> labels; // labels as the source sent them
        std::vector<qint64> timestampsMs;
        std::vector<double> values;
    };

    explicit SampleStore(QObject *parent = nullptr);

    // How far back from its newest sample a series keeps samples (default 25 h). 0 = no bound.
    void setRetentionMs(qint64 retentionMs);
    qint64 retentionMs() const { return m_retentionMs; }

    // Merges a batch into a series (created on first use). Timestamps in the batch need not be
    // sorted. Where a timestamp already exists, the new value wins (a re-fetched, final value
    // replaces a provisional one); otherwise samples are inserted in order. Emits
    // samplesChanged once with the span the batch covered. Returns the number of samples that
    // were new (not replacements).
    qsizetype merge(const QString &key, const QMap<QString, QString> &labels,
                    std::span<const qint64> timestampsMs, std::span<const double> values);

    bool contains(const QString &key) const;
    const Series *series(const QString &key) const; // nullptr when unknown
    QStringList keys() const;
    QStringList keysWithPrefix(const QString &prefix) const;

    // Index range [first, last) of the samples with startMs <= t <= endMs (binary search).
    std::pair<std::size_t, std::size_t> indexRange(const QString &key,
                                                   const TimeRange &range) const;
    // The newest timestamp of a series, or nullopt when it has no samples.
    std::optional<qint64> newestTimestamp(const QString &key) const;

    void remove(const QString &key);
    void clear();

    // Total samples held, over all series (for the status bar and the benchmarks).
    qsizetype sampleCount() const;

signals:
    void samplesChanged(const QString &key, const TimeRange &span);
    void seriesRemoved(const QString &key);
    void cleared();

private:
    void applyRetention(Series &series);

    QHash<QString, Series> m_series;
    qint64 m_retentionMs = 25ll * 3600 * 1000;
};
