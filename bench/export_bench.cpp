// SPDX-License-Identifier: GPL-3.0-or-later
// Exporting a 6-panel dashboard (6 series each, the Chaos Day data set: 8 h at 1 s, 28,800
// raw samples per series) as a blog picture: PNG at 2× of 1200×675 (2400×1350 pixels,
// encoded) and SVG, over the whole day and over the last 15 minutes. The goal is well under
// a second for the PNG, so that an export never feels like waiting.
#include "benchdata.h"
#include "export/chartexporter.h"
#include "store/samplestore.h"

#include <QApplication>
#include <QBuffer>
#include <benchmark/benchmark.h>

namespace {

constexpr int kPanels = 6;
constexpr int kSeriesPerPanel = 6;

SampleStore &store()
{
    static SampleStore *filled = [] {
        auto *s = new SampleStore;
        s->setRetentionMs(0);
        for (int i = 0; i < kPanels * kSeriesPerPanel; ++i) {
            const BenchData::Series &series = BenchData::day()[std::size_t(i % BenchData::kSeries)];
            s->merge(BenchData::keyOf(i), {}, series.timestampsMs, series.values);
        }
        return s;
    }();
    return *filled;
}

ExportFigure figure(qint64 spanMs)
{
    ExportFigure figure;
    const qint64 end = BenchData::kStartMs + BenchData::kDayMs - BenchData::kStepMs;
    figure.range = {end - spanMs, end};
    figure.columns = 2;
    figure.title = QStringLiteral("Chaos Day");
    figure.timeZone = QTimeZone::utc();
    for (int p = 0; p < kPanels; ++p) {
        ExportFigure::Panel panel{QStringLiteral("Panel %1").arg(p + 1), QStringLiteral("ops/s"), QString(), {}};
        for (int s = 0; s < kSeriesPerPanel; ++s) {
            SeriesDefinition definition;
            definition.query = QStringLiteral("rate(metric_%1_total[1m])").arg(p * kSeriesPerPanel + s);
            panel.series.push_back(
                {BenchData::keyOf(p * kSeriesPerPanel + s), QStringLiteral("series %1").arg(s + 1), definition});
        }
        figure.panels.push_back(panel);
    }
    for (int a = 0; a < 4; ++a) {
        Annotation annotation;
        annotation.id = quint64(a + 1);
        annotation.timeMs = figure.range.startMs + figure.range.length() * (a + 1) / 5;
        annotation.text = QStringLiteral("rate step %1").arg(a + 1);
        annotation.source = Annotation::Source::Action;
        figure.annotations.push_back(annotation);
    }
    return figure;
}

void BM_Png2x(benchmark::State &state)
{
    const ExportFigure f = figure(state.range(0) * 60'000);
    const ChartExporter exporter(store(), ExportTheme::blog());
    for (auto _ : state) {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        exporter.toImage(f, ChartExporter::kDefaultSize, 2).save(&buffer, "PNG");
        benchmark::DoNotOptimize(bytes.size());
    }
}

// The drawing alone, without the PNG encoding.
void BM_Raster2x(benchmark::State &state)
{
    const ExportFigure f = figure(state.range(0) * 60'000);
    const ChartExporter exporter(store(), ExportTheme::blog());
    for (auto _ : state)
        benchmark::DoNotOptimize(exporter.toImage(f, ChartExporter::kDefaultSize, 2).sizeInBytes());
}

void BM_Svg(benchmark::State &state)
{
    const ExportFigure f = figure(state.range(0) * 60'000);
    const ChartExporter exporter(store(), ExportTheme::blog());
    for (auto _ : state)
        benchmark::DoNotOptimize(exporter.toSvg(f).size());
}

} // namespace

// Argument: the span shown, in minutes (a whole day of 8 h, a live window of 15 min).
BENCHMARK(BM_Png2x)->Arg(480)->Arg(15)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_Raster2x)->Arg(480)->Arg(15)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_Svg)->Arg(480)->Arg(15)->Unit(benchmark::kMillisecond)->Iterations(5);

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    store(); // filled before the clock runs
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
