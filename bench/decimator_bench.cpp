// SPDX-License-Identifier: GPL-3.0-or-later
// Decimation throughput against the memory-bound limit: M4 over a Chaos Day (40 series,
// 8 h at 1 s, 1600 px) next to a plain sum that reads the same timestamps and values once.
// Both report bytes/s of input (16 bytes a sample); the ratio is how close M4 comes to
// reading the data as fast as the memory delivers it. The day (18 MB) may fit a large last-
// level cache, where a sum is no longer memory-bound; the "cold" pair evicts the caches
// before every pass, so both read from memory as after a fetch. Also: what the
// per-zoom-level cache saves on a live tick.
#include "benchdata.h"
#include "store/decimator.h"

#include <benchmark/benchmark.h>
#include <numeric>

namespace {

const TimeRange kDay{BenchData::kStartMs, BenchData::kStartMs + BenchData::kDayMs - BenchData::kStepMs};
constexpr int kPlotWidth = BenchData::kWidth - 128; // the chart's gutters

void setBytes(benchmark::State &state)
{
    const auto bytes = qint64(BenchData::kSeries) * BenchData::kSamples * qint64(sizeof(qint64) + sizeof(double));
    state.SetBytesProcessed(qint64(state.iterations()) * bytes);
    state.counters["samples"] = double(BenchData::kSeries) * BenchData::kSamples;
}

void BM_PlainSum(benchmark::State &state)
{
    const auto &day = BenchData::day();
    for (auto _ : state) {
        for (const auto &series : day) {
            qint64 t = 0;
            double v = 0;
            for (std::size_t i = 0; i < series.values.size(); ++i) {
                t += series.timestampsMs[i];
                v += series.values[i];
            }
            benchmark::DoNotOptimize(t);
            benchmark::DoNotOptimize(v);
        }
    }
    setBytes(state);
}

// Writes a buffer larger than any cache, so the next pass reads the day from memory.
void evictCaches()
{
    static std::vector<char> buffer(128u << 20);
    static char round = 0;
    ++round;
    for (std::size_t i = 0; i < buffer.size(); i += 64)
        buffer[i] = round;
    benchmark::ClobberMemory();
}

template<typename Pass> void cold(benchmark::State &state, Pass pass)
{
    for (auto _ : state) {
        state.PauseTiming();
        evictCaches();
        state.ResumeTiming();
        pass();
    }
    setBytes(state);
}

void BM_PlainSum_Cold(benchmark::State &state)
{
    cold(state, [] {
        for (const auto &series : BenchData::day()) {
            qint64 t = 0;
            double v = 0;
            for (std::size_t i = 0; i < series.values.size(); ++i) {
                t += series.timestampsMs[i];
                v += series.values[i];
            }
            benchmark::DoNotOptimize(t);
            benchmark::DoNotOptimize(v);
        }
    });
}

void BM_M4_Cold(benchmark::State &state)
{
    const qint64 columnMs = Decimator::columnMsFor(kDay, kPlotWidth);
    cold(state, [columnMs] {
        for (const auto &series : BenchData::day())
            benchmark::DoNotOptimize(
                Decimator::m4(series.timestampsMs, series.values, kDay, columnMs, 2500).values.data());
    });
}

void BM_M4(benchmark::State &state)
{
    const auto &day = BenchData::day();
    const qint64 columnMs = Decimator::columnMsFor(kDay, kPlotWidth);
    std::size_t points = 0;
    for (auto _ : state) {
        points = 0;
        for (const auto &series : day) {
            const auto decimated = Decimator::m4(series.timestampsMs, series.values, kDay, columnMs, 2500);
            points += decimated.values.size();
            benchmark::DoNotOptimize(decimated.values.data());
        }
    }
    setBytes(state);
    state.counters["points_out"] = double(points);
}

// A live tick over the whole day: the window moves by a second, one column changes.
template<bool Cached> void liveTick(benchmark::State &state)
{
    auto day = BenchData::day(); // a copy that grows
    const qint64 columnMs = Decimator::columnMsFor(kDay, kPlotWidth);
    std::vector<Decimator::M4Cache> caches(day.size());
    qint64 now = kDay.endMs;
    for (std::size_t s = 0; s < day.size(); ++s)
        caches[s].m4(day[s].timestampsMs, day[s].values, {now - BenchData::kDayMs, now}, columnMs, 2500);
    qint64 tick = 0;
    for (auto _ : state) {
        now += BenchData::kStepMs;
        ++tick;
        for (std::size_t s = 0; s < day.size(); ++s) {
            day[s].timestampsMs.push_back(now);
            day[s].values.push_back(BenchData::nextValue(int(s), tick));
            const TimeRange range{now - BenchData::kDayMs, now};
            if constexpr (Cached) {
                caches[s].invalidate({now, now});
                benchmark::DoNotOptimize(caches[s].m4(day[s].timestampsMs, day[s].values, range, columnMs, 2500));
            } else {
                benchmark::DoNotOptimize(Decimator::m4(day[s].timestampsMs, day[s].values, range, columnMs, 2500));
            }
        }
    }
}

void BM_M4_LiveTick(benchmark::State &state)
{
    liveTick<false>(state);
}

void BM_M4Cache_LiveTick(benchmark::State &state)
{
    liveTick<true>(state);
}

} // namespace

BENCHMARK(BM_PlainSum)->Name("decimation/plain_sum")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_M4)->Name("decimation/m4")->Unit(benchmark::kMillisecond);
// A fixed count: every pass pays for the eviction outside the clock.
BENCHMARK(BM_PlainSum_Cold)->Name("decimation/cold/plain_sum")->Iterations(12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_M4_Cold)->Name("decimation/cold/m4")->Iterations(12)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_M4_LiveTick)->Name("decimation/live_tick_8h/m4")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_M4Cache_LiveTick)->Name("decimation/live_tick_8h/m4_cache")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
