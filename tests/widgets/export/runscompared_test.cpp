// SPDX-License-Identifier: GPL-3.0-or-later
// Runs compared, as the pictures of a post show them: three runs, each in a store of its own,
// recorded at different times and of different lengths, each with its rate raised at a
// different moment. Overlaid, every run is drawn in its colour with the raise at the same x;
// side by side, every column has the raise at the same x of its plot and a second as wide.
#include "export/exportfigure.h"
#include "figurerender.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "testpaths.h"
#include "theme/palette.h"

#include <QColor>
#include <gtest/gtest.h>
#include <memory>

namespace {

constexpr qint64 kStart = 1'772'358'000'000; // 2026-03-01 09:40:00 UTC

struct StoredRun
{
    std::unique_ptr<SampleStore> store = std::make_unique<SampleStore>();
    ComparedRun compared;
};

// StoredRun i: 20 s before its raise at 10/s (+ i), then at 50/s (+ 5 i) for 60 + 30 i s.
StoredRun makeRun(int i)
{
    StoredRun run;
    const qint64 start = kStart + i * 3'600'000LL + i * 7'000;
    const qint64 raise = start + 20'000 + i * 5'000;
    const qint64 end = raise + 60'000 + i * 30'000;
    std::vector<qint64> times;
    std::vector<double> values;
    for (qint64 t = start; t <= end; t += 1000) {
        times.push_back(t);
        values.push_back(t < raise ? 10 + i : 50 + 5 * i);
    }
    const QString key = SeriesKey::ofQuery(0, 0, {}, QStringLiteral("{}"));
    run.store->merge(key, {}, times, values);
    DashboardDefinition dashboard;
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    SeriesDefinition sent;
    sent.query = QStringLiteral("sum(rate(sent[10s]))");
    sent.legend = QStringLiteral("sent/s");
    panel.series = {sent};
    dashboard.panels = {panel};
    run.compared.title = QStringLiteral("run %1").arg(i + 1);
    run.compared.store = run.store.get();
    run.compared.snapshot.dashboard = dashboard;
    run.compared.snapshot.series = {{{0, 0, key, QStringLiteral("sent/s")}}};
    Annotation raised;
    raised.id = 1;
    raised.timeMs = raise;
    raised.text = QStringLiteral("rate %1 → 500 /s").arg(10 + i);
    raised.source = Annotation::Source::Action;
    run.compared.annotations = {raised};
    run.compared.range = {start, end};
    run.compared.zeroMs = raise;
    run.compared.steady = {raise, end};
    return run;
}

bool near(QColor a, QColor b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 40;
}

// The leftmost column of a plot where the colour is drawn in its upper half (the raised level).
int firstHighColumn(const QImage &image, const QRectF &plot, QColor color)
{
    for (int x = int(plot.left()) + 1; x < int(plot.right()); ++x) {
        for (int y = int(plot.top()) + 1; y < int(plot.center().y()); ++y) {
            if (near(QColor(image.pixel(x, y)), color))
                return x;
        }
    }
    return -1;
}

std::vector<StoredRun> threeRuns()
{
    std::vector<StoredRun> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back(makeRun(i));
    return runs;
}

std::vector<ComparedRun> comparedOf(const std::vector<StoredRun> &runs)
{
    std::vector<ComparedRun> compared;
    for (const StoredRun &run : runs)
        compared.push_back(run.compared);
    return compared;
}

} // namespace

TEST(RunsCompared, OverlaidEveryRunIsDrawnInItsColourWithItsRaiseAtTheSameX)
{
    const std::vector<StoredRun> runs = threeRuns();
    ExportFigure figure = ExportFigure::fromRuns(comparedOf(runs), ExportFigure::CompareView::Overlay);
    figure.timeZone = QTimeZone::utc();
    SampleStore unused;
    {
        // The curves alone first: no label lies over a line.
        ExportFigure curves = figure;
        for (ExportFigure::Window &window : curves.compare)
            window.annotations = std::vector<Annotation>{};
        const auto [image, layout] = renderFigure(unused, curves, QSizeF(1200, 675));
        ASSERT_EQ(layout.cells.size(), 1u) << "one plot for the one panel";
        const QRectF plot = layout.cells.front().plot;
        // Aligned on the raise: the longest lead-in is 30 s of the 150 s axis (30 s before, 120 s
        // after); a second is about 7 px, the rise from the sample before takes one.
        const double expected = plot.left() + plot.width() * 30.0 / 150.0;
        for (int i = 0; i < 3; ++i) {
            const int x = firstHighColumn(image, plot, Palette::resolve(QString(), i));
            EXPECT_GE(x, 0) << "run " << i + 1 << " is drawn in its colour";
            EXPECT_NEAR(x, expected, plot.width() / 150.0 + 2) << "run " << i + 1;
        }
        if (HasFailure())
            image.save(binaryPath(QStringLiteral("tests/runs-overlaid-actual.png")));
    }

    // With the marks: a legend entry per run, and each run's raise labelled at +0:00.
    const auto [image, layout] = renderFigure(unused, figure, QSizeF(1200, 675));
    QStringList legend;
    int raiseLabels = 0;
    const QRectF plot = layout.cells.front().plot;
    for (const FigureLayout::Text &text : layout.texts) {
        if (text.role == FigureLayout::Role::Legend)
            legend << text.text;
        if ((text.role == FigureLayout::Role::AnnotationLabel || text.role == FigureLayout::Role::Key) &&
            text.text.contains(QStringLiteral("→ 500")))
            ++raiseLabels;
    }
    for (int i = 1; i <= 3; ++i)
        EXPECT_TRUE(legend.contains(QStringLiteral("run %1").arg(i))) << qPrintable(legend.join(" | "));
    EXPECT_EQ(raiseLabels, 3) << "each run's own text (10, 11, 12 → 500) at the same moment";
    for (const FigureLayout::Label &label : layout.labels)
        EXPECT_NEAR(label.lineX, plot.left() + plot.width() * 30.0 / 150.0, 1) << "at +0:00";
}

TEST(RunsCompared, SideBySideEachColumnHasItsRaiseAtTheSameXAndTheSameScale)
{
    const std::vector<StoredRun> runs = threeRuns();
    ExportFigure figure = ExportFigure::fromRuns(comparedOf(runs), ExportFigure::CompareView::SideBySide);
    figure.timeZone = QTimeZone::utc();
    SampleStore unused;
    const auto [image, layout] = renderFigure(unused, figure, QSizeF(1200, 675));
    ASSERT_EQ(layout.cells.size(), 3u);
    std::vector<double> offsets;
    for (std::size_t c = 0; c < 3; ++c) {
        const QRectF plot = layout.cells[c].plot;
        const int x = firstHighColumn(image, plot, Palette::resolve(QString(), 0));
        ASSERT_GE(x, 0) << "column " << c + 1 << " draws its run";
        offsets.push_back(double(x) - plot.left());
        EXPECT_DOUBLE_EQ(plot.width(), layout.cells[0].plot.width());
        EXPECT_EQ(layout.cells[c].leftLabels, layout.cells[0].leftLabels) << "the same value scale";
        EXPECT_GE(plot.height(), FigurePainter::kMinPlotHeight) << "never squashed";
    }
    EXPECT_NEAR(offsets[1], offsets[0], 3);
    EXPECT_NEAR(offsets[2], offsets[0], 3);
    if (HasFailure())
        image.save(binaryPath(QStringLiteral("tests/runs-side-by-side-actual.png")));
}

TEST(RunsCompared, EightRunsSideBySideMakeThePictureWiderInsteadOfThinnerColumns)
{
    std::vector<StoredRun> runs;
    for (int i = 0; i < 8; ++i)
        runs.push_back(makeRun(i % 3));
    const FigurePainter painter(*runs.front().store, ExportTheme::blog());
    const ExportFigure figure = ExportFigure::fromRuns(comparedOf(runs), ExportFigure::CompareView::SideBySide);
    const QSizeF size = painter.sizeFor(figure, QSizeF(1200, 675));
    EXPECT_GE(size.width(), 8 * FigurePainter::kMinColumnWidth);
    const auto [image, layout] = renderFigure(*runs.front().store, figure, QSizeF(1200, 675));
    ASSERT_EQ(layout.cells.size(), 8u);
    for (const FigureLayout::Cell &cell : layout.cells)
        EXPECT_GE(cell.rect.width(), FigurePainter::kMinColumnWidth - 1);
}
