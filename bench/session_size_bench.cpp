// SPDX-License-Identifier: GPL-3.0-or-later
// How big a session file gets: a Chaos Day (8 h, 40 series, a sample a second) recorded
// through the real path — the poller's merges into the store (with its overlap), the
// recorder's change filter, the writer thread with one flush per poll — and the file's size
// per recorded sample. Reported per kind of series, because the value encoding costs what
// the values' entropy is: a flat set-point line is nearly free, an integer gauge costs a
// few bytes, a full-precision noisy double costs its eight.
//
// Counters: bytes_per_sample (file size / samples on screen), file_MB, samples.
#include "annotations/annotationmodel.h"
#include "benchdata.h"
#include "session/format/sessionreader.h"
#include "session/sessionrecorder.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <benchmark/benchmark.h>
#include <cmath>
#include <functional>

namespace {

constexpr int kSeries = BenchData::kSeries;
constexpr int kSeconds = BenchData::kSamples;

// The value of a series at a second. Kinds, as on a load-test dashboard:
enum class Kind
{
    SetPoint, // a commanded rate or limit: flat, changed a few times a day
    Gauge,    // pool leased, pending, in flight, queue length: integers that wander
    Rate,     // rate(counter[10s]) of integer counters: tenths, not exact in binary
    Noisy,    // full-precision doubles (quantiles, ratios): the shared bench data
};

using ValueAt = std::function<double(int series, int second)>;

ValueAt valuesOf(Kind kind)
{
    switch (kind) {
    case Kind::SetPoint:
        return [](int series, int second) { return 100.0 * (1 + series % 5) + 50.0 * (second / 3600); };
    case Kind::Gauge:
        return [](int series, int second) {
            // A deterministic integer walk: a level plus a slow wave plus ±3 jitter.
            const unsigned h = unsigned(second) * 2654435761u ^ unsigned(series) * 40503u;
            return std::round(20 + 10 * std::sin(second / 600.0 + series)) + double(int(h >> 29) - 3);
        };
    case Kind::Rate:
        return [](int series, int second) {
            const unsigned h = unsigned(second) * 2246822519u ^ unsigned(series) * 3266489917u;
            const int completedIn10s = 800 + int(h % 41) - 20 + int(100 * std::sin(second / 900.0 + series));
            return completedIn10s / 10.0;
        };
    case Kind::Noisy:
        return [](int series, int second) { return BenchData::day()[std::size_t(series)].values[std::size_t(second)]; };
    }
    return {};
}

struct Outcome
{
    qint64 fileBytes = 0;
    qint64 samples = 0;
};

// Records `seconds` of `kinds` (one per series) polled every `refreshSeconds`, each poll
// re-fetching the two previous steps as the poller does.
Outcome record(const QString &path, const std::vector<Kind> &kinds, int seconds, int refreshSeconds)
{
    SampleStore store;
    store.setRetentionMs(0);
    AnnotationModel annotations;
    std::vector<ValueAt> values;
    for (Kind kind : kinds)
        values.push_back(valuesOf(kind));
    {
        SessionRecorder recorder(&store, &annotations);
        SessionWriter::Options options;
        options.flushIntervalMs = 60'000; // flushed by hand below, once per poll
        options.syncIntervalMs = 3'600'000;
        recorder.setWriterOptions(options);
        if (recorder.start(path, {}, DashboardDefinition{}, 300'000))
            return {};
        std::vector<qint64> times;
        std::vector<double> batch;
        for (int now = refreshSeconds; now <= seconds; now += refreshSeconds) {
            for (std::size_t s = 0; s < kinds.size(); ++s) {
                times.clear();
                batch.clear();
                for (int t = std::max(0, now - refreshSeconds - 2); t < now; ++t) {
                    times.push_back(BenchData::kStartMs + qint64(t) * 1000);
                    batch.push_back(values[s](int(s), t));
                }
                store.merge(SeriesKey::ofQuery(int(s), 0, {}, QStringLiteral("{}")), {}, times, batch);
            }
            recorder.flush(); // one write per poll, as live
        }
        recorder.stop();
    }
    return {QFileInfo(path).size(), store.sampleCount()};
}

void report(benchmark::State &state, const Outcome &outcome)
{
    state.counters["bytes_per_sample"] = outcome.samples ? double(outcome.fileBytes) / double(outcome.samples) : 0;
    state.counters["file_MB"] = double(outcome.fileBytes) / 1e6;
    state.counters["samples"] = double(outcome.samples);
}

// One kind for all 40 series; range(0) = kind, range(1) = refresh seconds.
void BM_SessionSizeByKind(benchmark::State &state)
{
    const std::vector<Kind> kinds(kSeries, Kind(state.range(0)));
    QTemporaryDir dir;
    Outcome outcome;
    for (auto _ : state)
        outcome = record(dir.filePath(QStringLiteral("kind.chaoscope")), kinds, kSeconds, int(state.range(1)));
    report(state, outcome);
}

// A dashboard's mix: 8 set-points, 16 gauges, 12 rates, 4 noisy (latency quantiles).
void BM_SessionSizeDashboardMix(benchmark::State &state)
{
    std::vector<Kind> kinds;
    kinds.insert(kinds.end(), 8, Kind::SetPoint);
    kinds.insert(kinds.end(), 16, Kind::Gauge);
    kinds.insert(kinds.end(), 12, Kind::Rate);
    kinds.insert(kinds.end(), 4, Kind::Noisy);
    QTemporaryDir dir;
    Outcome outcome;
    for (auto _ : state)
        outcome = record(dir.filePath(QStringLiteral("mix.chaoscope")), kinds, kSeconds, int(state.range(0)));
    report(state, outcome);
}

// Reading the day back: what opening the recording costs.
void BM_SessionOpenDashboardMix(benchmark::State &state)
{
    std::vector<Kind> kinds;
    kinds.insert(kinds.end(), 8, Kind::SetPoint);
    kinds.insert(kinds.end(), 16, Kind::Gauge);
    kinds.insert(kinds.end(), 12, Kind::Rate);
    kinds.insert(kinds.end(), 4, Kind::Noisy);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("open.chaoscope"));
    const Outcome outcome = record(path, kinds, kSeconds, 1);
    qint64 samples = 0;
    for (auto _ : state) {
        const Result<SessionContents> contents = SessionReader::readFile(path);
        samples = contents ? contents->sampleCount() : 0;
        benchmark::DoNotOptimize(samples);
    }
    state.counters["samples"] = double(samples);
    state.SetBytesProcessed(qint64(state.iterations()) * outcome.fileBytes);
}

} // namespace

BENCHMARK(BM_SessionSizeByKind)
    ->ArgNames({"kind", "refresh_s"})
    ->Args({int(Kind::SetPoint), 1})
    ->Args({int(Kind::Gauge), 1})
    ->Args({int(Kind::Rate), 1})
    ->Args({int(Kind::Noisy), 1})
    ->Args({int(Kind::Noisy), 5})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_SessionSizeDashboardMix)->ArgName("refresh_s")->Arg(1)->Arg(5)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_SessionOpenDashboardMix)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
