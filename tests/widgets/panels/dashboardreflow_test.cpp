// SPDX-License-Identifier: GPL-3.0-or-later
// The grid reflows to fewer columns when the window is narrow, instead of hiding the right
// column behind a horizontal scrollbar: the testbed dashboard at 1000×700 and 1366×768 with
// the annotation dock open (the room the main window leaves it), and back when it widens.
#include "dashboard/loader/dashboardloader.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <gtest/gtest.h>

namespace {

struct Reflow : ::testing::Test
{
    SampleStore store;
    TimeWindow window;
    std::unique_ptr<PrometheusClient> client;
    std::unique_ptr<DashboardPoller> poller;
    QScrollArea scroll;
    DashboardView *view = nullptr;

    void SetUp() override
    {
        PrometheusConnection connection;
        connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1/")); // never polled here
        client = std::make_unique<PrometheusClient>(connection);
        poller = std::make_unique<DashboardPoller>(client.get(), &store, &window);
        const DashboardLoader::LoadResult testbed = DashboardLoader::fromBuiltin(QStringLiteral("testbed"));
        ASSERT_TRUE(testbed.usable);
        ASSERT_EQ(testbed.dashboard.columns, 2);
        poller->setDashboard(testbed.dashboard);
        view = new DashboardView(poller.get(), &store, &window);
        view->rebuild();
        // As the main window holds it.
        scroll.setWidgetResizable(true);
        scroll.setFrameShape(QFrame::NoFrame);
        scroll.setWidget(view);
    }

    // Resizes the scroll area and waits until the grid has settled at that width.
    void showAt(int width, int height)
    {
        scroll.resize(width, height);
        scroll.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&scroll));
        ASSERT_TRUE(QTest::qWaitFor([&] { return view->width() <= scroll.viewport()->width(); }, 5000));
        QCoreApplication::processEvents();
    }

    void expectEveryPanelVisibleInWidth()
    {
        EXPECT_FALSE(scroll.horizontalScrollBar()->isVisible()) << "no horizontal scrollbar";
        for (PanelWidget *panel : view->panels()) {
            const QRect inViewport(panel->mapTo(scroll.viewport(), QPoint(0, 0)), panel->size());
            EXPECT_GE(inViewport.left(), 0);
            EXPECT_LE(inViewport.right(), scroll.viewport()->width());
            EXPECT_GE(panel->width(), DashboardView::kMinPanelWidth - 1);
        }
    }
};

} // namespace

TEST_F(Reflow, At1000By700WithTheDockOpenThePanelsTakeOneColumn)
{
    // 1000 px less the 480 px annotation dock and the window's margins.
    showAt(1000 - 480 - 16, 600);
    EXPECT_EQ(view->shownColumns(), 1);
    expectEveryPanelVisibleInWidth();
}

TEST_F(Reflow, At1366By768WithTheDockOpenTheDashboardsTwoColumnsFit)
{
    showAt(1366 - 480 - 16, 660);
    EXPECT_EQ(view->shownColumns(), 2);
    expectEveryPanelVisibleInWidth();
}

TEST_F(Reflow, NarrowingAndWideningMovesThePanelsBetweenOneAndTwoColumns)
{
    showAt(1400, 700);
    EXPECT_EQ(view->shownColumns(), 2);
    const QPoint secondAtTwo = view->panels()[1]->pos();
    showAt(600, 700);
    EXPECT_EQ(view->shownColumns(), 1);
    expectEveryPanelVisibleInWidth();
    EXPECT_GT(view->panels()[1]->y(), view->panels()[0]->y()) << "the second panel moved below the first";
    showAt(1400, 700);
    EXPECT_EQ(view->shownColumns(), 2);
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->panels()[1]->pos() == secondAtTwo; }, 5000))
        << "back beside the first";
}
