// SPDX-License-Identifier: GPL-3.0-or-later
// A heatmap panel draws a histogram's buckets as rows of cells coloured by how many
// observations fell in them, labels the rows with their bounds, says under the plot how much
// went past the largest bound, lists the buckets under the mouse, and the exported picture
// shows the same cells.
#include "chart/heatmappaint.h"
#include "chart/timelinechart.h"
#include "figurerender.h"
#include "panels/panelwidget.h"
#include "store/samplestore.h"
#include "theme/uitheme.h"
#include "timeline/timecursor.h"
#include "timeline/timewindow.h"

#include <QImage>
#include <QPainter>
#include <QTest>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kNow = 1'700'000'040'000;
constexpr qint64 kWindowMs = 5 * 60'000;

PanelDefinition heatmapPanel()
{
    PanelDefinition panel;
    panel.title = QStringLiteral("Request duration");
    panel.unit = QStringLiteral("s");
    panel.kind = PanelKind::Heatmap;
    SeriesDefinition series;
    series.query = QStringLiteral("sum by (le) (rate(http_client_request_seconds_bucket[1m]))");
    series.legend = QStringLiteral("{{le}}");
    panel.series = {series};
    return panel;
}

// The last two minutes of the window: 10/s up to 100 ms, 30/s up to 500 ms, 40/s in all,
// so the rows hold 10, 20 and 10 per second. The minutes before have no samples.
std::vector<QString> writeBuckets(SampleStore &store)
{
    std::vector<QString> keys;
    for (const auto &[le, rate] : {std::pair(QStringLiteral("0.1"), 10.0), std::pair(QStringLiteral("0.5"), 30.0),
                                   std::pair(QStringLiteral("+Inf"), 40.0)}) {
        std::vector<qint64> times;
        std::vector<double> values;
        for (int i = 0; i <= 120; ++i) {
            times.push_back(kNow - 120'000 + i * 1000);
            values.push_back(rate);
        }
        const QString key = QStringLiteral("bucket{le=%1}").arg(le);
        store.merge(key, {{QStringLiteral("le"), le}}, times, values);
        keys.push_back(key);
    }
    return keys;
}

bool near(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) <= 2 && std::abs(a.green() - b.green()) <= 2 &&
           std::abs(a.blue() - b.blue()) <= 2;
}

struct HeatmapPanel : ::testing::Test
{
    SampleStore store;
    TimeWindow window;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(kWindowMs);
        UiTheme::instance()->apply(UiTheme::Choice::Light);
    }
};

} // namespace

TEST_F(HeatmapPanel, RowsOfCellsColouredByTheirBucketsShareWithTheBoundsBesideThem)
{
    const std::vector<QString> keys = writeBuckets(store);
    PanelWidget panel(heatmapPanel(), &store, &window);
    for (const QString &key : keys)
        panel.chart()->addSeries(key, key, 0);
    panel.resize(640, 300);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    TimelineChart *chart = panel.chart();
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart->heatmap() && chart->heatmap()->rows() == 3; }, 5000));
    EXPECT_FALSE(panel.findChild<QWidget *>(QStringLiteral("legend"))->isVisible())
        << "the buckets are the rows, not legend lines";
    EXPECT_EQ(panel.heatmapSummary(), QStringLiteral("2 buckets up to 500 ms · above 500 ms: 25.0 %"));

    const QImage image = chart->grab().toImage();
    EXPECT_EQ(chart->drawnBucketLabels(),
              (QStringList{QStringLiteral("100 ms"), QStringLiteral("500 ms"), QStringLiteral("> 500 ms")}))
        << "each bound at its row's top edge, and the open bucket as such";
    const QRectF plot = chart->plotRect();
    // Three rows of equal height (0.1 to 0.5 is the same factor as the open row's share).
    const int busyX = int(plot.right() - plot.width() * 0.1);
    const int emptyX = int(plot.left() + plot.width() * 0.2);
    const int lowRowY = int(plot.bottom() - plot.height() / 6);
    const int middleRowY = int(plot.center().y());
    EXPECT_TRUE(near(image.pixelColor(busyX, middleRowY), HeatmapPaint::colorFor(20, 20, false)))
        << "the busiest bucket is the darkest: " << image.pixelColor(busyX, middleRowY).name().toStdString();
    EXPECT_TRUE(near(image.pixelColor(busyX, lowRowY), HeatmapPaint::colorFor(10, 20, false)))
        << image.pixelColor(busyX, lowRowY).name().toStdString();
    EXPECT_NE(image.pixelColor(busyX, lowRowY), image.pixelColor(busyX, middleRowY));
    EXPECT_TRUE(near(image.pixelColor(emptyX, middleRowY), UiTheme::instance()->colors().panel))
        << "minutes without samples stay empty, not pale: "
        << image.pixelColor(emptyX, middleRowY).name().toStdString();
}

TEST_F(HeatmapPanel, TheReadOutListsTheBucketsOfTheColumnUnderTheMouseFromTheTopBucketDown)
{
    const std::vector<QString> keys = writeBuckets(store);
    TimeCursor cursor;
    PanelWidget panel(heatmapPanel(), &store, &window);
    for (const QString &key : keys)
        panel.chart()->addSeries(key, key, 0);
    panel.chart()->setTimeCursor(&cursor);
    panel.resize(640, 300);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    TimelineChart *chart = panel.chart();
    ASSERT_TRUE(QTest::qWaitFor([&] { return chart->heatmap() && chart->heatmap()->hasData(); }, 5000));
    const QRectF plot = chart->plotRect();
    const QPoint over(int(plot.right() - plot.width() * 0.1), int(plot.center().y()));
    QTest::mouseMove(chart->viewport(), over + QPoint(0, 20));
    QTest::mouseMove(chart->viewport(), over);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            chart->grab();
            return !chart->drawnReadout().isEmpty();
        },
        5000));
    EXPECT_EQ(chart->drawnReadout(),
              (QStringList{QStringLiteral("> 500 ms = 10 · 25.0 %"), QStringLiteral("100 ms – 500 ms = 20 · 50.0 %"),
                           QStringLiteral("≤ 100 ms = 10 · 25.0 %")}));
}

TEST_F(HeatmapPanel, SeriesWithoutBucketBoundsSayWhatAHeatmapNeeds)
{
    store.merge(QStringLiteral("rate"), {{QStringLiteral("job"), QStringLiteral("starter")}},
                std::vector<qint64>{kNow - 1000}, std::vector<double>{5});
    PanelWidget panel(heatmapPanel(), &store, &window);
    panel.chart()->addSeries(QStringLiteral("rate"), QStringLiteral("rate"), 0);
    PanelStatus ok;
    ok.state = PanelStatus::State::Ok;
    panel.setStatus(ok);
    panel.resize(640, 300);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.chart()->heatmap() != nullptr; }, 5000));
    EXPECT_EQ(panel.chart()->heatmap()->rows(), 0);
    EXPECT_TRUE(panel.heatmapSummary().isEmpty());
    EXPECT_TRUE(panel.chart()->drawnBucketLabels().isEmpty());
}

TEST_F(HeatmapPanel, TheExportedPictureHasTheSameCellsBoundsAndScale)
{
    const std::vector<QString> keys = writeBuckets(store);
    ExportFigure figure;
    figure.range = {kNow - kWindowMs, kNow};
    figure.columns = 1;
    ExportFigure::Panel panel;
    panel.title = QStringLiteral("Request duration");
    panel.unit = QStringLiteral("s");
    panel.kind = PanelKind::Heatmap;
    for (const QString &key : keys)
        panel.series.push_back({key, key, heatmapPanel().series[0]});
    figure.panels = {panel};
    const auto [image, layout] = renderFigure(store, figure, QSizeF(900, 420));
    QStringList values;
    QStringList legend;
    for (const FigureLayout::Text &text : layout.texts) {
        if (text.role == FigureLayout::Role::ValueLabel)
            values << text.text;
        if (text.role == FigureLayout::Role::Legend)
            legend << text.text;
    }
    EXPECT_TRUE(values.contains(QStringLiteral("100 ms"))) << values.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(values.contains(QStringLiteral("500 ms"))) << values.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(values.contains(QStringLiteral("> 500 ms"))) << "the top bucket readable off the picture";
    EXPECT_TRUE(values.contains(QStringLiteral("20"))) << "the colour scale's top: the busiest bucket's rate";
    EXPECT_EQ(legend, QStringList{QStringLiteral("2 buckets up to 500 ms · above 500 ms: 25.0 %")});
    ASSERT_EQ(layout.cells.size(), 1u);
    const QRectF plot = layout.cells[0].plot;
    const QColor busiest = image.pixelColor(int(plot.right() - plot.width() * 0.1), int(plot.center().y()));
    EXPECT_TRUE(near(busiest, HeatmapPaint::colorFor(20, 20, false))) << busiest.name().toStdString();
}
