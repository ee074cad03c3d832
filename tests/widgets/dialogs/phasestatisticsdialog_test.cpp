// SPDX-License-Identifier: GPL-3.0-or-later
// The "Statistics per phase" dialog: a panel's series per phase between things done, values in
// the axis' unit, p95 on request, a new annotation splitting the run anew, and both copies.
#include "analysis/phasestatisticsmodel.h"
#include "annotations/annotationmodel.h"
#include "dialogs/phasestatisticsdialog.h"
#include "fetching/dashboardpoller.h"
#include "panels/dashboardview.h"
#include "panels/panelwidget.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "testpaths.h"
#include "timeline/timewindow.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>
#include <iostream>
#include <vector>

namespace {

constexpr qint64 kStart = 1'700'000'000'000;

// The panel of the fixture's two series: completed/s on the left axis, p99 on the right.
PhaseStatisticsDialog::PanelSeries throughput(const std::vector<PanelCheck> &checks = {})
{
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    panel.rightUnit = QStringLiteral("s");
    TimelineChart::LegendEntry a;
    a.key = QStringLiteral("p0/q0/{}");
    a.name = QStringLiteral("completed/s");
    TimelineChart::LegendEntry b;
    b.key = QStringLiteral("p0/q1/{}");
    b.name = QStringLiteral("p99");
    b.axis = AxisSide::Right;
    return PhaseStatisticsDialog::panelSeries(panel, {a, b}, checks);
}

struct PhaseStatisticsDialogTest : ::testing::Test
{
    SampleStore store;
    AnnotationModel annotations;
    PhaseStatisticsDialog dialog{&store, &annotations};

    void SetUp() override
    {
        std::vector<qint64> t;
        std::vector<double> completed;
        std::vector<double> p99;
        for (int s = 0; s < 1200; ++s) {
            t.push_back(kStart + s * 1000LL);
            completed.push_back(s < 600 ? (s % 2 ? 300.0 : 296.0) : (s % 2 ? 218.0 : 210.0));
            p99.push_back(s < 600 ? 0.120 : 0.480);
        }
        store.merge(QStringLiteral("p0/q0/{}"), {}, t, completed);
        store.merge(QStringLiteral("p0/q1/{}"), {}, t, p99);
        Annotation change;
        change.timeMs = kStart + 600'000;
        change.text = QStringLiteral("rate 300 → 500 /s");
        change.source = Annotation::Source::Action;
        annotations.add(change);

        dialog.setPanels({throughput()});
        dialog.setRange({kStart, kStart + 1'200'000});
        dialog.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    }

    QString cell(int row, int column) const { return dialog.table()->model()->index(row, column).data().toString(); }
    QString header(int column) const { return dialog.table()->model()->headerData(column, Qt::Horizontal).toString(); }
};

} // namespace

TEST_F(PhaseStatisticsDialogTest, EachSeriesPerPhaseInItsAxisUnit)
{
    EXPECT_EQ(header(3), QStringLiteral("before rate 300 → 500 /s"));
    EXPECT_EQ(header(4), QStringLiteral("after rate 300 → 500 /s"));
    ASSERT_EQ(dialog.table()->model()->rowCount(), 8); // two series × mean, min, max, last
    EXPECT_EQ(cell(0, 0), QStringLiteral("completed/s"));
    EXPECT_EQ(cell(0, 3), QStringLiteral("298 ops/s"));
    EXPECT_EQ(cell(0, 4), QStringLiteral("214 ops/s"));
    EXPECT_EQ(cell(4, 0), QStringLiteral("p99"));
    EXPECT_EQ(cell(4, 3), QStringLiteral("120 ms"));
    EXPECT_EQ(cell(4, 4), QStringLiteral("480 ms"));
}

TEST_F(PhaseStatisticsDialogTest, P95OnRequestAndANewAnnotationSplitsThePhases)
{
    dialog.findChild<QCheckBox *>(QStringLiteral("phaseP95"))->setChecked(true);
    EXPECT_EQ(dialog.table()->model()->rowCount(), 10);
    EXPECT_EQ(cell(4, 1), QStringLiteral("p95"));

    Annotation limit;
    limit.timeMs = kStart + 900'000;
    limit.text = QStringLiteral("in-flight limit 20");
    limit.source = Annotation::Source::Action;
    annotations.add(limit);
    EXPECT_EQ(dialog.table()->model()->columnCount(), 6);
    EXPECT_EQ(header(4), QStringLiteral("rate 300 → 500 /s → in-flight limit 20"));
    EXPECT_EQ(header(5), QStringLiteral("after in-flight limit 20"));
}

TEST_F(PhaseStatisticsDialogTest, CopyGivesTabSeparatedTextOrAMarkdownTable)
{
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("phaseCopyText")), Qt::LeftButton);
    const QStringList text = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'));
    EXPECT_EQ(text[0],
              QStringLiteral("series\tstatistic\tvisible range\tbefore rate 300 → 500 /s\tafter rate 300 → 500 /s"));
    EXPECT_TRUE(text[1].endsWith(QStringLiteral("\t298\t214"))) << text[1].toStdString();

    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("phaseCopyMarkdown")), Qt::LeftButton);
    const QString markdown = QGuiApplication::clipboard()->text();
    EXPECT_TRUE(
        markdown.startsWith(QStringLiteral("| series | statistic | visible range | before rate 300 → 500 /s |")));
    EXPECT_TRUE(markdown.contains(QStringLiteral("| 298 ops/s | 214 ops/s |"))) << markdown.toStdString();
    EXPECT_EQ(markdown, dialog.model()->table().toMarkdown());
}

TEST_F(PhaseStatisticsDialogTest, EachCheckOnThePanelHeldOrFailedPerPhaseInGreenOrRed)
{
    PanelCheck latency;
    latency.check.name = QStringLiteral("p99");
    latency.check.query = QStringLiteral("p99");
    latency.check.unit = QStringLiteral("s");
    latency.check.condition = *CheckCondition::parse(QStringLiteral("< 0.25"));
    latency.check.forMs = 30'000;
    latency.reference = QStringLiteral("p0/q1/");
    dialog.setPanels({throughput({latency})});

    ASSERT_EQ(dialog.table()->model()->rowCount(), 9); // two series × four statistics, one check
    EXPECT_EQ(cell(8, 0), QStringLiteral("p99 < 250 ms"));
    EXPECT_EQ(cell(8, 1), QStringLiteral("check"));
    EXPECT_EQ(cell(8, 3), QStringLiteral("✓ worst 120 ms"));
    // p99 is 480 ms from the annotation on: broken from there, failed 30 s later.
    const QString failedAt = QDateTime::fromMSecsSinceEpoch(kStart + 630'000).toString(QStringLiteral("HH:mm:ss"));
    EXPECT_EQ(cell(8, 4), QStringLiteral("✗ 480 ms at %1").arg(failedAt));
    EXPECT_EQ(cell(8, 2), cell(8, 4)) << "the whole range failed where the phase did";
    const QModelIndex failed = dialog.table()->model()->index(8, 4);
    EXPECT_TRUE(failed.data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("FAILED at %1: 480 ms ≥ 250 ms for 30 s").arg(failedAt)));
    EXPECT_EQ(failed.data(PhaseStatisticsModel::VerdictRole).toInt(), int(PhaseStatisticsModel::Verdict::Failed));
    EXPECT_EQ(dialog.table()->model()->index(8, 3).data(PhaseStatisticsModel::VerdictRole).toInt(),
              int(PhaseStatisticsModel::Verdict::Held));
    EXPECT_TRUE(dialog.model()->table().toMarkdown().contains(QStringLiteral("| p99 < 250 ms | check | FAILED at ")));
    const QImage image = dialog.grab().toImage();
    const QString path = binaryPath(QStringLiteral("screenshots/phase-statistics-checks.png"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    ASSERT_TRUE(image.save(path));
    std::cout << "screenshot: " << path.toStdString() << std::endl;
}

TEST_F(PhaseStatisticsDialogTest, AScreenshotOfTheTable)
{
    dialog.findChild<QCheckBox *>(QStringLiteral("phaseP95"))->setChecked(true);
    const QImage image = dialog.grab().toImage();
    const QString path = binaryPath(QStringLiteral("screenshots/phase-statistics.png"));
    QDir().mkpath(QFileInfo(path).absolutePath());
    ASSERT_TRUE(image.save(path));
    std::cout << "screenshot: " << path.toStdString() << std::endl;
}

TEST(PhaseStatisticsFromTheMenu, ViewStatisticsPerPhaseOpensTheDialogOnTheVisibleRange)
{
    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kStart + 1'200'000; });
    window.setWindowMs(20 * 60'000);
    AnnotationModel annotations;
    // Nothing listens there; the poller is never started.
    PrometheusConnection connection;
    connection.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:9"));
    PrometheusClient client(connection);
    DashboardPoller poller(&client, &store, &window);
    DashboardDefinition dashboard;
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    SeriesDefinition series;
    series.query = QStringLiteral("sum(rate(done[1m]))");
    panel.series.push_back(series);
    dashboard.panels.push_back(panel);
    panel.title = QStringLiteral("Latency");
    panel.unit = QStringLiteral("s");
    dashboard.panels.push_back(panel);
    poller.setDashboard(dashboard);
    MainWindow mainWindow(&client, &store, &window, &poller, &annotations);
    mainWindow.showDashboard({});
    mainWindow.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&mainWindow));

    QAction *action = mainWindow.findChild<QAction *>(QStringLiteral("phaseStatisticsAction"));
    ASSERT_TRUE(action);
    action->trigger();
    auto *dialog = mainWindow.findChild<PhaseStatisticsDialog *>();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_EQ(dialog->findChild<QComboBox *>(QStringLiteral("phasePanelPicker"))->currentText(),
              QStringLiteral("Throughput"));
    EXPECT_EQ(dialog->model()->headerData(2, Qt::Horizontal).toString(), QStringLiteral("visible range"));
    dialog->close();

    // A right-click on the second panel opens it on that panel.
    TimelineChart *chart = mainWindow.dashboardView()->panels().at(1)->chart();
    const QPoint at = chart->plotRect().center().toPoint();
    QContextMenuEvent click(QContextMenuEvent::Mouse, at, chart->viewport()->mapToGlobal(at));
    QApplication::sendEvent(chart->viewport(), &click);
    QMenu *menu = nullptr;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            menu = mainWindow.dashboardView()->panels().at(1)->findChild<QMenu *>(QStringLiteral("panelMenu"));
            return menu && menu->isVisible();
        },
        2000));
    ASSERT_EQ(menu->actions().size(), 1);
    menu->actions().front()->trigger();
    menu->close();
    PhaseStatisticsDialog *second = nullptr;
    for (PhaseStatisticsDialog *d : mainWindow.findChildren<PhaseStatisticsDialog *>()) {
        if (d->isVisible())
            second = d;
    }
    ASSERT_TRUE(second);
    EXPECT_EQ(second->findChild<QComboBox *>(QStringLiteral("phasePanelPicker"))->currentText(),
              QStringLiteral("Latency"));
}
