// SPDX-License-Identifier: GPL-3.0-or-later
// A stat panel shows each series' newest value as a big number in the colour of the
// threshold step it falls in, over a sparkline on the shared time axis; greyed when the
// source is down; and the exported picture shows the same numbers.
#include "base/format.h"
#include "chart/chartpaint.h"
#include "chart/timelinechart.h"
#include "figurerender.h"
#include "panels/panelwidget.h"
#include "panels/statvalues.h"
#include "store/samplestore.h"
#include "theme/palette.h"
#include "theme/uitheme.h"
#include "timeline/timecursor.h"
#include "timeline/timewindow.h"

#include <QImage>
#include <QPainter>
#include <QTest>
#include <gtest/gtest.h>
#include <limits>

namespace {

constexpr qint64 kNow = 1'700'000'000'000;
const QString kKey = QStringLiteral("sent");
const QString kGreen = QStringLiteral("#2CA02C");
const QString kRed = QStringLiteral("#D62728");

PanelDefinition statPanel()
{
    PanelDefinition panel;
    panel.title = QStringLiteral("Sent now");
    panel.unit = QStringLiteral("ops/s");
    panel.kind = PanelKind::Stat;
    SeriesDefinition series;
    series.query = QStringLiteral("sum(rate(sent_total[1m]))");
    panel.series = {series};
    panel.thresholds = {{-std::numeric_limits<double>::infinity(), kGreen}, {80, kRed}};
    return panel;
}

void writeRamp(SampleStore &store, double last)
{
    std::vector<qint64> times;
    std::vector<double> values;
    for (int i = 0; i < 60; ++i) {
        times.push_back(kNow - 60'000 + i * 1000);
        values.push_back(i == 59 ? last : 40 + i % 7);
    }
    store.merge(kKey, {}, times, values);
}

struct StatTile : ::testing::Test
{
    SampleStore store;
    TimeWindow window;

    void SetUp() override
    {
        window.setClock([] { return kNow; });
        window.setWindowMs(5 * 60'000);
        UiTheme::instance()->apply(UiTheme::Choice::Light);
    }
};

} // namespace

TEST_F(StatTile, TheNewestValueInTheColourOfItsThresholdStep)
{
    writeRamp(store, 95);
    PanelWidget panel(statPanel(), &store, &window);
    panel.chart()->addSeries(kKey, QStringLiteral("sent/s"), 0);
    panel.resize(420, 260);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    StatValues *values = panel.statValues();
    ASSERT_NE(values, nullptr);
    EXPECT_FALSE(panel.findChild<QWidget *>(QStringLiteral("legend"))->isVisible())
        << "the names are under the numbers";
    EXPECT_GT(panel.chart()->height(), 40) << "the sparkline keeps room on the shared time axis";
    ASSERT_TRUE(QTest::qWaitFor([&] { return !values->values().empty(); }, 5000));
    EXPECT_EQ(values->values()[0].name, QStringLiteral("sent/s"));
    EXPECT_EQ(values->values()[0].text, Format::value(95, QStringLiteral("ops/s")));
    EXPECT_EQ(values->values()[0].color, QColor(kRed)) << "95 is above the 80 step";

    // A newer sample below the step: the number and its colour follow.
    const qint64 next = kNow + 1000;
    window.setClock([next] { return next; });
    store.merge(kKey, {}, std::vector<qint64>{next}, std::vector<double>{52});
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return values->values()[0].text == Format::value(52, QStringLiteral("ops/s")); }, 5000));
    EXPECT_EQ(values->values()[0].color, QColor(kGreen));

    PanelStatus down;
    down.state = PanelStatus::State::SourceDown;
    panel.setStatus(down);
    EXPECT_EQ(values->values()[0].color, UiTheme::instance()->colors().muted)
        << "a source that is down shows its last value greyed: it is not the value now";
    EXPECT_EQ(values->values()[0].text, Format::value(52, QStringLiteral("ops/s")));
}

TEST_F(StatTile, WhileTheCrosshairIsOnTheDashboardTheNumberIsTheValueAtItsInstant)
{
    writeRamp(store, 95);
    PanelWidget panel(statPanel(), &store, &window);
    panel.chart()->addSeries(kKey, QStringLiteral("sent/s"), 0);
    TimeCursor cursor;
    panel.setTimeCursor(&cursor);
    panel.resize(420, 260);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    StatValues *values = panel.statValues();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return !values->values().empty() && values->values()[0].text == Format::value(95, "ops/s"); }, 5000));

    // The mouse on another panel, 30 s back (the ramp is 40 + i % 7 there, under the red step).
    const QObject otherPanel;
    const qint64 then = kNow - 60'000 + 30 * 1000;
    cursor.hover(then, &otherPanel);
    EXPECT_EQ(values->values()[0].text, Format::value(40 + 30 % 7, QStringLiteral("ops/s")));
    EXPECT_EQ(values->values()[0].color, QColor(kGreen)) << "coloured by the value shown";
    EXPECT_EQ(values->values()[0].name, QStringLiteral("sent/s · %1").arg(ChartPaint::timeText(then)))
        << "the tile says when the number is from";

    // Before the first sample there is no value, not the nearest far-away one.
    cursor.hover(kNow - 4 * 60'000, &otherPanel);
    EXPECT_EQ(values->values()[0].text, QStringLiteral("–"));

    cursor.leave(&otherPanel);
    EXPECT_EQ(values->values()[0].text, Format::value(95, QStringLiteral("ops/s"))) << "back to the newest";
    EXPECT_EQ(values->values()[0].name, QStringLiteral("sent/s"));
}

TEST_F(StatTile, WithoutDataItSaysSoRatherThanAZero)
{
    PanelWidget panel(statPanel(), &store, &window);
    panel.chart()->addSeries(kKey, QStringLiteral("sent/s"), 0);
    panel.resize(420, 260);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.statValues()->values().empty(); }, 5000));
    EXPECT_EQ(panel.statValues()->values()[0].text, QStringLiteral("–"));
}

TEST_F(StatTile, TheExportedPictureShowsTheSameNumberInItsColour)
{
    writeRamp(store, 95);
    ExportFigure figure;
    figure.range = {kNow - 5 * 60'000, kNow};
    figure.columns = 1;
    ExportFigure::Panel panel;
    panel.title = QStringLiteral("Sent now");
    panel.unit = QStringLiteral("ops/s");
    panel.series = {{kKey, QStringLiteral("sent/s"), statPanel().series[0]}};
    panel.kind = PanelKind::Stat;
    panel.thresholds = statPanel().thresholds;
    figure.panels = {panel};
    const auto [image, layout] = renderFigure(store, figure, QSizeF(800, 400));
    const FigureLayout::Text *number = nullptr;
    for (const FigureLayout::Text &text : layout.texts) {
        if (text.role == FigureLayout::Role::StatValue && text.text == Format::value(95, QStringLiteral("ops/s")))
            number = &text;
    }
    ASSERT_NE(number, nullptr) << "the newest value is written big";
    ASSERT_EQ(layout.cells.size(), 1u);
    EXPECT_TRUE(layout.cells[0].plot.contains(number->rect.center())) << "over the sparkline, inside the panel";
    EXPECT_GT(number->rect.height(), ExportTheme::blog().legendPx * 2) << "big, not legend-sized";
    // Its ink is the red of the step it falls in.
    int red = 0;
    const QRect box = number->rect.toAlignedRect().intersected(image.rect());
    for (int y = box.top(); y <= box.bottom(); ++y)
        for (int x = box.left(); x <= box.right(); ++x)
            red += QColor(image.pixel(x, y)) == QColor(kRed) ? 1 : 0;
    EXPECT_GT(red, 20);
}

TEST_F(StatTile, ABrightThresholdColourIsDarkenedToBeReadOnAWhiteCard)
{
    const QColor yellow = Palette::resolve(QStringLiteral("#FADE2A"), 0, Palette::Background::Light);
    EXPECT_NE(yellow, QColor(QStringLiteral("#FADE2A")));
    EXPECT_EQ(yellow.hue(), QColor(QStringLiteral("#FADE2A")).hue()) << "still yellow";
    EXPECT_LT(yellow.lightness(), QColor(QStringLiteral("#FADE2A")).lightness());
    EXPECT_EQ(Palette::resolve(QStringLiteral("#FADE2A"), 0, Palette::Background::Dark),
              QColor(QStringLiteral("#FADE2A")))
        << "on a dark card it reads as it is";
    EXPECT_EQ(Palette::resolve(kGreen, 0, Palette::Background::Light), QColor(kGreen));
}
