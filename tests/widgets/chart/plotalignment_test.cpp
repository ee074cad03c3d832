// SPDX-License-Identifier: GPL-3.0-or-later
// Plot areas of the panels in a grid column share their left and right edges exactly, however
// wide their value labels are (0.001 next to 12,000,000, a right axis or none), so that one
// instant is at one x in every panel of the column, and the crosshair is one straight line.
#include "chart/timelinechart.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QTest>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kNow = 1'800'000'000'000;
constexpr qint64 kWindowMs = 10 * 60'000;

PanelDefinition panel(const QString &title, const QString &unit, bool rightAxis)
{
    PanelDefinition p;
    p.title = title;
    p.unit = unit;
    SeriesDefinition left;
    left.query = title;
    p.series.push_back(left);
    if (rightAxis) {
        SeriesDefinition right;
        right.query = title + QStringLiteral(" limit");
        right.axis = AxisSide::Right;
        right.style = SeriesStyle::Step;
        p.series.push_back(right);
        p.rightUnit = QStringLiteral("%");
    }
    return p;
}

struct Grid : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    std::unique_ptr<PrometheusClient> client;
    std::unique_ptr<DashboardPoller> poller;
    std::unique_ptr<DashboardView> view;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(kWindowMs);
        PrometheusConnection connection;
        connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/")); // never polled here
        client = std::make_unique<PrometheusClient>(connection);
        poller = std::make_unique<DashboardPoller>(client.get(), &store, &window);
    }

    void fill(const QString &key, double base, double wiggle)
    {
        std::vector<qint64> t;
        std::vector<double> v;
        for (int i = 0; i < 600; ++i) {
            t.push_back(kNow - kWindowMs + qint64(i) * 1000);
            v.push_back(base + wiggle * (i % 10));
        }
        store.merge(key, {}, t, v);
    }

    // The plot area of a panel in the view's coordinates.
    QRectF plotInView(int index) const
    {
        TimelineChart *chart = view->panels()[std::size_t(index)]->chart();
        const QRectF plot = chart->plotRect();
        return QRectF(chart->viewport()->mapTo(view.get(), plot.topLeft()), plot.size());
    }
};

} // namespace

TEST_F(Grid, PanelsInAColumnShareTheirPlotEdgesWhateverTheirLabels)
{
    DashboardDefinition dashboard;
    dashboard.columns = 2;
    dashboard.panels = {
        panel(QStringLiteral("tiny"), QString(), false), panel(QStringLiteral("bytes"), QStringLiteral("bytes"), true),
        panel(QStringLiteral("huge"), QString(), true), panel(QStringLiteral("rate"), QStringLiteral("ops/s"), false)};
    poller->setDashboard(dashboard);
    view = std::make_unique<DashboardView>(poller.get(), &store, &window);
    view->rebuild();
    view->resize(1300, 800);
    view->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));

    // Column 0: 0.001 over 12,000,000 (with a right axis); column 1: GiB with % on the right
    // over plain ops/s.
    fill(QStringLiteral("tiny"), 0.001, 0.0001);
    fill(QStringLiteral("huge"), 12'000'000, 150'000);
    fill(QStringLiteral("huge limit"), 55, 1);
    fill(QStringLiteral("bytes"), 3.0 * 1024 * 1024 * 1024, 1e8);
    fill(QStringLiteral("bytes limit"), 0.5, 0.01);
    fill(QStringLiteral("rate"), 400, 3);
    view->panels()[0]->chart()->addSeries(QStringLiteral("tiny"), QStringLiteral("tiny"), 0);
    view->panels()[1]->chart()->addSeries(QStringLiteral("bytes"), QStringLiteral("bytes"), 0);
    view->panels()[1]->chart()->addSeries(QStringLiteral("bytes limit"), QStringLiteral("limit"), 1);
    view->panels()[2]->chart()->addSeries(QStringLiteral("huge"), QStringLiteral("huge"), 0);
    view->panels()[2]->chart()->addSeries(QStringLiteral("huge limit"), QStringLiteral("limit"), 1);
    view->panels()[3]->chart()->addSeries(QStringLiteral("rate"), QStringLiteral("rate"), 0);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (PanelWidget *p : view->panels()) {
                if (p->chart()->drawnPointCount() == 0)
                    return false;
            }
            return true;
        },
        5000));

    auto expectColumnsAligned = [&] {
        for (int column = 0; column < 2; ++column) {
            const QRectF upper = plotInView(column);
            const QRectF lower = plotInView(column + 2);
            EXPECT_GT(upper.width(), 200);
            EXPECT_DOUBLE_EQ(upper.left(), lower.left()) << "column " << column;
            EXPECT_DOUBLE_EQ(upper.right(), lower.right()) << "column " << column;
            // And the gutters are the fixed ones, whatever the labels need.
            TimelineChart *chart = view->panels()[std::size_t(column)]->chart();
            EXPECT_DOUBLE_EQ(chart->plotRect().left(), TimelineChart::kLeftGutter);
            EXPECT_DOUBLE_EQ(chart->width() - chart->plotRect().right(), TimelineChart::kRightGutter);
        }
        EXPECT_DOUBLE_EQ(plotInView(0).width(), plotInView(1).width()) << "equal columns, equal plots";
    };
    expectColumnsAligned();

    // Resizing keeps them aligned (Qt Charts re-lays out on every resize).
    view->resize(1000, 700);
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->panels()[0]->chart()->plotRect().width() < 400; }, 5000));
    expectColumnsAligned();
}
