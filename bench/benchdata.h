// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The data set every benchmark draws: a Chaos Day, 8 h at a 1 s step for 40 series, shaped
// like load-test metrics (a level that wanders, noise, a rare one-scrape spike), generated
// from a fixed seed so that every run and every plotting library gets the same points.

#include <QString>
#include <QtGlobal>
#include <cmath>
#include <random>
#include <vector>

namespace BenchData {

constexpr int kSeries = 40;
constexpr qint64 kStepMs = 1000;
constexpr qint64 kDayMs = 8LL * 3600 * 1000;
constexpr int kSamples = int(kDayMs / kStepMs); // per series
constexpr qint64 kStartMs = 1'700'000'000'000LL - 1'700'000'000'000LL % 3'600'000;
constexpr int kWidth = 1600;
constexpr int kHeight = 1000;

struct Series
{
    std::vector<qint64> timestampsMs;
    std::vector<double> values;
};

inline QString keyOf(int series)
{
    return QStringLiteral("bench/%1").arg(series, 2, 10, QLatin1Char('0'));
}

// One series: a random walk around a level of its own, plus noise and rare spikes.
inline Series makeSeries(int index, int samples = kSamples, qint64 startMs = kStartMs)
{
    std::mt19937_64 random(0x5eed + unsigned(index));
    std::normal_distribution<double> noise(0.0, 1.0);
    std::uniform_int_distribution<int> spike(0, 9999);
    Series s;
    s.timestampsMs.resize(std::size_t(samples));
    s.values.resize(std::size_t(samples));
    const double level = 100.0 + 25.0 * index;
    double walk = 0;
    for (int i = 0; i < samples; ++i) {
        walk = 0.999 * walk + 0.6 * noise(random);
        double v = level + 8.0 * walk + 2.0 * noise(random) + 10.0 * std::sin(i / 900.0 + index);
        if (spike(random) == 0)
            v += 60.0; // one scrape that went wild: decimation must keep it
        s.timestampsMs[std::size_t(i)] = startMs + qint64(i) * kStepMs;
        s.values[std::size_t(i)] = v;
    }
    return s;
}

inline const std::vector<Series> &day()
{
    static const std::vector<Series> data = [] {
        std::vector<Series> all;
        all.reserve(kSeries);
        for (int i = 0; i < kSeries; ++i)
            all.push_back(makeSeries(i));
        return all;
    }();
    return data;
}

// The value of series `index` one step after the day: a live tick's new sample.
inline double nextValue(int index, qint64 tick)
{
    return 100.0 + 25.0 * index + 5.0 * std::sin(double(tick) / 30.0 + index);
}

} // namespace BenchData
