// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/samplestore.h"

#include <QSignalSpy>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace {

using Times = std::vector<qint64>;
using Values = std::vector<double>;

Times times(const SampleStore &store, const QString &key)
{
    const auto *series = store.series(key);
    if (!series)
        return {};
    return {series->timestampsMs().begin(), series->timestampsMs().end()};
}

Values values(const SampleStore &store, const QString &key)
{
    const auto *series = store.series(key);
    if (!series)
        return {};
    return {series->values().begin(), series->values().end()};
}

qsizetype merge(SampleStore &store, const QString &key, const Times &t, const Values &v)
{
    return store.merge(key, {}, t, v);
}

TimeRange spanOf(const QSignalSpy &spy, qsizetype index)
{
    return spy.at(index).at(1).value<TimeRange>();
}

// The fastest of a few runs, in ns: noise from other processes only ever adds time.
template<typename Work> qint64 fastestNs(Work work, int runs = 3)
{
    qint64 best = std::numeric_limits<qint64>::max();
    for (int run = 0; run < runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        work();
        const auto elapsed = std::chrono::steady_clock::now() - start;
        best = std::min<qint64>(best, std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
    }
    return std::max<qint64>(best, 1);
}

} // namespace

TEST(SampleStore, CreatesSeriesWithLabelsOnFirstMerge)
{
    SampleStore store;
    EXPECT_FALSE(store.contains(QStringLiteral("a")));
    EXPECT_EQ(store.series(QStringLiteral("a")), nullptr);

    const QMap<QString, QString> labels{{QStringLiteral("job"), QStringLiteral("prometheus")}};
    EXPECT_EQ(store.merge(QStringLiteral("a"), labels, Times{1000, 2000}, Values{1, 2}), 2);
    ASSERT_TRUE(store.contains(QStringLiteral("a")));
    const auto *series = store.series(QStringLiteral("a"));
    ASSERT_NE(series, nullptr);
    EXPECT_EQ(series->key(), QStringLiteral("a"));
    EXPECT_EQ(series->labels(), labels);
    EXPECT_EQ(times(store, QStringLiteral("a")), (Times{1000, 2000}));
    EXPECT_EQ(values(store, QStringLiteral("a")), (Values{1, 2}));

    // Later merges without labels keep them; with labels replace them.
    merge(store, QStringLiteral("a"), {3000}, {3});
    EXPECT_EQ(store.series(QStringLiteral("a"))->labels(), labels);
    const QMap<QString, QString> relabelled{{QStringLiteral("job"), QStringLiteral("other")}};
    store.merge(QStringLiteral("a"), relabelled, Times{}, Values{});
    EXPECT_EQ(store.series(QStringLiteral("a"))->labels(), relabelled);
}

TEST(SampleStore, EmptyBatchCreatesSeriesWithoutSignal)
{
    SampleStore store;
    QSignalSpy spy(&store, &SampleStore::samplesChanged);
    EXPECT_EQ(merge(store, QStringLiteral("empty"), {}, {}), 0);
    EXPECT_TRUE(store.contains(QStringLiteral("empty")));
    EXPECT_TRUE(store.series(QStringLiteral("empty"))->isEmpty());
    EXPECT_EQ(store.newestTimestamp(QStringLiteral("empty")), std::nullopt);
    EXPECT_EQ(spy.count(), 0);
}

TEST(SampleStore, AppendAfterNewestIsAppended)
{
    SampleStore store;
    merge(store, QStringLiteral("s"), {1000, 2000, 3000}, {1, 2, 3});
    EXPECT_EQ(merge(store, QStringLiteral("s"), {4000, 5000}, {4, 5}), 2);
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{1000, 2000, 3000, 4000, 5000}));
    EXPECT_EQ(values(store, QStringLiteral("s")), (Values{1, 2, 3, 4, 5}));
    EXPECT_EQ(store.newestTimestamp(QStringLiteral("s")), 5000);
}

TEST(SampleStore, OverlappingMergeHasNoDuplicates)
{
    SampleStore store;
    merge(store, QStringLiteral("s"), {1000, 2000, 3000, 4000}, {1, 2, 3, 4});
    // An incremental poll re-fetches the last two samples and brings two new ones.
    EXPECT_EQ(merge(store, QStringLiteral("s"), {3000, 4000, 5000, 6000}, {3, 4, 5, 6}), 2);
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{1000, 2000, 3000, 4000, 5000, 6000}));
    EXPECT_EQ(values(store, QStringLiteral("s")), (Values{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(store.sampleCount(), 6);
}

TEST(SampleStore, NewValueWinsAtEqualTimestamp)
{
    SampleStore store;
    merge(store, QStringLiteral("s"), {1000, 2000, 3000}, {1, 2, 30}); // 30: provisional
    EXPECT_EQ(merge(store, QStringLiteral("s"), {3000}, {3}), 0);      // final value
    EXPECT_EQ(values(store, QStringLiteral("s")), (Values{1, 2, 3}));
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{1000, 2000, 3000}));
}

TEST(SampleStore, BackfillInsertsInOrder)
{
    SampleStore store;
    merge(store, QStringLiteral("s"), {1000, 4000, 7000}, {1, 4, 7});
    // Interleaved, before, between and replacing, in one batch.
    EXPECT_EQ(merge(store, QStringLiteral("s"), {0, 2000, 4000, 5000, 8000}, {0, 2, 40, 5, 8}), 4);
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{0, 1000, 2000, 4000, 5000, 7000, 8000}));
    EXPECT_EQ(values(store, QStringLiteral("s")), (Values{0, 1, 2, 40, 5, 7, 8}));
}

TEST(SampleStore, UnsortedBatchIsSortedAndLastDuplicateInBatchWins)
{
    SampleStore store;
    EXPECT_EQ(merge(store, QStringLiteral("s"), {3000, 1000, 2000, 1000}, {3, 1, 2, 10}), 3);
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{1000, 2000, 3000}));
    EXPECT_EQ(values(store, QStringLiteral("s")), (Values{10, 2, 3}));

    // Unsorted and overlapping at once.
    EXPECT_EQ(merge(store, QStringLiteral("s"), {5000, 2000, 4000}, {5, 20, 4}), 2);
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{1000, 2000, 3000, 4000, 5000}));
    EXPECT_EQ(values(store, QStringLiteral("s")), (Values{10, 20, 3, 4, 5}));
}

TEST(SampleStore, MismatchedSpansUseTheShorter)
{
    SampleStore store;
    EXPECT_EQ(merge(store, QStringLiteral("s"), {1000, 2000, 3000}, {1, 2}), 2);
    EXPECT_EQ(times(store, QStringLiteral("s")), (Times{1000, 2000}));
}

TEST(SampleStore, NonFiniteValuesAreKept)
{
    SampleStore store;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    merge(store, QStringLiteral("s"), {1000, 2000, 3000}, {nan, inf, -inf});
    const auto v = values(store, QStringLiteral("s"));
    ASSERT_EQ(v.size(), 3u);
    EXPECT_TRUE(std::isnan(v[0]));
    EXPECT_EQ(v[1], inf);
    EXPECT_EQ(v[2], -inf);
}

TEST(SampleStore, RetentionDropsOldSamples)
{
    SampleStore store;
    store.setRetentionMs(10'000);
    Times t;
    Values v;
    for (int i = 0; i <= 100; ++i) {
        t.push_back(i * 1000);
        v.push_back(i);
    }
    merge(store, QStringLiteral("s"), t, v);
    // Kept: newest (100 s) back to 90 s, inclusive.
    EXPECT_EQ(store.series(QStringLiteral("s"))->size(), 11u);
    EXPECT_EQ(times(store, QStringLiteral("s")).front(), 90'000);
    EXPECT_EQ(values(store, QStringLiteral("s")).front(), 90);

    // Sample by sample, the window moves along and stays bounded.
    for (int i = 101; i <= 1000; ++i)
        merge(store, QStringLiteral("s"), {i * 1000}, {double(i)});
    EXPECT_EQ(store.series(QStringLiteral("s"))->size(), 11u);
    EXPECT_EQ(times(store, QStringLiteral("s")).front(), 990'000);
    EXPECT_EQ(times(store, QStringLiteral("s")).back(), 1'000'000);

    // A backfill older than the retention span is dropped right away.
    merge(store, QStringLiteral("s"), {5000}, {5});
    EXPECT_EQ(times(store, QStringLiteral("s")).front(), 990'000);
    EXPECT_EQ(store.sampleCount(), 11);

    // A backfill inside the span is merged in order after expired samples were dropped.
    EXPECT_EQ(merge(store, QStringLiteral("s"), {995'500}, {995.5}), 1);
    const auto kept = times(store, QStringLiteral("s"));
    EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
    EXPECT_EQ(kept.size(), 12u);
}

TEST(SampleStore, RetentionIsPerSeriesFromItsNewestSample)
{
    SampleStore store;
    store.setRetentionMs(5000);
    merge(store, QStringLiteral("old"), {0, 1000, 2000}, {0, 1, 2});
    merge(store, QStringLiteral("new"), {100'000, 101'000}, {1, 2});
    EXPECT_EQ(store.series(QStringLiteral("old"))->size(), 3u); // not measured from "new"
}

TEST(SampleStore, ShorterRetentionAnnouncesTheDroppedSpan)
{
    SampleStore store;
    store.setRetentionMs(0); // unbounded
    Times t;
    Values v;
    for (int i = 0; i < 100; ++i) {
        t.push_back(i * 1000);
        v.push_back(i);
    }
    merge(store, QStringLiteral("s"), t, v);
    EXPECT_EQ(store.sampleCount(), 100);

    QSignalSpy spy(&store, &SampleStore::samplesChanged);
    store.setRetentionMs(9000);
    EXPECT_EQ(store.retentionMs(), 9000);
    EXPECT_EQ(store.sampleCount(), 10);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), QStringLiteral("s"));
    EXPECT_EQ(spanOf(spy, 0), (TimeRange{0, 89'000}));

    store.setRetentionMs(-5);
    EXPECT_EQ(store.retentionMs(), 0);
}

TEST(SampleStore, IndexRangeEdgeCases)
{
    SampleStore store;
    using Range = std::pair<std::size_t, std::size_t>;
    EXPECT_EQ(store.indexRange(QStringLiteral("unknown"), {0, 10}), (Range{0, 0}));

    merge(store, QStringLiteral("s"), {1000, 2000, 3000, 4000}, {1, 2, 3, 4});
    const QString s = QStringLiteral("s");
    EXPECT_EQ(store.indexRange(s, {1000, 4000}), (Range{0, 4})); // inclusive both ends
    EXPECT_EQ(store.indexRange(s, {1001, 3999}), (Range{1, 3}));
    EXPECT_EQ(store.indexRange(s, {2000, 2000}), (Range{1, 2})); // a single instant
    EXPECT_EQ(store.indexRange(s, {2500, 2600}), (Range{2, 2})); // between samples
    EXPECT_EQ(store.indexRange(s, {0, 999}), (Range{0, 0}));     // before all
    EXPECT_EQ(store.indexRange(s, {4001, 9000}), (Range{4, 4})); // after all
    EXPECT_EQ(store.indexRange(s, {0, 100'000}), (Range{0, 4})); // around all
    EXPECT_EQ(store.indexRange(s, {3000, 2000}), (Range{2, 2})); // empty range
    EXPECT_EQ(store.indexRange(s, {std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max()}),
              (Range{0, 4}));

    // Indices are relative to the live samples, also after retention dropped some.
    store.setRetentionMs(2000);
    EXPECT_EQ(times(store, s), (Times{2000, 3000, 4000}));
    EXPECT_EQ(store.indexRange(s, {3000, 3000}), (Range{1, 2}));
    EXPECT_EQ(store.series(s)->indexRange({0, 2500}), (Range{0, 1}));
}

TEST(SampleStore, SignalCarriesKeyAndSpanOncePerMerge)
{
    SampleStore store;
    QSignalSpy spy(&store, &SampleStore::samplesChanged);
    ASSERT_TRUE(spy.isValid());

    merge(store, QStringLiteral("a"), {3000, 1000, 2000}, {3, 1, 2});
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), QStringLiteral("a"));
    EXPECT_EQ(spanOf(spy, 0), (TimeRange{1000, 3000}));

    // Only what changed counts: 3000 is re-fetched unchanged, 4000 and 5000 are new.
    merge(store, QStringLiteral("a"), {3000, 4000, 5000}, {3, 4, 5});
    ASSERT_EQ(spy.count(), 2);
    EXPECT_EQ(spanOf(spy, 1), (TimeRange{4000, 5000}));

    // A replaced value in the middle.
    merge(store, QStringLiteral("a"), {2000}, {20});
    ASSERT_EQ(spy.count(), 3);
    EXPECT_EQ(spanOf(spy, 2), (TimeRange{2000, 2000}));

    // Another series: its own key.
    merge(store, QStringLiteral("b"), {7000}, {7});
    ASSERT_EQ(spy.count(), 4);
    EXPECT_EQ(spy.at(3).at(0).toString(), QStringLiteral("b"));
    EXPECT_EQ(spanOf(spy, 3), (TimeRange{7000, 7000}));
}

TEST(SampleStore, NoSignalWhenNothingChanged)
{
    SampleStore store;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    merge(store, QStringLiteral("a"), {1000, 2000}, {1, nan});
    QSignalSpy spy(&store, &SampleStore::samplesChanged);
    EXPECT_EQ(merge(store, QStringLiteral("a"), {1000, 2000}, {1, nan}), 0);
    EXPECT_EQ(spy.count(), 0);
}

TEST(SampleStore, AnyMixOfMergesHoldsWhatAMapOfTheSamplesWouldHold)
{
    // Batches before, inside, across and after what is stored, with repeated timestamps:
    // the store must hold exactly what merging sample by sample into a map gives, in order.
    std::mt19937 random(20261130);
    SampleStore store;
    store.setRetentionMs(0);
    std::map<qint64, double> expected;
    for (int round = 0; round < 400; ++round) {
        const qint64 start = std::uniform_int_distribution<qint64>(0, 2000)(random);
        const qint64 count = std::uniform_int_distribution<qint64>(1, 120)(random);
        const qint64 stride = std::uniform_int_distribution<qint64>(1, 4)(random);
        Times t;
        Values v;
        for (qint64 k = 0; k < count; ++k) {
            t.push_back(start + k * stride);
            v.push_back(double(round * 1000 + k));
        }
        merge(store, QStringLiteral("s"), t, v);
        for (std::size_t k = 0; k < t.size(); ++k)
            expected[t[k]] = v[k];
        ASSERT_EQ(times(store, QStringLiteral("s")).size(), expected.size()) << "round " << round;
    }
    Times expectedTimes;
    Values expectedValues;
    for (const auto &[time, value] : expected) {
        expectedTimes.push_back(time);
        expectedValues.push_back(value);
    }
    EXPECT_EQ(times(store, QStringLiteral("s")), expectedTimes);
    EXPECT_EQ(values(store, QStringLiteral("s")), expectedValues);
}

TEST(SampleStore, AReaderOnAnotherThreadNeverSeesAHalfDoneChange)
{
    // The charts' render jobs read series in place on worker threads while the UI thread
    // merges polls, backfill chunks and retention into the same series. Under the read lock
    // a reader must see each series whole: sorted, and every value the one written with its
    // timestamp (value = timestamp in seconds), however the storage moved meanwhile.
    SampleStore store;
    store.setRetentionMs(600'000);
    const QString key = QStringLiteral("s");
    std::atomic<bool> done{false};
    std::atomic<int> reads{0};
    std::atomic<int> torn{0};
    std::thread reader([&] {
        while (!done.load()) {
            const QReadLocker locked = store.readLock();
            const SampleStore::Series *series = store.series(key);
            if (!series)
                continue;
            const auto times = series->timestampsMs();
            const auto values = series->values();
            for (std::size_t i = 0; i < times.size(); ++i) {
                if (values[i] != double(times[i] / 1000) || (i > 0 && times[i] <= times[i - 1]))
                    ++torn;
            }
            ++reads;
        }
    });
    // Appends, overlapping re-fetches, chunks merged into the middle, retention: every kind
    // of change, until the reader has read a good many times (bounded, never a fixed sleep).
    Times t;
    Values v;
    qint64 newest = 0;
    for (int round = 0; round < 4000 && (round < 400 || reads.load() < 200); ++round) {
        t.clear();
        v.clear();
        const qint64 from = round % 7 == 0 ? std::max<qint64>(0, newest - 300) : std::max<qint64>(0, newest - 2);
        for (qint64 s = from; s <= newest + 3; s += (round % 7 == 0 ? 2 : 1)) {
            t.push_back(s * 1000);
            v.push_back(double(s));
        }
        merge(store, key, t, v);
        newest += 3;
        if (round % 500 == 499)
            store.remove(key);
    }
    done = true;
    reader.join();
    EXPECT_GT(reads.load(), 0);
    EXPECT_EQ(torn.load(), 0) << "a reader saw a series in the middle of a change";
}

TEST(SampleStore, KeysRemoveAndClear)
{
    SampleStore store;
    merge(store, QStringLiteral("job/b"), {1}, {1});
    merge(store, QStringLiteral("job/a"), {1}, {1});
    merge(store, QStringLiteral("other"), {1, 2}, {1, 2});
    EXPECT_EQ(store.keys(), (QStringList{QStringLiteral("job/a"), QStringLiteral("job/b"), QStringLiteral("other")}));
    EXPECT_EQ(store.keysWithPrefix(QStringLiteral("job/")),
              (QStringList{QStringLiteral("job/a"), QStringLiteral("job/b")}));
    EXPECT_TRUE(store.keysWithPrefix(QStringLiteral("zzz")).isEmpty());
    EXPECT_EQ(store.sampleCount(), 4);

    // Pointers survive merges into other series.
    const auto *other = store.series(QStringLiteral("other"));
    for (int i = 0; i < 100; ++i)
        merge(store, QStringLiteral("new%1").arg(i), {1}, {1});
    EXPECT_EQ(store.series(QStringLiteral("other")), other);

    QSignalSpy removed(&store, &SampleStore::seriesRemoved);
    store.remove(other->key()); // a reference into the store itself
    ASSERT_EQ(removed.count(), 1);
    EXPECT_EQ(removed.at(0).at(0).toString(), QStringLiteral("other"));
    EXPECT_FALSE(store.contains(QStringLiteral("other")));
    store.remove(QStringLiteral("other"));
    EXPECT_EQ(removed.count(), 1);

    QSignalSpy cleared(&store, &SampleStore::cleared);
    store.clear();
    EXPECT_EQ(cleared.count(), 1);
    EXPECT_TRUE(store.keys().isEmpty());
    EXPECT_EQ(store.sampleCount(), 0);
}

TEST(SampleStore, EightHourDayOfFortySeries)
{
    // The quality bar: 8 h at 1 s × 40 series, delivered as 2 s polls that re-fetch the last
    // sample (as incremental polling does).
    SampleStore store;
    constexpr int kSeries = 40;
    constexpr qint64 kSeconds = 8 * 3600;
    const qint64 t0 = 1'700'000'000'000;
    QStringList keys;
    for (int k = 0; k < kSeries; ++k)
        keys.append(QStringLiteral("series%1").arg(k));
    Times t;
    Values v;
    for (qint64 s = 0; s < kSeconds; s += 2) {
        for (int k = 0; k < kSeries; ++k) {
            t.clear();
            v.clear();
            for (qint64 i = std::max<qint64>(0, s - 1); i < s + 2; ++i) {
                t.push_back(t0 + i * 1000);
                v.push_back(double(i + k));
            }
            merge(store, keys[k], t, v);
        }
    }
    EXPECT_EQ(store.sampleCount(), kSeries * kSeconds);
    const auto *series = store.series(QStringLiteral("series7"));
    ASSERT_NE(series, nullptr);
    EXPECT_EQ(series->values().back(), double(kSeconds - 1 + 7));
    const auto stored = series->timestampsMs();
    EXPECT_EQ(std::adjacent_find(stored.begin(), stored.end(), std::greater_equal<>()), stored.end());
}

TEST(SampleStore, ABackfilledDayTakesLittleMoreThanItsSamples)
{
    // The poller loads a long window coarse-to-fine: a coarse pass, then chunks of the raw
    // samples merged into the middle of the series, newest first, while live polls append.
    // std::vector's doubling left such a series with up to twice the room it needed; the
    // store grows by an eighth, so a day of 8 h at 1 s stays near 16 bytes per sample.
    SampleStore store;
    constexpr qint64 kSeconds = 8 * 3600;
    constexpr qint64 kChunk = 11'000;
    const qint64 t0 = 1'700'000'000'000;
    for (int k = 0; k < 4; ++k) {
        const QString key = QStringLiteral("series%1").arg(k);
        Times t;
        Values v;
        for (qint64 s = 30 + k; s < kSeconds; s += 60) { // the coarse step, off the fine grid
            t.push_back(t0 + s * 1000 + 500);
            v.push_back(double(s));
        }
        merge(store, key, t, v);
        for (qint64 end = kSeconds; end > 0; end -= kChunk) {
            t.clear();
            v.clear();
            for (qint64 s = std::max<qint64>(0, end - kChunk); s < end; ++s) {
                t.push_back(t0 + s * 1000);
                v.push_back(double(s));
            }
            merge(store, key, t, v);
            const Times live{t0 + (kSeconds + (kSeconds - end) / kChunk) * 1000};
            merge(store, key, live, Values{1.0});
        }
    }
    const double perSample = double(store.bytesReserved()) / double(store.sampleCount());
    RecordProperty("bytes_per_sample", QString::number(perSample, 'f', 2).toStdString());
    EXPECT_GE(perSample, 16.0);
    EXPECT_LE(perSample, 16.0 * 1.15) << "the columns hold " << perSample << " bytes per sample";
}

TEST(SampleStore, AppendsStayLinear)
{
    // No absolute timing: the ratio between 10× the work and 1× the work tells linear (≈10)
    // from quadratic (≈100). Retention is set to half the run, so that dropping old samples
    // one by one (a memmove per append if done naively) is covered too.
    auto appendOneByOne = [](int count) {
        SampleStore store;
        store.setRetentionMs(qint64(count) / 2 * 1000);
        for (int i = 0; i < count; ++i) {
            const qint64 t = qint64(i) * 1000;
            const double v = i;
            store.merge(QStringLiteral("s"), {}, std::span<const qint64>(&t, 1), std::span<const double>(&v, 1));
        }
        EXPECT_EQ(store.sampleCount(), count / 2 + 1);
    };
    const qint64 small = fastestNs([&] { appendOneByOne(100'000); });
    const qint64 large = fastestNs([&] { appendOneByOne(1'000'000); }, 2);
    const double ratio = double(large) / double(small);
    RecordProperty("append_ratio_1M_vs_100k", QString::number(ratio, 'f', 1).toStdString());
    EXPECT_LT(ratio, 35.0) << "1M appends took " << ratio << "× the time of 100k";
}

TEST(SampleStore, OverlappingTailMergesDoNotDependOnSeriesLength)
{
    // Polls that re-fetch the last two samples and bring one new one touch the tail only.
    struct Poller
    {
        SampleStore store;
        qint64 newest = 0;

        explicit Poller(int existing)
        {
            store.setRetentionMs(0);
            Times t(static_cast<std::size_t>(existing));
            Values v(t.size(), 1.0);
            for (std::size_t i = 0; i < t.size(); ++i)
                t[i] = qint64(i) * 1000;
            store.merge(QStringLiteral("s"), {}, t, v);
            newest = t.back();
        }
        void poll(int count)
        {
            for (int i = 0; i < count; ++i) {
                const Times tail{newest - 1000, newest, newest + 1000};
                const Values values{2, 3, 4};
                store.merge(QStringLiteral("s"), {}, tail, values);
                newest += 1000;
            }
        }
    };
    Poller shortSeries(100'000);
    Poller longSeries(1'000'000);
    const qint64 small = fastestNs([&] { shortSeries.poll(5000); }, 5);
    const qint64 large = fastestNs([&] { longSeries.poll(5000); }, 5);
    EXPECT_EQ(longSeries.store.sampleCount(), 1'000'000 + 5 * 5000);
    const double ratio = double(large) / double(small);
    RecordProperty("tail_merge_ratio_1M_vs_100k", QString::number(ratio, 'f', 1).toStdString());
    // O(tail) gives about 1; O(series) would give about 10.
    EXPECT_LT(ratio, 5.0) << "tail merges on 1M samples took " << ratio << "x those on 100k";
}

TEST(SampleStore, RenamingSwapsKeysAtOnceAndKeepsEverySample)
{
    SampleStore store;
    store.merge(QStringLiteral("p0/q0/{a}"), {{QStringLiteral("a"), QStringLiteral("1")}}, std::vector<qint64>{1, 2},
                std::vector<double>{10, 11});
    store.merge(QStringLiteral("p1/q0/{b}"), {}, std::vector<qint64>{1}, std::vector<double>{20});
    store.merge(QStringLiteral("derived/p0/q1"), {}, std::vector<qint64>{1}, std::vector<double>{30});
    store.merge(QStringLiteral("derived/p0/q10"), {}, std::vector<qint64>{1}, std::vector<double>{40});
    const SampleStore::Series *first = store.series(QStringLiteral("p0/q0/{a}"));
    std::vector<std::pair<QString, QString>> seen;
    QObject::connect(&store, &SampleStore::seriesRenamed,
                     [&](const std::vector<std::pair<QString, QString>> &moved) { seen = moved; });

    store.rename({{QStringLiteral("p0/q0/"), QStringLiteral("p1/q0/")},
                  {QStringLiteral("p1/q0/"), QStringLiteral("p0/q0/")},
                  {QStringLiteral("derived/p0/q1"), QStringLiteral("derived/p1/q1")}});

    ASSERT_TRUE(store.contains(QStringLiteral("p1/q0/{a}")));
    EXPECT_EQ(store.series(QStringLiteral("p1/q0/{a}")), first) << "the samples were not copied";
    EXPECT_EQ(first->key(), QStringLiteral("p1/q0/{a}"));
    EXPECT_EQ(first->labels().value(QStringLiteral("a")), QStringLiteral("1"));
    EXPECT_EQ(first->size(), 2u);
    EXPECT_EQ(store.series(QStringLiteral("p0/q0/{b}"))->values().front(), 20);
    EXPECT_EQ(store.series(QStringLiteral("derived/p1/q1"))->values().front(), 30);
    EXPECT_TRUE(store.contains(QStringLiteral("derived/p0/q10"))) << "an exact key is no prefix";
    EXPECT_EQ(seen.size(), 3u) << "one signal with every key moved";
}
