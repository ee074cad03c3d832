// SPDX-License-Identifier: GPL-3.0-or-later
// One Chaos Day (8 h at 1 s, 40 series: 1.15 million samples) drawn offscreen at 1600x1000
// three ways, in one run, all with the same 1.6 px antialiased pen:
//   Raw:        every sample handed to Qt Charts (QLineSeries::replace), the naive way;
//   Chaoscope:  the real TimelineChart over a SampleStore (decimation off the UI thread,
//               the decimated polylines drawn by the chart itself);
//   QCustomPlot: QCustomPlot 2.1 for Qt 6 with its adaptive sampling.
// Scenarios: a full redraw (the time axis moves by one pixel column, so every point is
// mapped again) and a live tick (one new sample per series, 15 min window following it).
// Every measurement ends with the pixels: grab() of the widget. Pending repaints are flushed
// before the clock starts, so each variant pays for exactly one paint.
//
// Chaoscope's chart coalesces store changes with a single-shot timer (one render per frame);
// that wait is idle time, so its time is the work before the timer plus the work from the
// timer's firing to the pixels. The latency including the wait is reported as a counter.
#include "benchdata.h"
#include "chart/timelinechart.h"
#include "dashboard/dashboarddefinition.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLineSeries>
#include <QPixmap>
#include <QTimer>
#include <QValueAxis>
#include <benchmark/benchmark.h>

#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>

namespace {

constexpr qint64 kLiveWindowMs = 15 * 60'000;
// The pen of every variant, antialiased: 1.6 px, about a blog picture's lines (equal pens for
// an honest comparison). BENCH_LINE_WIDTH=1 gives Chaoscope's chart its own 1 px cosmetic pen
// instead (the raster engine's fast path), a what-if row of the table.
constexpr double kPenWidth = 1.6;

QElapsedTimer g_clock;

QColor colorOf(int series)
{
    return QColor::fromHsv(series * 360 / BenchData::kSeries, 200, 190);
}

std::pair<double, double> valueExtent()
{
    double low = 1e300, high = -1e300;
    for (const auto &s : BenchData::day()) {
        const auto [a, b] = std::minmax_element(s.values.begin(), s.values.end());
        low = std::min(low, *a);
        high = std::max(high, *b);
    }
    return {low, high};
}

// Processes what is pending (repaints of the previous measurement) outside the clock.
void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents(QEventLoop::AllEvents);
}

// Saves one picture per variant when BENCH_SAVE_DIR is set, to look at what was measured.
void maybeSave(const QPixmap &pixmap, const char *name)
{
    const QByteArray dir = qgetenv("BENCH_SAVE_DIR");
    static QSet<QString> saved;
    if (dir.isEmpty() || saved.contains(QString::fromLatin1(name)))
        return;
    saved.insert(QString::fromLatin1(name));
    pixmap.save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QString::fromLatin1(name) + QStringLiteral(".png"));
}

// Notes when a single-shot timer of a frame's length (the chart's coalescing timer) fires.
class CoalescingTimerProbe : public QObject
{
public:
    void arm() { m_firedNs = -1; }
    qint64 firedNs() const { return m_firedNs; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Timer && m_firedNs < 0) {
            if (auto *timer = qobject_cast<QTimer *>(watched);
                timer && timer->isSingleShot() && timer->interval() >= 1 && timer->interval() <= 100)
                m_firedNs = g_clock.nsecsElapsed();
        }
        return false;
    }

private:
    qint64 m_firedNs = -1;
};
CoalescingTimerProbe *g_probe = nullptr;

// --- (a) every sample into QLineSeries ---------------------------------------------------

class RawPlot
{
public:
    RawPlot() : m_chart(new QChart), m_view(m_chart), m_x(new QDateTimeAxis), m_y(new QValueAxis)
    {
        m_chart->legend()->hide();
        m_chart->setAnimationOptions(QChart::NoAnimation);
        m_chart->addAxis(m_x, Qt::AlignBottom);
        m_chart->addAxis(m_y, Qt::AlignLeft);
        const auto [low, high] = valueExtent();
        m_y->setRange(low, high);
        for (int i = 0; i < BenchData::kSeries; ++i) {
            auto *series = new QLineSeries;
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
            series->setPen(QPen(colorOf(i), kPenWidth)); // after addSeries: the theme overrides
            const auto &data = BenchData::day()[std::size_t(i)];
            QList<QPointF> points;
            points.reserve(qsizetype(data.values.size()));
            for (std::size_t k = 0; k < data.values.size(); ++k)
                points.append(QPointF(double(data.timestampsMs[k]), data.values[k]));
            series->replace(points);
            m_series.push_back(series);
        }
        m_view.setRenderHint(QPainter::Antialiasing);
        m_view.resize(BenchData::kWidth, BenchData::kHeight);
        m_view.show();
        showRange(BenchData::kStartMs, BenchData::kStartMs + BenchData::kDayMs);
        settle();
    }

    void showRange(qint64 startMs, qint64 endMs)
    {
        m_x->setRange(QDateTime::fromMSecsSinceEpoch(startMs), QDateTime::fromMSecsSinceEpoch(endMs));
    }
    void append(int series, qint64 timeMs, double value)
    {
        m_series[std::size_t(series)]->append(double(timeMs), value);
    }
    QPixmap draw() { return m_view.grab(); }

private:
    QChart *m_chart;
    QChartView m_view;
    QDateTimeAxis *m_x;
    QValueAxis *m_y;
    std::vector<QLineSeries *> m_series;
};

// --- (b) Chaoscope: SampleStore + TimelineChart ------------------------------------------

class PipelinePlot
{
public:
    explicit PipelinePlot(qint64 windowMs)
    {
        m_window.setClock([this] { return m_now; });
        for (int i = 0; i < BenchData::kSeries; ++i) {
            const auto &data = BenchData::day()[std::size_t(i)];
            m_store.merge(BenchData::keyOf(i), {}, data.timestampsMs, data.values);
        }
        m_window.setWindowMs(windowMs);
        PanelDefinition panel;
        panel.title = QStringLiteral("Chaos Day");
        panel.unit = QStringLiteral("ops/s");
        panel.series.push_back(SeriesDefinition{});
        m_chart = std::make_unique<TimelineChart>(panel, &m_store, &m_window);
        m_chart->resize(BenchData::kWidth, BenchData::kHeight);
        m_chart->show();
        for (int i = 0; i < BenchData::kSeries; ++i)
            m_chart->addSeries(BenchData::keyOf(i), BenchData::keyOf(i), 0);
        // The others' pen; what-if pens: BENCH_LINE_WIDTH=1 is the chart's own, the raster
        // engine's fast path for cosmetic pens; BENCH_NO_ANTIALIASING=1 draws the curves
        // without antialiasing.
        const double width = qEnvironmentVariable("BENCH_LINE_WIDTH").toDouble();
        m_chart->setLineWidth(width > 0 ? width : kPenWidth);
        if (qEnvironmentVariableIsSet("BENCH_NO_ANTIALIASING"))
            m_chart->setAntialiasedLines(false);
        // Several renders may follow the additions; wait until all series are drawn.
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 60'000 && m_chart->drawnPointCount() < BenchData::kSeries * 100)
            waitRendered();
        settle();
    }

    qint64 now() const { return m_now; }
    void setNow(qint64 now) { m_now = now; }
    SampleStore &store() { return m_store; }
    TimeWindow &window() { return m_window; }
    TimelineChart &chart() { return *m_chart; }

    bool waitRendered()
    {
        QEventLoop loop;
        bool done = false;
        QObject::connect(m_chart.get(), &TimelineChart::rendered, &loop, [&] {
            done = true;
            loop.quit();
        });
        QTimer::singleShot(30'000, &loop, &QEventLoop::quit);
        loop.exec();
        return done;
    }

    // Runs `change`, waits for the chart to show it, grabs the pixels. Returns the work in
    // ns (without the coalescing wait); the latency goes to *latencyNs.
    qint64 measure(const std::function<void()> &change, qint64 *latencyNs, const char *saveAs)
    {
        const qint64 start = g_clock.nsecsElapsed();
        g_probe->arm();
        change();
        const qint64 changed = g_clock.nsecsElapsed();
        if (!waitRendered())
            std::abort(); // a benchmark that measures nothing must not report a number
        const QPixmap pixels = m_chart->grab();
        const qint64 end = g_clock.nsecsElapsed();
        maybeSave(pixels, saveAs);
        *latencyNs = end - start;
        const qint64 fired = g_probe->firedNs();
        return fired >= changed ? (changed - start) + (end - fired) : end - start;
    }

private:
    qint64 m_now = BenchData::kStartMs + BenchData::kDayMs - BenchData::kStepMs;
    SampleStore m_store;
    TimeWindow m_window;
    std::unique_ptr<TimelineChart> m_chart;
};

#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
// --- (c) QCustomPlot 2.1 with adaptive sampling ------------------------------------------

class CustomPlot
{
public:
    CustomPlot()
    {
        m_plot.resize(BenchData::kWidth, BenchData::kHeight);
        m_plot.xAxis->setTicker(QSharedPointer<QCPAxisTickerDateTime>::create());
        const auto [low, high] = valueExtent();
        m_plot.yAxis->setRange(low, high);
        for (int i = 0; i < BenchData::kSeries; ++i) {
            QCPGraph *graph = m_plot.addGraph();
            graph->setPen(QPen(colorOf(i), kPenWidth));
            graph->setAdaptiveSampling(true); // the default; said here because it is the point
            graph->setAntialiased(true);
            const auto &data = BenchData::day()[std::size_t(i)];
            QVector<double> keys(qsizetype(data.values.size()));
            QVector<double> values(qsizetype(data.values.size()));
            for (std::size_t k = 0; k < data.values.size(); ++k) {
                keys[qsizetype(k)] = double(data.timestampsMs[k]) / 1000.0; // QCustomPlot: seconds
                values[qsizetype(k)] = data.values[k];
            }
            graph->setData(keys, values, /*alreadySorted=*/true);
        }
        m_plot.show();
        showRange(BenchData::kStartMs, BenchData::kStartMs + BenchData::kDayMs);
        draw();
        settle();
    }

    void showRange(qint64 startMs, qint64 endMs)
    {
        m_plot.xAxis->setRange(double(startMs) / 1000.0, double(endMs) / 1000.0);
    }
    void append(int series, qint64 timeMs, double value)
    {
        m_plot.graph(series)->addData(double(timeMs) / 1000.0, value);
    }
    QPixmap draw()
    {
        m_plot.replot(QCustomPlot::rpQueuedRefresh); // draws the layers into its buffers
        return m_plot.grab();                        // and the buffers into the pixmap
    }

private:
    QCustomPlot m_plot;
};
#endif

// Fixtures live across repetitions and die before the QApplication.
std::unique_ptr<RawPlot> g_raw;
std::unique_ptr<PipelinePlot> g_pipelineDay;
std::unique_ptr<PipelinePlot> g_pipelineLive;
#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
std::unique_ptr<CustomPlot> g_custom;
#endif

// The redraw scenario pans by about one pixel column per measurement.
constexpr qint64 kPanMs = BenchData::kDayMs / (BenchData::kWidth - 128);

template<typename Plot> void redrawPlain(benchmark::State &state, Plot &plot, qint64 &shift, const char *name)
{
    for (auto _ : state) {
        settle();
        shift += kPanMs;
        const qint64 start = g_clock.nsecsElapsed();
        plot.showRange(BenchData::kStartMs + shift, BenchData::kStartMs + BenchData::kDayMs + shift);
        const QPixmap pixels = plot.draw();
        state.SetIterationTime(double(g_clock.nsecsElapsed() - start) / 1e9);
        maybeSave(pixels, name);
    }
}

template<typename Plot>
void liveTickPlain(benchmark::State &state, Plot &plot, qint64 &now, qint64 &tick, const char *name)
{
    for (auto _ : state) {
        settle();
        now += BenchData::kStepMs;
        ++tick;
        const qint64 start = g_clock.nsecsElapsed();
        for (int i = 0; i < BenchData::kSeries; ++i)
            plot.append(i, now, BenchData::nextValue(i, tick));
        plot.showRange(now - kLiveWindowMs, now);
        const QPixmap pixels = plot.draw();
        state.SetIterationTime(double(g_clock.nsecsElapsed() - start) / 1e9);
        maybeSave(pixels, name);
    }
}

void BM_Redraw_Raw(benchmark::State &state)
{
    if (!g_raw)
        g_raw = std::make_unique<RawPlot>();
    static qint64 shift = 0;
    redrawPlain(state, *g_raw, shift, "redraw_raw");
}

void BM_Redraw_Chaoscope(benchmark::State &state)
{
    if (!g_pipelineDay)
        g_pipelineDay = std::make_unique<PipelinePlot>(BenchData::kDayMs);
    PipelinePlot &plot = *g_pipelineDay;
    static qint64 shift = 0;
    double latency = 0;
    for (auto _ : state) {
        settle();
        shift += kPanMs;
        qint64 latencyNs = 0;
        const qint64 work = plot.measure(
            [&] {
                plot.window().showRange({BenchData::kStartMs + shift, BenchData::kStartMs + BenchData::kDayMs + shift});
            },
            &latencyNs, "redraw_chaoscope");
        state.SetIterationTime(double(work) / 1e9);
        latency += double(latencyNs) / 1e6;
    }
    state.counters["latency_ms"] = benchmark::Counter(latency, benchmark::Counter::kAvgIterations);
    state.counters["points"] = plot.chart().drawnPointCount();
}

#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
void BM_Redraw_QCustomPlot(benchmark::State &state)
{
    if (!g_custom)
        g_custom = std::make_unique<CustomPlot>();
    static qint64 shift = 0;
    redrawPlain(state, *g_custom, shift, "redraw_qcustomplot");
}
#endif

void BM_LiveTick_Raw(benchmark::State &state)
{
    // After the redraw benchmark: the series keep all 8 h, the axis shows the newest 15 min.
    if (!g_raw)
        g_raw = std::make_unique<RawPlot>();
    static qint64 now = BenchData::kStartMs + BenchData::kDayMs - BenchData::kStepMs;
    static qint64 tick = 0;
    liveTickPlain(state, *g_raw, now, tick, "live_raw");
}

void BM_LiveTick_Chaoscope(benchmark::State &state)
{
    if (!g_pipelineLive) {
        g_pipelineDay.reset(); // one chart at a time: the other would compete for the thread pool
        g_pipelineLive = std::make_unique<PipelinePlot>(kLiveWindowMs);
    }
    PipelinePlot &plot = *g_pipelineLive;
    static qint64 tick = 0;
    double latency = 0;
    for (auto _ : state) {
        settle();
        ++tick;
        qint64 latencyNs = 0;
        const qint64 work = plot.measure(
            [&] {
                plot.setNow(plot.now() + BenchData::kStepMs);
                const qint64 t = plot.now();
                for (int i = 0; i < BenchData::kSeries; ++i) {
                    const double v = BenchData::nextValue(i, tick);
                    plot.store().merge(BenchData::keyOf(i), {}, std::span<const qint64>(&t, 1),
                                       std::span<const double>(&v, 1));
                }
                plot.window().advanceToNow();
            },
            &latencyNs, "live_chaoscope");
        state.SetIterationTime(double(work) / 1e9);
        latency += double(latencyNs) / 1e6;
    }
    state.counters["latency_ms"] = benchmark::Counter(latency, benchmark::Counter::kAvgIterations);
    state.counters["points"] = plot.chart().drawnPointCount();
}

#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
void BM_LiveTick_QCustomPlot(benchmark::State &state)
{
    if (!g_custom)
        g_custom = std::make_unique<CustomPlot>();
    static qint64 now = BenchData::kStartMs + BenchData::kDayMs - BenchData::kStepMs;
    static qint64 tick = 0;
    liveTickPlain(state, *g_custom, now, tick, "live_qcustomplot");
}
#endif

int repetitions(const char *variable, int fallback)
{
    const int value = qEnvironmentVariableIntValue(variable);
    return value > 0 ? value : fallback;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    g_clock.start();
    CoalescingTimerProbe probe;
    g_probe = &probe;
    app.installEventFilter(&probe);

    // Each measurement is one iteration; the medians over the repetitions are what count.
    // Fewer for the variants that take seconds a draw, so that ./dev bench stays short.
    const int slow = repetitions("BENCH_REPS_SLOW", 5);
    const int fast = repetitions("BENCH_REPS", 15);
    auto configure = [](benchmark::internal::Benchmark *b, int reps) {
        b->UseManualTime()->Iterations(1)->Repetitions(reps)->ReportAggregatesOnly(true)->Unit(benchmark::kMillisecond);
    };
    configure(benchmark::RegisterBenchmark("render/redraw/raw", BM_Redraw_Raw), slow);
    configure(benchmark::RegisterBenchmark("render/redraw/chaoscope", BM_Redraw_Chaoscope), fast);
#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
    configure(benchmark::RegisterBenchmark("render/redraw/qcustomplot", BM_Redraw_QCustomPlot), slow);
#endif
    configure(benchmark::RegisterBenchmark("render/live_tick/raw", BM_LiveTick_Raw), slow);
    configure(benchmark::RegisterBenchmark("render/live_tick/chaoscope", BM_LiveTick_Chaoscope), fast);
#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
    configure(benchmark::RegisterBenchmark("render/live_tick/qcustomplot", BM_LiveTick_QCustomPlot), fast);
#endif

    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    g_raw.reset();
    g_pipelineDay.reset();
    g_pipelineLive.reset();
#ifdef CHAOSCOPE_HAVE_QCUSTOMPLOT
    g_custom.reset();
#endif
    return 0;
}
