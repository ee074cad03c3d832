// SPDX-License-Identifier: GPL-3.0-or-later
// The screen and an export of the same plot height show the same value axis: one scale, one
// tick rule (ValueScale), one formatter. Before, data in [0, 930] stepped by 250 on screen and
// by 200 in a tall picture, and [−3, −1] ended at −1 on screen and at 0 in the picture.
#include "chart/timelinechart.h"
#include "export/exporttheme.h"
#include "export/figurepainter.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QImage>
#include <QPainter>
#include <QTest>
#include <cmath>
#include <gtest/gtest.h>
#include <ostream>
#include <vector>

namespace {

constexpr qint64 kNow = 1'800'000'000'000;
constexpr qint64 kWindowMs = 10 * 60'000;

struct Case
{
    const char *name;
    QString unit; // one the screen spells out on its axis, as the picture does
    double low;
    double high;
};

void PrintTo(const Case &c, std::ostream *os)
{
    *os << c.name;
}

struct ScreenAndExport : ::testing::TestWithParam<Case>
{
    SampleStore store;
    TimeWindow window;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(kWindowMs);
        // One sample a second across the window, from low to high and back.
        std::vector<qint64> t;
        std::vector<double> v;
        for (int i = 0; i <= 600; ++i) {
            t.push_back(kNow - kWindowMs + qint64(i) * 1000);
            v.push_back(GetParam().low + (GetParam().high - GetParam().low) * std::abs(std::sin(i / 60.0 * M_PI_2)));
        }
        v[300] = GetParam().high;
        store.merge(QStringLiteral("s"), {}, t, v);
    }

    PanelDefinition panel() const
    {
        PanelDefinition p;
        p.title = QStringLiteral("Panel");
        p.unit = GetParam().unit;
        p.series.push_back(SeriesDefinition{});
        return p;
    }

    // The picture of the panel alone at this height: its plot and its value labels.
    FigureLayout::Cell exported(int height) const
    {
        ExportFigure figure;
        figure.range = window.range();
        figure.caption = false;
        figure.panels.push_back({QStringLiteral("Panel"),
                                 GetParam().unit,
                                 QString(),
                                 {{QStringLiteral("s"), QStringLiteral("series"), SeriesDefinition{}}}});
        QImage image(900, height, QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        FigureLayout drawn;
        FigurePainter(store, ExportTheme::blog()).paint(painter, QRectF(0, 0, 900, height), figure, &drawn);
        return drawn.cells.empty() ? FigureLayout::Cell{} : drawn.cells.front();
    }
};

} // namespace

TEST_P(ScreenAndExport, APanelAndItsExportOfTheSamePlotHeightShowTheSameTicks)
{
    for (int height : {240, 300, 380, 460, 500, 560, 760}) {
        const FigureLayout::Cell picture = exported(height);
        ASSERT_FALSE(picture.leftLabels.isEmpty()) << height;
        TimelineChart chart(panel(), &store, &window);
        // Qt Charts lays the plot out to half a pixel: within a pixel of the picture's plot.
        chart.resize(800,
                     int(std::ceil(picture.plot.height())) + TimelineChart::kTopGutter + TimelineChart::kBottomGutter);
        chart.show();
        chart.addSeries(QStringLiteral("s"), QStringLiteral("series"), 0);
        ASSERT_TRUE(QTest::qWaitFor(
            [&] {
                return chart.drawnPointCount() > 0 && std::abs(chart.plotRect().height() - picture.plot.height()) < 1;
            },
            5000))
            << "the same plot height on screen: " << chart.plotRect().height() << " for " << picture.plot.height();
        chart.grab();
        EXPECT_EQ(chart.drawnValueLabels(), picture.leftLabels)
            << "a picture " << height << " px high, its plot " << picture.plot.height() << " px: screen "
            << chart.drawnValueLabels().join(QStringLiteral(", ")).toStdString() << " | export "
            << picture.leftLabels.join(QStringLiteral(", ")).toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(ValueAxis, ScreenAndExport,
                         ::testing::Values(Case{"ZeroTo930", QString(), 0, 930},
                                           Case{"MinusThreeToMinusOne", "s", -3, -1},
                                           Case{"Latency", "s", 0.012, 0.048}, Case{"Percent", "%", 40, 97}),
                         [](const ::testing::TestParamInfo<Case> &param) { return std::string(param.param.name); });

TEST(ValueAxis, ATallPlotOf0To930StepsBy200AndMinus3ToMinus1EndsAtZeroOnScreen)
{
    SampleStore store;
    TimeWindow window;
    window.setClock([] { return kNow; });
    window.setWindowMs(kWindowMs);
    auto labelsFor = [&](double low, double high, const QString &unit, int chartHeight) {
        const QString key = QStringLiteral("k%1").arg(low);
        const std::vector<qint64> t{kNow - 300'000, kNow - 200'000};
        const std::vector<double> v{low, high};
        store.merge(key, {}, t, v);
        PanelDefinition panel;
        panel.unit = unit;
        panel.series.push_back(SeriesDefinition{});
        TimelineChart chart(panel, &store, &window);
        chart.resize(800, chartHeight);
        chart.show();
        chart.addSeries(key, key, 0);
        if (!QTest::qWaitFor([&] { return chart.drawnPointCount() > 0; }, 5000))
            return QStringList{QStringLiteral("nothing drawn")};
        chart.grab();
        return chart.drawnValueLabels();
    };
    // 400 px: a plot of 364, five intervals.
    EXPECT_EQ(labelsFor(0, 930, QString(), 400), (QStringList{"0", "200", "400", "600", "800", "1k"}));
    EXPECT_EQ(labelsFor(-3, -1, QString(), 336), (QStringList{"-3", "-2", "-1", "0"}));
    // A panel at its minimum height (a plot of 84 px) gets two intervals.
    EXPECT_EQ(labelsFor(0, 930, QString(), 120), (QStringList{"0", "500", "1k"}));
}
