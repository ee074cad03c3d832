// SPDX-License-Identifier: GPL-3.0-or-later
// Explore as a user drives it, against the real Prometheus scraping the real starter: typing
// in the query bar completes a metric name and a label's value from what Prometheus knows, a
// query that does not parse is shown with the place Prometheus names, and "Add to panel" puts
// a query into the dashboard, undone and redone with the window's undo stack. With 10,000
// metric names the list comes without freezing the window.
#include "actions/dashboardediting.h"
#include "actions/exploreaction.h"
#include "annotations/annotationmodel.h"
#include "eventloopwatchdog.h"
#include "exploring/exploredock.h"
#include "exploring/querybar.h"
#include "faultserver.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "store/samplestore.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "timeline/timewindow.h"
#include "waitfor.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace {

PrometheusConnection connectionTo(const QUrl &url)
{
    PrometheusConnection connection;
    connection.baseUrl = url;
    return connection;
}

// Where a key goes: the completion list when it is open (it grabs the keyboard), else the bar.
QWidget *keyTarget(QWidget *bar)
{
    QWidget *popup = QApplication::activePopupWidget();
    return popup ? popup : bar;
}

// The window's parts Explore lives with: a main window, the client of the Prometheus in use,
// the dashboard's time window and crosshair, its marks and its undoable editing.
struct Window
{
    explicit Window(const QUrl &prometheus)
        : client(connectionTo(prometheus)),
          editing(
              &undo, [this] { return dashboard; },
              [this](const DashboardDefinition &now, const std::vector<KeyRename> &) { dashboard = now; })
    {
        main.menuBar()->addMenu(QStringLiteral("&View"))->setObjectName(QStringLiteral("viewMenu"));
        main.setCentralWidget(new QLabel(QStringLiteral("the dashboard"))); // the window's
        timeWindow.setWindowMs(2 * 60 * 1000);
        PanelDefinition throughput;
        throughput.title = QStringLiteral("Throughput");
        SeriesDefinition sent;
        sent.query = QStringLiteral("sum(rate(starter_requests_sent_total[10s]))");
        throughput.series.push_back(sent);
        dashboard.panels.push_back(throughput);
        explore = std::make_unique<ExploreAction>(&main, &client, &timeWindow, &view, &annotations, &editing, false);
        explore->setDashboard(dashboard);
        editing.markSaved(dashboard); // as the run opened it
        main.resize(1200, 800);
        main.show();
        explore->dock()->focusQuery();
    }
    QueryBar *bar() const { return explore->dock()->queryBar(); }

    QMainWindow main;
    PrometheusClient client;
    TimeWindow timeWindow;
    SampleStore store;
    DashboardPoller poller{&client, &store, &timeWindow}; // the dashboard's: never started here
    DashboardView view{&poller, &store, &timeWindow};
    AnnotationModel annotations;
    QUndoStack undo;
    DashboardDefinition dashboard;
    DashboardEditing editing;
    std::unique_ptr<ExploreAction> explore;
};

class Explore : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(engine.start(engineBinary(), {})) << engine.errorString().toStdString();
        ASSERT_TRUE(starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(),
                                                    QStringLiteral("--rate"), QStringLiteral("20")}))
            << starter.errorString().toStdString();
        ASSERT_TRUE(prometheus.start({{QStringLiteral("starter"), starter.hostPort()}}))
            << prometheus.errorString().toStdString();
        ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("starter_requests_sent_total"), 30000));
    }

    TestbedProcess engine;
    TestbedProcess starter;
    PrometheusProcess prometheus;
};

} // namespace

TEST_F(Explore, TypingCompletesAMetricNameAndALabelsValueFromPrometheus)
{
    Window window(prometheus.url());
    QueryBar *bar = window.bar();
    QTest::keyClicks(bar, QStringLiteral("starter_requests_se"));
    ASSERT_TRUE(waitFor([&] { return bar->offered().contains(QStringLiteral("starter_requests_sent_total")); }, 10000))
        << bar->offered().join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(bar->isListOpen());
    QTest::keyClick(keyTarget(bar), Qt::Key_Return);
    ASSERT_TRUE(waitFor([&] { return bar->text() == QStringLiteral("starter_requests_sent_total"); }, 2000))
        << bar->text().toStdString();

    QTest::keyClicks(bar, QStringLiteral("{job=\""));
    ASSERT_TRUE(waitFor([&] { return bar->offered().contains(QStringLiteral("starter")); }, 10000))
        << bar->offered().join(QStringLiteral(", ")).toStdString() << " after " << bar->text().toStdString()
        << (bar->hasFocus() ? " (focused)" : " (not focused)");
    QTest::keyClick(keyTarget(bar), Qt::Key_Tab);
    ASSERT_TRUE(
        waitFor([&] { return bar->text() == QStringLiteral("starter_requests_sent_total{job=\"starter\""); }, 2000))
        << bar->text().toStdString();
    // The closing quote the completion wrote is typed over, by habit, not doubled (with the
    // Shift press a real keyboard sends first).
    QTest::keyPress(bar, Qt::Key_Shift);
    QTest::keyClicks(bar, QStringLiteral("\""), Qt::ShiftModifier);
    QTest::keyRelease(bar, Qt::Key_Shift);
    QTest::keyClicks(bar, QStringLiteral("}"));
    EXPECT_EQ(bar->text(), QStringLiteral("starter_requests_sent_total{job=\"starter\"}"));

    // A selector opened alone lists the label names at once.
    bar->clear();
    QTest::keyClicks(bar, QStringLiteral("{"));
    ASSERT_TRUE(waitFor([&] { return bar->isListOpen() && bar->offered().contains(QStringLiteral("job")); }, 10000))
        << bar->offered().join(QStringLiteral(", ")).toStdString();
    QStringList sorted = bar->offered();
    sorted.sort();
    EXPECT_EQ(bar->offered(), sorted) << "nothing typed yet: a list to read, in alphabetical order";
}

TEST_F(Explore, TheEmptyDockIsTheQueryBarAloneAndTheFirstQueryGivesItRoomForThePreview)
{
    Window window(prometheus.url());
    // A tall dock on the side, as the Load tester's: the preview must not squeeze it until the
    // window grows.
    auto *side = new QDockWidget(QStringLiteral("Load tester"));
    auto *tall = new QWidget;
    tall->setMinimumHeight(560);
    side->setWidget(tall);
    window.main.addDockWidget(Qt::RightDockWidgetArea, side);
    side->show();
    ExploreDock *dock = window.explore->dock();
    ASSERT_TRUE(waitFor([&] { return dock->isVisible() && dock->height() > 0 && side->isVisible(); }, 5000));
    const int windowHeight = window.main.height();
    EXPECT_LT(dock->height(), window.main.height() / 5) << "empty, it once took 40 % of the window";
    window.bar()->setText(QStringLiteral("sum(rate(starter_requests_sent_total[10s]))"));
    QTest::keyClick(window.bar(), Qt::Key_Return);
    ASSERT_TRUE(waitFor([&] { return dock->height() >= 250; }, 5000)) << dock->height();
    EXPECT_EQ(window.main.height(), windowHeight) << "the window keeps its size";
    EXPECT_GE(tall->height(), 560) << "the side dock keeps its height";
    EXPECT_LE(dock->geometry().right(), side->geometry().left()) << "Explore stands under the dashboard only";
    EXPECT_GE(side->geometry().bottom(), dock->geometry().top()) << "the side dock reaches down beside it";
    const auto previews = dock->findChildren<DashboardView *>();
    ASSERT_EQ(previews.size(), 1);
    ASSERT_TRUE(waitFor([&] { return previews.front()->panels().size() == 1u; }, 5000));
    EXPECT_EQ(previews.front()->shown().dashboard.panels.front().title,
              QStringLiteral("rate of starter_requests_sent_total"))
        << "named as Add to panel will name it";
}

TEST_F(Explore, AQueryThatDoesNotParseIsShownWithThePlacePrometheusNames)
{
    Window window(prometheus.url());
    window.bar()->setText(QStringLiteral("sum(rate(starter_requests_sent_total[10s])"));
    QTest::keyClick(window.bar(), Qt::Key_Return);
    ASSERT_TRUE(waitFor([&] { return !window.explore->dock()->errorText().isEmpty(); }, 15000));
    const QString error = window.explore->dock()->errorText();
    EXPECT_TRUE(error.contains(QStringLiteral("parse error"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("background:#D62728"))) << "the place is marked: " << error.toStdString();

    // Mended, it is drawn: samples arrive in the preview's own store, not the dashboard's.
    window.bar()->setText(QStringLiteral("sum(rate(starter_requests_sent_total[10s]))"));
    QTest::keyClick(window.bar(), Qt::Key_Return);
    ASSERT_TRUE(waitFor([&] { return !window.explore->previewStore().keys().isEmpty(); }, 15000));
    EXPECT_TRUE(window.explore->dock()->errorText().isEmpty());
}

TEST_F(Explore, AddToPanelPutsTheQueryIntoTheDashboardWithUndoAndRedo)
{
    Window window(prometheus.url());
    const QString query = QStringLiteral("sum(rate(starter_requests_received_total{outcome=\"timeout\"}[10s]))");
    window.bar()->setText(query);
    emit window.explore->dock()->addRequested(query, -1);
    ASSERT_EQ(window.dashboard.panels.size(), 2u) << "a new panel at the end";
    EXPECT_EQ(window.dashboard.panels[1].series.front().query, query);
    EXPECT_EQ(window.dashboard.panels[1].title,
              QStringLiteral("rate of starter_requests_received_total{outcome=\"timeout\"}"))
        << "titled by the whole query";
    EXPECT_EQ(window.dashboard.panels[1].unit, QStringLiteral("ops/s")) << "a counter's rate";
    EXPECT_TRUE(window.editing.isModified());
    emit window.explore->dock()->addRequested(QStringLiteral("max(starter_inflight_limit)"), 0);
    ASSERT_EQ(window.dashboard.panels[0].series.size(), 2u) << "into the first panel";

    window.undo.undo();
    EXPECT_EQ(window.dashboard.panels[0].series.size(), 1u);
    window.undo.undo();
    EXPECT_EQ(window.dashboard.panels.size(), 1u);
    EXPECT_FALSE(window.editing.isModified()) << "back as it was saved";
    window.undo.redo();
    EXPECT_EQ(window.dashboard.panels.size(), 2u);
    EXPECT_TRUE(window.editing.isModified());
}

TEST_F(Explore, AQueryAddedToANewPanelIsFetchedAndDrawnThereWhileTheOthersKeepTheirSamples)
{
    // The run's parts as LiveRun applies a change: the store's renames, the poller, the grid.
    SampleStore store;
    TimeWindow timeWindow;
    timeWindow.setWindowMs(2 * 60 * 1000);
    PrometheusClient client(connectionTo(prometheus.url()));
    DashboardPoller poller(&client, &store, &timeWindow);
    DashboardDefinition dashboard;
    PanelDefinition throughput;
    throughput.title = QStringLiteral("Throughput");
    SeriesDefinition sent;
    sent.query = QStringLiteral("sum(rate(starter_requests_sent_total[10s]))");
    throughput.series.push_back(sent);
    dashboard.panels.push_back(throughput);
    poller.setDashboard(dashboard);
    DashboardView view(&poller, &store, &timeWindow);
    view.rebuild();
    QUndoStack undo;
    DashboardEditing editing(
        &undo, [&] { return poller.dashboard(); },
        [&](const DashboardDefinition &changed, const std::vector<KeyRename> &renames) {
            store.rename(renames);
            poller.setDashboard(changed);
            poller.bindStoredSeries({});
            view.rebuild();
            poller.pollNow();
        });
    poller.start();
    const auto samplesOf = [&](int panel) {
        qsizetype count = 0;
        for (const SeriesBinding &binding : view.shown().seriesOf(panel)) {
            if (const SampleStore::Series *series = store.series(binding.key))
                count += qsizetype(series->size());
        }
        return count;
    };
    ASSERT_TRUE(waitFor([&] { return samplesOf(0) > 0; }, 30000)) << "the first panel draws";
    const qsizetype before = samplesOf(0);

    EXPECT_EQ(editing.addQuery(QStringLiteral("sum(starter_rate)"), -1), 1);
    ASSERT_EQ(view.panels().size(), 2u);
    ASSERT_TRUE(waitFor([&] { return samplesOf(1) > 0; }, 30000)) << "the new panel is fetched and drawn";
    EXPECT_GE(samplesOf(0), before) << "the first panel kept what it had";
    undo.undo();
    EXPECT_EQ(view.panels().size(), 1u);
    EXPECT_GE(samplesOf(0), before);
}

TEST(ExploreAtScale, TenThousandMetricNamesCompleteWithoutFreezingTheWindow)
{
    // A scrape target with 10,000 metric names, and the real Prometheus scraping it.
    FaultServer exporter;
    QByteArray metrics;
    for (int i = 0; i < 10000; ++i)
        metrics += QStringLiteral("chaos_metric_%1 %2\n").arg(i, 5, 10, QLatin1Char('0')).arg(i).toUtf8();
    FaultServer::Reply reply;
    reply.contentType = "text/plain; version=0.0.4";
    reply.body = metrics;
    exporter.script("/metrics", reply);
    PrometheusProcess prometheus;
    ASSERT_TRUE(prometheus.start({{QStringLiteral("many"), QStringLiteral("127.0.0.1:%1").arg(exporter.port())}}))
        << prometheus.errorString().toStdString();
    ASSERT_TRUE(prometheus.waitForSeries(QStringLiteral("chaos_metric_09999"), 60000));

    Window window(prometheus.url());
    EventLoopWatchdog watchdog;
    QElapsedTimer latency;
    latency.start();
    QTest::keyClicks(window.bar(), QStringLiteral("chaos_metric_099"));
    ASSERT_TRUE(waitFor([&] { return window.bar()->offered().contains(QStringLiteral("chaos_metric_09900")); }, 20000))
        << window.bar()->offered().join(QStringLiteral(", ")).toStdString();
    const qint64 firstList = latency.elapsed();
    EXPECT_EQ(window.bar()->offered().size(), 50) << "at most 50 of the hundred";
    // Typing on: answered from what is kept, at once.
    latency.restart();
    QTest::keyClicks(window.bar(), QStringLiteral("9"));
    EXPECT_EQ(window.bar()->offered().size(), 10) << "chaos_metric_09990 … 09999";
    EXPECT_EQ(window.bar()->offered().value(0), QStringLiteral("chaos_metric_09990"));
    const qint64 keptList = latency.elapsed();
    std::printf("completion with 10,000 metric names: first list %lld ms, from what is kept %lld ms, longest stall "
                "%lld ms\n",
                firstList, keptList, watchdog.longestStallMs());
    EXPECT_LT(watchdog.longestStallMs(), 1000) << "the names are fetched and parsed off the UI thread";
}
