// SPDX-License-Identifier: GPL-3.0-or-later
// What gets recorded when the poller re-fetches: only what is new or changed — also after a
// zoom-out brought the whole history again at another step.
#include "session/sessionchangefilter.h"
#include "store/samplestore.h"

#include <QSignalSpy>
#include <gtest/gtest.h>
#include <limits>

namespace {

// A store whose changes run through one filter, the way the recorder uses it.
struct Recording
{
    SampleStore store;
    SessionChangeFilter filter;
    std::vector<qint64> times;
    std::vector<double> values;

    Recording()
    {
        QObject::connect(&store, &SampleStore::samplesChanged, [this](const QString &key, const TimeRange &span) {
            const SampleStore::Series *series = store.series(key);
            filter.select(series->timestampsMs(), series->values(), span, times, values);
        });
    }
    void merge(std::vector<qint64> t, std::vector<double> v) { store.merge(QStringLiteral("s"), {}, t, v); }
    void reset()
    {
        times.clear();
        values.clear();
    }
};

} // namespace

TEST(SessionChangeFilter, APollWithOverlapRecordsOnlyTheNewAndTheChanged)
{
    Recording r;
    r.merge({1000, 2000, 3000}, {1, 2, 3});
    EXPECT_EQ(r.times, (std::vector<qint64>{1000, 2000, 3000}));
    r.reset();
    // The next poll re-fetches 2000–3000; 3000 was provisional and changed, 4000 is new.
    r.merge({2000, 3000, 4000}, {2, 3.5, 4});
    EXPECT_EQ(r.times, (std::vector<qint64>{3000, 4000}));
    EXPECT_EQ(r.values, (std::vector<double>{3.5, 4}));
    r.reset();
    // Identical re-fetch: the store does not even signal; nothing recorded.
    r.merge({3000, 4000}, {3.5, 4});
    EXPECT_TRUE(r.times.empty());
}

TEST(SessionChangeFilter, AZoomOutOverRecordedHistoryRecordsOnlyWhatIsNew)
{
    Recording r;
    // An hour at 1 s, recorded poll by poll.
    for (qint64 t = 0; t < 3600; t += 5) {
        std::vector<qint64> times;
        std::vector<double> values;
        for (qint64 s = std::max<qint64>(0, t - 2); s < t + 5; ++s) {
            times.push_back(s * 1000);
            values.push_back(double(s % 7));
        }
        r.merge(times, values);
    }
    EXPECT_EQ(r.times.size(), 3600u) << "every sample once";
    r.reset();

    // Zoomed out: the same hour again at 30 s, same values where they coincide, plus one new
    // sample in a gap and one that changed far back.
    std::vector<qint64> coarse;
    std::vector<double> coarseValues;
    for (qint64 s = 0; s < 3600; s += 30) {
        coarse.push_back(s * 1000);
        coarseValues.push_back(double(s % 7));
    }
    coarse.push_back(1500); // between two 1 s samples
    coarseValues.push_back(42);
    coarseValues[10] = -1; // 300 s: a different value
    r.merge(coarse, coarseValues);
    // Two minutes rewritten (the one with the new sample, the one with the changed value),
    // nothing else: 60 + 61 samples, not the hour.
    EXPECT_EQ(r.times.size(), 121u);
    EXPECT_TRUE(std::is_sorted(r.times.begin(), r.times.end()));
    EXPECT_NE(std::find(r.times.begin(), r.times.end(), 1500), r.times.end());
    EXPECT_NE(std::find(r.times.begin(), r.times.end(), 300'000), r.times.end());
    r.reset();
    r.merge(coarse, coarseValues);
    EXPECT_TRUE(r.times.empty()) << "the same zoom again records nothing";
}

TEST(SessionChangeFilter, ForgottenSpansAreRecordedAgain)
{
    Recording r;
    std::vector<qint64> times;
    std::vector<double> values;
    for (qint64 s = 0; s < 2000; ++s) {
        times.push_back(s * 1000);
        values.push_back(double(s));
    }
    r.merge(times, values);
    r.reset();
    const SampleStore::Series *series = r.store.series(QStringLiteral("s"));
    const TimeRange lost{100'000, std::numeric_limits<qint64>::max()};
    r.filter.forget(lost);
    r.filter.select(series->timestampsMs(), series->values(), lost, r.times, r.values);
    // From the start of the forgotten minute (60 s) to the end.
    ASSERT_FALSE(r.times.empty());
    EXPECT_LE(r.times.front(), 100'000);
    EXPECT_EQ(r.times.back(), 1'999'000);
    EXPECT_GE(r.times.size(), 1900u);
}
