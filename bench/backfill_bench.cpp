// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a Chaos Day: the real poller, store and dashboard grid (8 panels × 5 series, 8 h
// window, 1600x1000, offscreen) against a real Prometheus that holds 8 h of history at 1 s
// for 40 series (bench/run_bench.py creates it with promtool). Per run it reports
//   first_picture_ms: until every panel draws something (the coarse pass),
//   drawn_ms:         until the last chart render after the history is in (fully drawn),
//   max_stall_ms:     the longest the UI thread did not get to a 10 ms watchdog timer,
//   samples:          what the store holds afterwards.
// One JSON object per run on stdout, then one with the medians.
//
// usage: backfill_bench --prometheus http://127.0.0.1:9090/ [--runs 5] [--metric chaos_bench]
#include "dashboardpoller.h"
#include "dashboardview.h"
#include "panelwidget.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "timelinechart.h"
#include "timewindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

constexpr int kPanels = 8;
constexpr int kSeriesPerPanel = 5;
constexpr qint64 kWindowMs = 8LL * 3600 * 1000;
constexpr int kQuietMs = 500; // no render for this long after the load: fully drawn

DashboardDefinition chaosDay(const QString &metric)
{
    DashboardDefinition dashboard;
    dashboard.title = QStringLiteral("Chaos Day");
    dashboard.windowMs = kWindowMs;
    dashboard.refreshSeconds = 3600; // the load is measured, not the tail polls
    dashboard.columns = 2;
    for (int p = 0; p < kPanels; ++p) {
        PanelDefinition panel;
        panel.title = QStringLiteral("panel %1").arg(p);
        panel.unit = QStringLiteral("ops/s");
        for (int s = 0; s < kSeriesPerPanel; ++s) {
            SeriesDefinition series;
            series.query = QStringLiteral("%1{series=\"%2\"}").arg(metric).arg(p * kSeriesPerPanel + s, 2, 10, QLatin1Char('0'));
            series.legend = QStringLiteral("{{series}}");
            panel.series.push_back(series);
        }
        dashboard.panels.push_back(panel);
    }
    return dashboard;
}

struct RunResult
{
    double firstPictureMs = -1;
    double drawnMs = -1;
    double maxStallMs = 0;
    qsizetype samples = 0;
    int requests = 0;
    bool complete = false;
};

RunResult runOnce(const QUrl &url, const QString &metric)
{
    PrometheusConnection connection;
    connection.baseUrl = url;
    PrometheusClient client(connection);
    SampleStore store;
    TimeWindow window;
    window.setWindowMs(kWindowMs);
    DashboardPoller poller(&client, &store, &window);
    poller.setScrapeIntervalMs(1000);
    poller.setDashboard(chaosDay(metric));
    DashboardView view(&poller, &store, &window);
    view.resize(1600, 1000);
    view.rebuild();
    view.show();
    QCoreApplication::processEvents(); // lay out: the panels report their plot widths

    RunResult result;
    QElapsedTimer clock;
    QEventLoop loop;
    qint64 lastRender = -1;
    qint64 lastTick = -1;
    qint64 loadedAt = -1;
    int progressTotal = 0;

    QTimer watchdog;
    watchdog.setTimerType(Qt::PreciseTimer);
    watchdog.setInterval(10);
    QObject::connect(&watchdog, &QTimer::timeout, &loop, [&] {
        const qint64 now = clock.elapsed();
        if (lastTick >= 0 && result.drawnMs < 0)
            result.maxStallMs = std::max(result.maxStallMs, double(now - lastTick - 10));
        lastTick = now;
    });
    for (PanelWidget *panel : view.panels()) {
        QObject::connect(panel->chart(), &TimelineChart::rendered, &loop, [&] {
            lastRender = clock.elapsed();
            if (result.firstPictureMs < 0
                && std::all_of(view.panels().begin(), view.panels().end(),
                               [](PanelWidget *p) { return p->chart()->drawnPointCount() > 0; }))
                result.firstPictureMs = double(lastRender);
        });
    }
    QObject::connect(&poller, &DashboardPoller::backfillProgress, &loop, [&](int done, int total) {
        progressTotal = std::max(progressTotal, total);
        if (done == total && total > 0 && loadedAt < 0)
            loadedAt = clock.elapsed();
    });
    QTimer check;
    check.setInterval(20);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        const qint64 now = clock.elapsed();
        if (loadedAt >= 0 && lastRender >= loadedAt && now - lastRender >= kQuietMs) {
            result.drawnMs = double(lastRender);
            result.complete = true;
            loop.quit();
        } else if (now > 120'000) {
            loop.quit(); // reported as incomplete
        }
    });

    clock.start();
    watchdog.start();
    check.start();
    poller.start();
    loop.exec();
    poller.stop();
    result.samples = store.sampleCount();
    result.requests = progressTotal;
    // Let answers still on their way land in this run's objects, not the next run's clock.
    QElapsedTimer drain;
    drain.start();
    while (drain.elapsed() < 200)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return result;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption prometheus(QStringLiteral("prometheus"), QStringLiteral("Prometheus base URL."), QStringLiteral("url"));
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Runs (medians over them)."), QStringLiteral("n"), QStringLiteral("5"));
    const QCommandLineOption metric(QStringLiteral("metric"), QStringLiteral("Metric holding the day."), QStringLiteral("name"),
                                    QStringLiteral("chaos_bench"));
    parser.addOptions({prometheus, runs, metric});
    parser.process(app);
    if (!parser.isSet(prometheus)) {
        std::fprintf(stderr, "backfill_bench: --prometheus is required\n");
        return 2;
    }

    std::vector<double> first, drawn, stall, samples;
    bool allComplete = true;
    const int count = std::max(1, parser.value(runs).toInt());
    for (int run = 0; run < count; ++run) {
        const RunResult r = runOnce(QUrl(parser.value(prometheus)), parser.value(metric));
        allComplete &= r.complete;
        first.push_back(r.firstPictureMs);
        drawn.push_back(r.drawnMs);
        stall.push_back(r.maxStallMs);
        samples.push_back(double(r.samples));
        const QJsonObject line{{QStringLiteral("run"), run},
                               {QStringLiteral("complete"), r.complete},
                               {QStringLiteral("first_picture_ms"), r.firstPictureMs},
                               {QStringLiteral("drawn_ms"), r.drawnMs},
                               {QStringLiteral("max_stall_ms"), r.maxStallMs},
                               {QStringLiteral("samples"), double(r.samples)},
                               {QStringLiteral("requests"), r.requests}};
        std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
        std::fflush(stdout);
    }
    const QJsonObject summary{{QStringLiteral("summary"), true},
                              {QStringLiteral("runs"), count},
                              {QStringLiteral("complete"), allComplete},
                              {QStringLiteral("first_picture_ms"), median(first)},
                              {QStringLiteral("drawn_ms"), median(drawn)},
                              {QStringLiteral("max_stall_ms"), median(stall)},
                              {QStringLiteral("worst_stall_ms"), *std::max_element(stall.begin(), stall.end())},
                              {QStringLiteral("samples"), median(samples)}};
    std::printf("%s\n", QJsonDocument(summary).toJson(QJsonDocument::Compact).constData());
    return allComplete ? 0 : 1;
}
