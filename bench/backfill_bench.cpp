// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a Chaos Day: the real poller, store and dashboard grid (8 panels × 5 series, 8 h
// window, 1600x1000, offscreen) against a real Prometheus that holds 8 h of history at 1 s
// for 40 series (bench/run_bench.py creates it with promtool). Per run it reports
//   first_picture_ms: until every panel draws something (the coarse pass),
//   drawn_ms:         until the last chart render after the history is in (fully drawn),
//   max_stall_ms:     the longest the UI thread did not get to a 10 ms watchdog timer,
//   samples:          what the store holds afterwards,
//   longest_stall_made_of: the events the UI thread handled during the longest stall,
//                     summed by receiver class and event type (the four largest).
// One JSON object per run on stdout, then one with the medians.
//
// usage: backfill_bench --prometheus http://127.0.0.1:9090/ [--runs 5] [--metric chaos_bench]
#include "chart/timelinechart.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEvent>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaEnum>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>
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
            series.query =
                QStringLiteral("%1{series=\"%2\"}").arg(metric).arg(p * kSeriesPerPanel + s, 2, 10, QLatin1Char('0'));
            series.legend = QStringLiteral("{{series}}");
            panel.series.push_back(series);
        }
        dashboard.panels.push_back(panel);
    }
    return dashboard;
}

// Times every event delivered on the UI thread at the outermost level (a paint inside a
// timer's slot counts toward the timer), summed by receiver class and event type between two
// watchdog ticks, so that the longest stall can be traced to what it was made of.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;

    struct Delivery
    {
        double ms = 0;
        int count = 0;
        QString what;
    };

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer timer;
        timer.start();
        const QEvent::Type type = event->type(); // the event may be gone afterwards
        const char *receiverClass = receiver->metaObject()->className();
        const bool handled = QApplication::notify(receiver, event);
        --m_depth;
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        if (ms >= 0.5) {
            const char *typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
            const QString what =
                QString::fromLatin1(receiverClass) + QLatin1Char(' ') + QString::fromLatin1(typeName ? typeName : "?");
            Delivery &sum = m_sinceTick[what];
            sum.what = what;
            sum.ms += ms;
            ++sum.count;
        }
        return handled;
    }

    // A watchdog tick after `stallMs` of waiting: keeps what ran since the last tick when this
    // was the longest stall so far.
    void tick(double stallMs)
    {
        if (stallMs > m_worstStallMs) {
            m_worstStallMs = stallMs;
            m_worst.clear();
            for (const Delivery &delivery : m_sinceTick)
                m_worst.push_back(delivery);
            std::sort(m_worst.begin(), m_worst.end(), [](const Delivery &a, const Delivery &b) { return a.ms > b.ms; });
            if (m_worst.size() > 4)
                m_worst.resize(4);
        }
        m_sinceTick.clear();
    }

    std::vector<Delivery> takeWorst()
    {
        m_worstStallMs = 0;
        m_sinceTick.clear();
        return std::exchange(m_worst, {});
    }

private:
    int m_depth = 0;
    QHash<QString, Delivery> m_sinceTick;
    double m_worstStallMs = -1;
    std::vector<Delivery> m_worst;
};

struct RunResult
{
    double firstPictureMs = -1;
    double drawnMs = -1;
    double maxStallMs = 0;
    qsizetype samples = 0;
    int requests = 0;
    bool complete = false;
    std::vector<TimedApplication::Delivery> longest;
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
    poller.setDetailPointsPerColumn(0); // the whole day at 1 s: the load this measures
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

    auto *timed = static_cast<TimedApplication *>(QCoreApplication::instance());
    QTimer watchdog;
    watchdog.setTimerType(Qt::PreciseTimer);
    watchdog.setInterval(10);
    QObject::connect(&watchdog, &QTimer::timeout, &loop, [&] {
        const qint64 now = clock.elapsed();
        const double stallMs = lastTick >= 0 && result.drawnMs < 0 ? double(now - lastTick - 10) : -1;
        result.maxStallMs = std::max(result.maxStallMs, stallMs);
        timed->tick(stallMs);
        lastTick = now;
    });
    for (PanelWidget *panel : view.panels()) {
        QObject::connect(panel->chart(), &TimelineChart::rendered, &loop, [&] {
            lastRender = clock.elapsed();
            if (result.firstPictureMs < 0 &&
                std::all_of(view.panels().begin(), view.panels().end(),
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

    timed->takeWorst();
    clock.start();
    watchdog.start();
    check.start();
    poller.start();
    loop.exec();
    poller.stop();
    result.longest = timed->takeWorst();
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
    TimedApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption prometheus(QStringLiteral("prometheus"), QStringLiteral("Prometheus base URL."),
                                        QStringLiteral("url"));
    const QCommandLineOption runs(QStringLiteral("runs"), QStringLiteral("Runs (medians over them)."),
                                  QStringLiteral("n"), QStringLiteral("5"));
    const QCommandLineOption metric(QStringLiteral("metric"), QStringLiteral("Metric holding the day."),
                                    QStringLiteral("name"), QStringLiteral("chaos_bench"));
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
        QJsonArray longest;
        for (const auto &delivery : r.longest)
            longest.append(
                QStringLiteral("%1 %2 ms in %3").arg(delivery.what).arg(delivery.ms, 0, 'f', 1).arg(delivery.count));
        const QJsonObject line{{QStringLiteral("run"), run},
                               {QStringLiteral("longest_stall_made_of"), longest},
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
