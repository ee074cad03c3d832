// SPDX-License-Identifier: GPL-3.0-or-later
// Exported pictures of a fixed data set compared with reference PNGs, so that a change to
// what a blog post would show is seen, and an SVG export checked for what an editor needs:
// the words as text, each series as one path.
#include "annotations/annotation.h"
#include "export/chartexporter.h"
#include "figurerender.h"
#include "store/samplestore.h"
#include "testpaths.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QXmlStreamReader>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace {

// 2026-03-01 09:40:00 UTC: a fixed ten minutes, at one sample every 5 s.
constexpr qint64 kStart = 1772358000000;
constexpr qint64 kEnd = kStart + 10 * 60 * 1000;
constexpr qint64 kStepUpMs = kStart + 3 * 60 * 1000; // rate 150 → 400 /s
constexpr qint64 kLimitMs = kStart + 7 * 60 * 1000;  // in-flight limit 20

// Seed 000 in numbers: the starter's rate steps up, the engine's completions stay at its
// ceiling, the pool fills and requests wait, then a limit brings it back.
void fill(SampleStore &store)
{
    std::vector<qint64> times;
    std::vector<double> sent, completed, leased, pending, timeouts;
    for (qint64 t = kStart; t <= kEnd; t += 5000) {
        const double wiggle = std::sin(double(t - kStart) / 23000.0) * 6;
        const bool overloaded = t >= kStepUpMs && t < kLimitMs;
        const bool limited = t >= kLimitMs;
        times.push_back(t);
        sent.push_back(limited ? 240 + wiggle : overloaded ? 400 + wiggle : 150 + wiggle);
        completed.push_back(limited ? 238 + wiggle : overloaded ? 250 + wiggle / 2 : 149 + wiggle);
        leased.push_back(overloaded ? 50 : limited ? 20 : 12 + wiggle / 3);
        pending.push_back(overloaded ? std::min(300.0, double(t - kStepUpMs) / 600.0) : 0);
        timeouts.push_back(overloaded && t > kStepUpMs + 60000 ? 90 + wiggle * 2 : 0);
    }
    store.merge(QStringLiteral("p0/sent"), {}, times, sent);
    store.merge(QStringLiteral("p0/completed"), {}, times, completed);
    store.merge(QStringLiteral("p1/leased"), {}, times, leased);
    store.merge(QStringLiteral("p1/pending"), {}, times, pending);
    store.merge(QStringLiteral("p2/timeouts"), {}, times, timeouts);
}

ExportFigure::Series series(const QString &key, const QString &name, const QString &query,
                            AxisSide axis = AxisSide::Left, SeriesStyle style = SeriesStyle::Line)
{
    SeriesDefinition definition;
    definition.query = query;
    definition.axis = axis;
    definition.style = style;
    return {key, name, definition};
}

ExportFigure figure()
{
    ExportFigure figure;
    figure.range = {kStart, kEnd};
    figure.columns = 1;
    figure.title = QStringLiteral("Seed 000: the starter's connection pool collapses");
    figure.subtitle = QStringLiteral("Raising the rate to 400/s fills the pool; an in-flight limit of 20 recovers");
    figure.source = QStringLiteral("http://127.0.0.1:9090/");
    figure.version = QStringLiteral("Chaoscope");
    figure.timeZone = QTimeZone::utc(); // the same axis labels wherever the test runs
    figure.panels.push_back(
        {QStringLiteral("Throughput"),
         QStringLiteral("ops/s"),
         QString(),
         {series(QStringLiteral("p0/sent"), QStringLiteral("sent/s"), QStringLiteral("rate(starter_sent_total[15s])")),
          series(QStringLiteral("p0/completed"), QStringLiteral("completed/s"),
                 QStringLiteral("rate(engine_completed_total[15s])"))}});
    figure.panels.push_back(
        {QStringLiteral("Connection pool"),
         QString(),
         QString(),
         {series(QStringLiteral("p1/leased"), QStringLiteral("leased"), QStringLiteral("starter_pool_leased")),
          series(QStringLiteral("p1/pending"), QStringLiteral("pending"), QStringLiteral("starter_pool_pending"),
                 AxisSide::Left, SeriesStyle::Area)}});
    figure.panels.push_back(
        {QStringLiteral("Timeouts (status 599)"),
         QStringLiteral("ops/s"),
         QString(),
         {series(QStringLiteral("p2/timeouts"), QStringLiteral("timed out/s"),
                 QStringLiteral("rate(starter_timeouts_total[15s])"), AxisSide::Left, SeriesStyle::Step)}});
    Annotation stepUp;
    stepUp.id = 1;
    stepUp.timeMs = kStepUpMs;
    stepUp.text = QStringLiteral("rate 150 → 400 /s");
    stepUp.source = Annotation::Source::Action;
    Annotation limit;
    limit.id = 2;
    limit.timeMs = kLimitMs;
    limit.text = QStringLiteral("in-flight limit 20");
    limit.source = Annotation::Source::Action;
    Annotation exhausted;
    exhausted.id = 3;
    exhausted.timeMs = kStepUpMs + 40000;
    exhausted.endMs = kLimitMs;
    exhausted.text = QStringLiteral("pool exhausted");
    exhausted.source = Annotation::Source::Detector;
    figure.annotations = {stepUp, exhausted, limit};
    return figure;
}

// The share of pixels whose colour differs from the reference by more than `tolerance` in
// any channel (antialiasing may differ by a shade between builds of the same libraries).
double differingShare(const QImage &actual, const QImage &expected, int tolerance)
{
    const QImage a = actual.convertToFormat(QImage::Format_ARGB32);
    const QImage b = expected.convertToFormat(QImage::Format_ARGB32);
    qsizetype differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto *rowA = reinterpret_cast<const QRgb *>(a.constScanLine(y));
        const auto *rowB = reinterpret_cast<const QRgb *>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int d =
                std::max({std::abs(qRed(rowA[x]) - qRed(rowB[x])), std::abs(qGreen(rowA[x]) - qGreen(rowB[x])),
                          std::abs(qBlue(rowA[x]) - qBlue(rowB[x]))});
            differing += d > tolerance ? 1 : 0;
        }
    }
    return double(differing) / double(qMax(1, a.width() * a.height()));
}

void expectMatchesGolden(const QImage &image, const QString &name)
{
    const QString reference = sourcePath(QStringLiteral("tests/fixtures/golden/") + name);
    const bool update = qEnvironmentVariable("CHAOSCOPE_UPDATE_GOLDEN") == QLatin1String("1");
    if (update || !QFile::exists(reference)) {
        QDir().mkpath(QFileInfo(reference).absolutePath());
        ASSERT_TRUE(image.save(reference, "PNG"));
        FAIL() << "wrote the reference " << qPrintable(reference)
               << (update ? " (CHAOSCOPE_UPDATE_GOLDEN=1)" : " (it was missing)")
               << ": look at it, and run again without CHAOSCOPE_UPDATE_GOLDEN";
    }
    const QImage expected(reference);
    ASSERT_FALSE(expected.isNull()) << "cannot read " << qPrintable(reference);
    ASSERT_EQ(image.size(), expected.size()) << qPrintable(name);
    const double share = differingShare(image, expected, 24);
    if (share > 0.001) {
        const QString actualPath = binaryPath(QStringLiteral("tests/golden-actual-") + name);
        image.save(actualPath, "PNG");
        FAIL() << qPrintable(name) << ": " << share * 100
               << " % of the pixels differ from the reference; this run's picture is " << qPrintable(actualPath);
    }
}

} // namespace

TEST(ExportGolden, BlogThemeAtOneTimesMatchesTheReference)
{
    SampleStore store;
    fill(store);
    const ChartExporter exporter(store, ExportTheme::blog());
    const QImage image = exporter.toImage(figure(), ChartExporter::kDefaultSize, 1);
    // Three stacked panels need a little more than 675 px to keep each plot at half its panel.
    const QSize size = exporter.sizeFor(figure(), ChartExporter::kDefaultSize);
    ASSERT_EQ(size.width(), 1200);
    ASSERT_GE(size.height(), 675);
    ASSERT_EQ(image.size(), size);
    expectMatchesGolden(image, QStringLiteral("export-blog-1x.png"));
}

TEST(ExportGolden, BlogThemeAtTwoTimesIsTheSamePictureDrawnFiner)
{
    SampleStore store;
    fill(store);
    const ChartExporter exporter(store, ExportTheme::blog());
    const QImage image = exporter.toImage(figure(), ChartExporter::kDefaultSize, 2);
    ASSERT_EQ(image.size(), exporter.sizeFor(figure(), ChartExporter::kDefaultSize) * 2);
    expectMatchesGolden(image, QStringLiteral("export-blog-2x.png"));
}

TEST(ExportGolden, SvgKeepsTheWordsAsTextAndEachSeriesAsAPath)
{
    SampleStore store;
    fill(store);
    const QByteArray svg = ChartExporter(store, ExportTheme::blog()).toSvg(figure());

    QXmlStreamReader xml(svg);
    QStringList texts;
    int paths = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        else if (xml.isStartElement() && xml.name() == QLatin1String("path"))
            ++paths;
    }
    ASSERT_FALSE(xml.hasError()) << qPrintable(xml.errorString());
    EXPECT_TRUE(texts.contains(QStringLiteral("Seed 000: the starter's connection pool collapses")))
        << qPrintable(texts.join(" | "));
    EXPECT_TRUE(texts.contains(QStringLiteral("rate 150 → 400 /s")));
    EXPECT_TRUE(texts.contains(QStringLiteral("in-flight limit 20")));
    EXPECT_TRUE(texts.contains(QStringLiteral("sent/s")));
    EXPECT_GE(paths, 5) << "one path per series";
}

TEST(ExportGolden, AnUnknownFormatOrScaleIsRefusedAndNothingIsWritten)
{
    SampleStore store;
    fill(store);
    const ChartExporter exporter(store, ExportTheme::blog());
    const QString dir = QDir::tempPath() + QStringLiteral("/chaoscope-export-refused");
    QDir(dir).removeRecursively();

    const Result<QString> gif = exporter.write(dir + QStringLiteral("/chart.gif"), figure());
    ASSERT_FALSE(gif.ok());
    EXPECT_TRUE(gif.error().message.contains(QStringLiteral(".png, .svg or .csv")));
    const Result<QString> huge =
        exporter.write(dir + QStringLiteral("/chart.png"), figure(), ChartExporter::kDefaultSize, 4);
    ASSERT_FALSE(huge.ok());
    EXPECT_TRUE(huge.error().message.contains(QStringLiteral("1, 2 or 3")));
    EXPECT_FALSE(QFile::exists(dir + QStringLiteral("/chart.png")));
}

namespace {

// The two halves of the fixed run side by side: before the limit (sent 400/s) and after it
// (240/s), each counted from its own action.
ExportFigure comparison()
{
    ExportFigure f = figure();
    f.panels.erase(f.panels.begin() + 1, f.panels.end()); // throughput only
    f.title = QStringLiteral("Same engine, two rates");
    f.subtitle.clear();
    f.compare = {{{kStart, kStart + 5 * 60 * 1000}, kStepUpMs, QStringLiteral("400 PI/s")},
                 {{kStart + 5 * 60 * 1000, kEnd}, kLimitMs, QStringLiteral("240 PI/s")}};
    return f;
}

QStringList svgTexts(const QByteArray &svg)
{
    QXmlStreamReader xml(svg);
    QStringList texts;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
    }
    return texts;
}

} // namespace

TEST(ExportGolden, ComparisonMatchesTheReference)
{
    SampleStore store;
    fill(store);
    const QImage image =
        ChartExporter(store, ExportTheme::blog()).toImage(comparison(), ChartExporter::kDefaultSize, 1);
    expectMatchesGolden(image, QStringLiteral("export-compare-1x.png"));
}

TEST(ExportGolden, ComparisonTitlesEachSideCountsFromItsZeroAndSharesTheValueScale)
{
    SampleStore store;
    fill(store);
    const QStringList texts = svgTexts(ChartExporter(store, ExportTheme::blog()).toSvg(comparison()));

    EXPECT_TRUE(texts.contains(QStringLiteral("400 PI/s"))) << qPrintable(texts.join(" | "));
    EXPECT_TRUE(texts.contains(QStringLiteral("240 PI/s")));
    EXPECT_EQ(texts.count(QStringLiteral("+0:00")), 2) << "t = 0 on each side: " << qPrintable(texts.join(" | "));
    // The right side alone peaks at ~250/s; on a shared scale it reaches as high as the left.
    EXPECT_EQ(texts.count(QStringLiteral("500 ops/s")), 2) << qPrintable(texts.join(" | "));
}

TEST(ExportGolden, RunsOfDifferentLengthsAreDrawnOnOneTimeScale)
{
    // 3:25 of one run and 0:26 of another, each from its start: the shorter side's axis
    // reaches +3:00 too, so a second is as wide on both, and its samples stop at +0:26.
    SampleStore store;
    fill(store);
    ExportFigure f = comparison();
    f.compare = {
        {{kStart, kStart + 205'000}, kStart, QStringLiteral("long run")},
        {{kStart + 5 * 60'000, kStart + 5 * 60'000 + 26'000}, kStart + 5 * 60'000, QStringLiteral("short run")}};
    f.annotations.clear(); // only the curves are coloured ink
    const QStringList texts = svgTexts(ChartExporter(store, ExportTheme::blog()).toSvg(f));
    EXPECT_EQ(texts.count(QStringLiteral("+3:00")), 2) << qPrintable(texts.join(" | "));

    const auto [image, layout] = renderFigure(store, f, QSizeF(1200, 500));
    ASSERT_EQ(layout.cells.size(), 2u);
    EXPECT_DOUBLE_EQ(layout.cells[0].plot.width(), layout.cells[1].plot.width());
    // The short run's curve ends about 26/205 of the way across its plot.
    const QRectF plot = layout.cells[1].plot;
    int rightmostInk = -1;
    for (int x = int(plot.left()) + 2; x < int(plot.right()) - 2; ++x) {
        for (int y = int(plot.top()) + 2; y < int(plot.bottom()) - 2; ++y) {
            const QColor c(image.pixel(x, y));
            if (c.saturationF() > 0.4 && c.valueF() > 0.3)
                rightmostInk = std::max(rightmostInk, x);
        }
    }
    const double expected = plot.left() + plot.width() * 26.0 / 205.0;
    EXPECT_NEAR(rightmostInk, expected, plot.width() * 0.05) << "plot " << plot.left() << ".." << plot.right();
}
