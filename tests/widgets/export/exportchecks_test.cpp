// SPDX-License-Identifier: GPL-3.0-or-later
// A dashboard's check in an exported picture, as on screen: its level dashed on the axis of
// the series it judges (the axis reaching it), amber while it held over the picture's range,
// red where a series failed it.
#include "dashboard/loader/dashboardloader.h"
#include "dashboard/panelchecks.h"
#include "figurerender.h"
#include "store/samplestore.h"

#include <QColor>
#include <gtest/gtest.h>

namespace {

constexpr qint64 kStart = 1772358000000;
constexpr qint64 kEnd = kStart + 10 * 60'000;

int pixelsOf(const QImage &image, const QRectF &area, const QColor &colour)
{
    int count = 0;
    for (int y = int(area.top()); y < int(area.bottom()); ++y) {
        for (int x = int(area.left()); x < int(area.right()); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green()) +
                    std::abs(pixel.blue() - colour.blue()) <
                24)
                ++count;
        }
    }
    return count;
}

RenderedFigure exportTimeouts(SampleStore &store, double peak)
{
    std::vector<qint64> t;
    std::vector<double> v;
    for (qint64 ms = kStart; ms <= kEnd; ms += 5000) {
        t.push_back(ms);
        v.push_back(ms >= kStart + 300'000 && ms < kStart + 360'000 ? peak : 0.5);
    }
    store.merge(QStringLiteral("p0/q0/{}"), {}, t, v);
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [
        {"title": "Timeouts", "unit": "ops/s", "series": [{"query": "timeouts", "id": "timeouts"}]}],
      "checks": [{"name": "few timeouts", "series": "timeouts", "holds": "< 2", "for": "20s"}]})json");
    EXPECT_TRUE(loaded.usable);
    ExportFigure figure;
    figure.range = {kStart, kEnd};
    figure.columns = 1;
    ExportFigure::Panel panel;
    panel.title = QStringLiteral("Timeouts");
    panel.unit = QStringLiteral("ops/s");
    panel.dashboardPanel = 0;
    panel.series.push_back(
        {QStringLiteral("p0/q0/{}"), QStringLiteral("timeouts/s"), loaded.dashboard.panels[0].series[0]});
    panel.checks = PanelChecks::of(loaded.dashboard, 0, loaded.dashboard.checks);
    figure.panels.push_back(panel);
    return renderFigure(store, figure, QSizeF(800, 450));
}

} // namespace

TEST(ExportChecks, TheLevelIsAmberWhileItHeldRedWhereItFailed)
{
    const ExportTheme theme = ExportTheme::blog();
    {
        SampleStore store;
        const RenderedFigure held = exportTimeouts(store, 1.5);
        ASSERT_EQ(held.layout.cells.size(), 1U);
        const FigureLayout::Cell &cell = held.layout.cells[0];
        EXPECT_GT(pixelsOf(held.image, cell.plot, theme.checkLevel), 100) << "a dashed line across the plot";
        EXPECT_EQ(pixelsOf(held.image, cell.plot, theme.checkFailed), 0);
        EXPECT_TRUE(cell.leftLabels.contains(QStringLiteral("2 ops/s")))
            << "the axis reaches the level: " << cell.leftLabels.join(", ").toStdString();
    }
    SampleStore store;
    const RenderedFigure failed = exportTimeouts(store, 5);
    const FigureLayout::Cell &cell = failed.layout.cells[0];
    EXPECT_GT(pixelsOf(failed.image, cell.plot, theme.checkFailed), 100) << "a minute above the level";
    EXPECT_EQ(pixelsOf(failed.image, cell.plot, theme.checkLevel), 0);
}
