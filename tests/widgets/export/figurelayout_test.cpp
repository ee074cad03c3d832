// SPDX-License-Identifier: GPL-3.0-or-later
// The rules of a publishable figure, checked on the rectangles the painter drew: every built-in
// dashboard exported whole and in selections of 1, 2 and 4 panels, at the default size and at
// 800×450, with the seed 000 annotations (actions, a note, a detector's suggestion) crowding
// the plots. No text lies on other text, every annotation label stands at its line, every
// plot keeps at least half of its panel, and nothing leaves the picture.
#include "annotations/annotation.h"
#include "dashboard/loader/dashboardloader.h"
#include "export/chartexporter.h"
#include "export/figurepainter.h"
#include "figurerender.h"
#include "store/samplestore.h"

#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <vector>

namespace {

constexpr qint64 kStart = 1772358000000; // 2026-03-01 09:40:00 UTC
constexpr qint64 kEnd = kStart + 10 * 60 * 1000;

const char *roleName(FigureLayout::Role role)
{
    switch (role) {
    case FigureLayout::Role::Title:
        return "title";
    case FigureLayout::Role::Subtitle:
        return "subtitle";
    case FigureLayout::Role::Caption:
        return "caption";
    case FigureLayout::Role::WindowTitle:
        return "window title";
    case FigureLayout::Role::PanelTitle:
        return "panel title";
    case FigureLayout::Role::ValueLabel:
        return "value label";
    case FigureLayout::Role::TimeLabel:
        return "time label";
    case FigureLayout::Role::Legend:
        return "legend";
    case FigureLayout::Role::AnnotationLabel:
        return "annotation label";
    case FigureLayout::Role::AnnotationNumber:
        return "annotation number";
    case FigureLayout::Role::Key:
        return "key";
    case FigureLayout::Role::NoData:
        return "no data";
    case FigureLayout::Role::StatValue:
        return "stat value";
    }
    return "?";
}

// Every series of a dashboard gets samples: steps, spikes and large values, so that value
// labels are wide ("1.25k ops/s") and the scales differ from panel to panel.
ExportFigure figureOf(const DashboardDefinition &dashboard, SampleStore &store)
{
    ExportFigure figure;
    figure.range = {kStart, kEnd};
    figure.columns = dashboard.columns;
    figure.title = dashboard.title;
    figure.subtitle = QStringLiteral("Raising the rate to 400/s fills the pool; an in-flight limit of 20 recovers");
    figure.source = QStringLiteral("http://127.0.0.1:9090/");
    figure.version = QStringLiteral("Chaoscope");
    figure.timeZone = QTimeZone::utc();
    int seriesIndex = 0;
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const PanelDefinition &panel = dashboard.panels[std::size_t(p)];
        ExportFigure::Panel exported{panel.title, panel.unit, panel.rightUnit, {}};
        for (int q = 0; q < int(panel.series.size()); ++q) {
            const SeriesDefinition &definition = panel.series[std::size_t(q)];
            const QString key = QStringLiteral("p%1/s%2").arg(p).arg(q);
            std::vector<qint64> times;
            std::vector<double> values;
            const double scale = std::pow(10.0, (seriesIndex++ % 5) - 1);
            for (qint64 t = kStart; t <= kEnd; t += 5000) {
                const double phase = double(t - kStart) / double(kEnd - kStart);
                times.push_back(t);
                values.push_back(scale * (150 + 250 * (phase > 0.3 && phase < 0.7) + 20 * std::sin(phase * 40)));
            }
            store.merge(key, {}, times, values);
            exported.series.push_back(
                {key, definition.legend.isEmpty() ? definition.query.left(40) : definition.legend, definition});
        }
        figure.panels.push_back(exported);
    }
    const auto mark = [&](quint64 id, qint64 at, const QString &text, Annotation::Source source) {
        Annotation a;
        a.id = id;
        a.timeMs = at;
        a.text = text;
        a.source = source;
        return a;
    };
    figure.annotations = {
        mark(1, kStart + 20'000, QStringLiteral("150/s: below the engine's ceiling (4 workers × 20 ms = 200/s)"),
             Annotation::Source::Scenario),
        mark(2, kStart + 180'000, QStringLiteral("rate 150 → 400 /s (Chaoscope starter)"), Annotation::Source::Action),
        mark(3, kStart + 200'000, QStringLiteral("#fix the pool is full: pending grows"), Annotation::Source::Manual),
        mark(4, kStart + 230'000, QStringLiteral("Detector: timeouts above 5 % for 30 s"),
             Annotation::Source::Detector),
        mark(5, kStart + 420'000, QStringLiteral("in-flight limit unlimited → 20 (Chaoscope starter)"),
             Annotation::Source::Action),
        mark(6, kStart + 590'000, QStringLiteral("recovered: completions back at the rate"),
             Annotation::Source::Manual),
    };
    figure.annotations.back().endMs = kEnd + 60'000; // a region running past the view
    return figure;
}

FigureLayout paintAndLayOut(const SampleStore &store, const ExportFigure &figure, QSize requested)
{
    RenderedFigure rendered = renderFigure(store, figure, QSizeF(requested));
    EXPECT_EQ(rendered.image.width(), requested.width()) << "a figure grows in height only";
    EXPECT_GE(rendered.image.height(), requested.height());
    return rendered.layout;
}

void expectPublishable(const FigureLayout &layout, const std::string &what)
{
    SCOPED_TRACE(what);
    ASSERT_FALSE(layout.cells.empty());
    const QRectF picture = layout.picture.adjusted(-0.5, -0.5, 0.5, 0.5);
    for (const FigureLayout::Text &text : layout.texts) {
        EXPECT_TRUE(picture.contains(text.rect))
            << roleName(text.role) << " \"" << text.text.toStdString() << "\" leaves the picture";
    }
    for (std::size_t a = 0; a < layout.texts.size(); ++a) {
        for (std::size_t b = a + 1; b < layout.texts.size(); ++b) {
            const FigureLayout::Text &x = layout.texts[a];
            const FigureLayout::Text &y = layout.texts[b];
            // Touching edges are not an overlap: a tenth of a pixel of slack.
            const QRectF inner = x.rect.adjusted(0.1, 0.1, -0.1, -0.1);
            EXPECT_FALSE(inner.intersects(y.rect)) << roleName(x.role) << " \"" << x.text.toStdString() << "\" and "
                                                   << roleName(y.role) << " \"" << y.text.toStdString() << "\" overlap";
        }
    }
    for (const FigureLayout::Cell &cell : layout.cells) {
        EXPECT_GE(cell.plot.height(), (cell.rect.height() - cell.labelBand.height()) / 2 - 0.5)
            << "a plot keeps half its panel (the label band above it not counted)";
        EXPECT_GE(cell.leftLabels.size(), 2) << "a value axis says at least two values";
    }
    for (const FigureLayout::Label &label : layout.labels) {
        const double anchor = label.leftOfLine ? label.box.right() : label.box.left();
        EXPECT_NEAR(anchor, label.lineX, 1.0) << "annotation " << label.annotation << " stands at its line";
        const FigureLayout::Cell &cell = layout.cells[std::size_t(label.cell)];
        EXPECT_TRUE(cell.labelBand.adjusted(-0.5, -0.5, 0.5, 0.5).contains(label.box))
            << "annotation " << label.annotation << " stands in the band above the plot";
        EXPECT_LE(label.box.bottom(), cell.plot.top()) << "never over the data";
        EXPECT_TRUE(label.lineX >= cell.plot.left() - 0.5 && label.lineX <= cell.plot.right() + 0.5);
    }
    for (const FigureLayout::Text &text : layout.texts) {
        if (text.role == FigureLayout::Role::AnnotationLabel || text.role == FigureLayout::Role::Key) {
            EXPECT_FALSE(text.text.contains(QChar(0x2026))) << "whole: \"" << text.text.toStdString() << '"';
        }
    }
}

struct Case
{
    const char *dashboard;
    QSize size;
};

class FigureLayoutTest : public ::testing::TestWithParam<Case>
{
};

} // namespace

TEST_P(FigureLayoutTest, WholeAndSelectionsAreLaidOutByTheRules)
{
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromBuiltin(QString::fromLatin1(GetParam().dashboard));
    ASSERT_TRUE(loaded.usable);
    SampleStore store;
    const ExportFigure whole = figureOf(loaded.dashboard, store);
    const QSize size = GetParam().size;
    expectPublishable(paintAndLayOut(store, whole, size), "whole dashboard");

    const int panels = int(whole.panels.size());
    for (int count : {1, 2, 4}) {
        if (count > panels)
            continue;
        for (int first = 0; first + count <= panels; first += count) {
            ExportFigure selection = whole;
            selection.panels.assign(whole.panels.begin() + first, whole.panels.begin() + first + count);
            const FigureLayout layout = paintAndLayOut(store, selection, size);
            expectPublishable(layout, std::to_string(count) + " panels from " + std::to_string(first));
            if (count == 1) {
                // One panel has the room to name every action.
                int actions = 0;
                for (const FigureLayout::Label &label : layout.labels)
                    actions += (label.annotation == 2 || label.annotation == 5) && label.number == 0;
                EXPECT_EQ(actions, 2) << "both actions are labelled in words";
            }
        }
    }
}

TEST(FigureLayout, AnnotationsWithoutRoomAreNumberedAndExplainedInTheKey)
{
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromBuiltin(QStringLiteral("testbed"));
    ASSERT_TRUE(loaded.usable);
    SampleStore store;
    const FigureLayout layout = paintAndLayOut(store, figureOf(loaded.dashboard, store), {800, 450});
    int numbered = 0;
    for (const FigureLayout::Label &label : layout.labels)
        numbered += label.number > 0;
    ASSERT_GT(numbered, 0) << "six panels at 800 px have no room for six labels in words";
    int keyEntries = 0;
    for (const FigureLayout::Text &text : layout.texts)
        keyEntries += text.role == FigureLayout::Role::Key;
    EXPECT_GT(keyEntries, 0);
    for (const FigureLayout::Label &label : layout.labels) {
        if (label.number == 0)
            continue;
        const QString prefix = QString::number(label.number) + QLatin1Char(' ');
        const bool explained = std::any_of(layout.texts.begin(), layout.texts.end(), [&](const FigureLayout::Text &t) {
            return t.role == FigureLayout::Role::Key && t.text.startsWith(prefix);
        });
        EXPECT_TRUE(explained) << "number " << label.number << " is in the key";
    }
}

// The whole testbed dashboard, two columns of three: the "rate 150 → 400 /s" label stood on the
// collapse in three panels, every label was repeated six times, and long ones were cut.
TEST(FigureLayout, LabelsStandOncePerColumnAboveThePlotsAndEveryPanelKeepsTheLines)
{
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromBuiltin(QStringLiteral("testbed"));
    ASSERT_TRUE(loaded.usable);
    SampleStore store;
    const ExportFigure figure = figureOf(loaded.dashboard, store);
    ASSERT_EQ(figure.columns, 2);
    const FigureLayout layout = paintAndLayOut(store, figure, {1200, 675});
    expectPublishable(layout, "the whole dashboard");
    ASSERT_EQ(layout.cells.size(), figure.panels.size());
    for (std::size_t k = 0; k < layout.cells.size(); ++k)
        EXPECT_EQ(layout.cells[k].labelBand.isEmpty(), k >= 2) << "a band above the top row only, cell " << k;
    std::map<std::pair<int, quint64>, int> perColumn;
    for (const FigureLayout::Label &label : layout.labels) {
        EXPECT_LT(label.cell, 2) << "labels stand above the top row";
        ++perColumn[{label.cell % 2, label.annotation}];
        for (const FigureLayout::Cell &cell : layout.cells)
            EXPECT_FALSE(cell.plot.intersects(label.box)) << "annotation " << label.annotation << " over a plot";
    }
    for (quint64 id = 1; id <= 6; ++id) {
        for (int column = 0; column < 2; ++column)
            EXPECT_EQ((perColumn[{column, id}]), 1) << "annotation " << id << " named once in column " << column;
    }
    std::map<int, std::set<quint64>> linesOf;
    for (const FigureLayout::Line &line : layout.lines)
        linesOf[line.cell].insert(line.annotation);
    for (int k = 0; k < int(layout.cells.size()); ++k)
        EXPECT_EQ(linesOf[k], (std::set<quint64>{1, 2, 3, 4, 5, 6})) << "every panel draws every line, cell " << k;
}

// A label longer than a plot is wide is never cut: its number stands at the line and the key
// holds the whole text, wrapped if it must be.
TEST(FigureLayout, ALabelTooLongForThePlotIsNumberedAndTheKeyHoldsItWhole)
{
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromBuiltin(QStringLiteral("testbed"));
    ASSERT_TRUE(loaded.usable);
    SampleStore store;
    ExportFigure figure = figureOf(loaded.dashboard, store);
    figure.panels.resize(1);
    QString longText;
    for (int i = 0; i < 12; ++i)
        longText += QStringLiteral("extract-data-from-document replicas %1 → %2; ").arg(i).arg(i + 1);
    figure.annotations[1].text = longText.trimmed();
    const FigureLayout layout = paintAndLayOut(store, figure, {800, 450});
    expectPublishable(layout, "a very long label");
    const auto label = std::find_if(layout.labels.begin(), layout.labels.end(),
                                    [](const FigureLayout::Label &l) { return l.annotation == 2; });
    ASSERT_NE(label, layout.labels.end());
    EXPECT_GT(label->number, 0) << "numbered";
    const auto key = std::find_if(layout.texts.begin(), layout.texts.end(), [&](const FigureLayout::Text &text) {
        return text.role == FigureLayout::Role::Key && text.text.startsWith(QString::number(label->number) + ' ');
    });
    ASSERT_NE(key, layout.texts.end());
    EXPECT_TRUE(key->text.endsWith(longText.trimmed())) << key->text.toStdString();
    EXPECT_GT(key->rect.height(), 30) << "wrapped onto several lines";
}

// The same in a picture: the axis stays at zero for a small dip, and the legend says it, at
// every legend level (names only too).
TEST(FigureLayout, ASmallDipBelowZeroIsCutAtTheAxisAndTheLegendSaysIt)
{
    const auto loaded = DashboardLoader::fromJson(R"json({"panels": [{"title": "Throughput", "unit": "ops/s",
        "series": [{"query": "sent", "legend": "sent/s"}, {"query": "sent - accepted", "legend": "sent − accepted"}]}]})json");
    ASSERT_TRUE(loaded.usable);
    SampleStore store;
    ExportFigure figure = figureOf(loaded.dashboard, store);
    figure.annotations.clear();
    std::vector<qint64> times;
    std::vector<double> sent;
    std::vector<double> difference;
    for (qint64 t = kStart; t <= kEnd; t += 5000) {
        times.push_back(t);
        sent.push_back(400);
        difference.push_back(t == kStart + 300'000 ? -30.2 : 0.1);
    }
    store.merge(figure.panels[0].series[0].key, {}, times, sent);
    store.merge(figure.panels[0].series[1].key, {}, times, difference);
    for (const QSize size : {QSize(1200, 675), QSize(420, 300)}) {
        const FigureLayout layout = paintAndLayOut(store, figure, size);
        ASSERT_EQ(layout.cells.size(), 1u);
        EXPECT_EQ(layout.cells[0].leftLabels.value(0), QStringLiteral("0 ops/s")) << "the axis starts at zero";
        const bool said = std::any_of(layout.texts.begin(), layout.texts.end(), [](const FigureLayout::Text &text) {
            return text.role == FigureLayout::Role::Legend && text.text.contains(QStringLiteral("below the axis"));
        });
        EXPECT_TRUE(said) << "at " << size.width() << " px";
    }
}

TEST(FigureLayout, SixPanelsAt800By450GrowTallerInsteadOfSquashingThePlots)
{
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromBuiltin(QStringLiteral("testbed"));
    ASSERT_TRUE(loaded.usable);
    SampleStore store;
    const ExportFigure figure = figureOf(loaded.dashboard, store);
    const ChartExporter exporter(store, ExportTheme::blog());
    const QImage image = exporter.toImage(figure, {800, 450}, 2);
    EXPECT_EQ(image.width(), 1600);
    EXPECT_GT(image.height(), 900) << "grown";
    // A single panel with an action fits as asked (six marks need more label rows above the
    // plot than 450 px have room for beside a plot of kMinPlotHeight).
    ExportFigure one = figure;
    one.panels.resize(1);
    one.annotations = {figure.annotations[1]};
    EXPECT_EQ(exporter.toImage(one, {800, 450}, 2).size(), QSize(1600, 900));
}

INSTANTIATE_TEST_SUITE_P(BuiltinDashboards, FigureLayoutTest,
                         ::testing::Values(Case{"testbed", {1200, 675}}, Case{"testbed", {800, 450}},
                                           Case{"camunda", {1200, 675}}, Case{"camunda", {800, 450}},
                                           Case{"prometheus-self", {1200, 675}}, Case{"prometheus-self", {800, 450}}),
                         [](const ::testing::TestParamInfo<Case> &param) {
                             QString name =
                                 QString::fromLatin1(param.param.dashboard).replace(QLatin1Char('-'), QLatin1Char('_'));
                             return QStringLiteral("%1_%2x%3")
                                 .arg(name)
                                 .arg(param.param.size.width())
                                 .arg(param.param.size.height())
                                 .toStdString();
                         });

TEST(FigureLayout, APanelWithManySeriesMakesOnlyItsOwnRowTaller)
{
    // Camunda's "Worker fill level": one series per job worker pod, ten names in its legend.
    SampleStore store;
    DashboardDefinition dashboard;
    dashboard.columns = 2;
    for (int p = 0; p < 6; ++p) {
        PanelDefinition panel;
        panel.title = QStringLiteral("Panel %1").arg(p);
        const int series = p == 0 ? 10 : 2;
        for (int q = 0; q < series; ++q) {
            SeriesDefinition definition;
            definition.query =
                QStringLiteral("sum(jobs_held{pod=\"extract-data-from-document-5c65b745ff-%1\"})").arg(q);
            definition.legend = QStringLiteral("extract-data-from-document-5c65b745ff-%1 jobs held").arg(q);
            panel.series.push_back(definition);
        }
        dashboard.panels.push_back(panel);
    }
    const ExportFigure figure = figureOf(dashboard, store);
    const FigureLayout layout = paintAndLayOut(store, figure, {1200, 675});
    expectPublishable(layout, "a crowded legend");
    ASSERT_EQ(layout.cells.size(), 6u);
    EXPECT_GT(layout.cells[0].rect.height(), layout.cells[2].rect.height() + 50) << "the crowded row is taller";
    EXPECT_DOUBLE_EQ(layout.cells[2].rect.height(), layout.cells[4].rect.height()) << "the others share alike";
    EXPECT_DOUBLE_EQ(layout.cells[0].rect.height(), layout.cells[1].rect.height()) << "a row is one height";
}

// An export shows what its panels show: a query limited to one panel, a note with a tag one
// panel claims, a query switched off, and a plain note on every panel.
TEST(FigureLayout, EachPanelOfAnExportDrawsTheAnnotationsItsScopeShows)
{
    const auto loaded = DashboardLoader::fromJson(R"json({"title": "Scopes",
        "annotations": [{"name": "lag", "query": "kafka_lag > 1000", "panels": ["Kafka"]},
                        {"name": "restarts", "query": "restarts > 0"}],
        "panels": [{"title": "Throughput", "series": [{"query": "rate(a[1m])"}]},
                   {"title": "Kafka", "annotationTags": ["kafka"], "series": [{"query": "kafka_lag"}]}]})json");
    ASSERT_TRUE(loaded.issues.isEmpty()) << loaded.issues.value(0).toString().toStdString();
    SampleStore store;
    ExportFigure figure = figureOf(loaded.dashboard, store);
    for (int p = 0; p < int(figure.panels.size()); ++p)
        figure.panels[std::size_t(p)].dashboardPanel = p;
    figure.annotationScope = AnnotationScope(loaded.dashboard);
    figure.annotationScope.setQueryShown(QStringLiteral("restarts"), false);
    const auto mark = [](quint64 id, qint64 at, const QString &text, Annotation::Source source, const QString &author,
                         const QStringList &tags) {
        Annotation a;
        a.id = id;
        a.timeMs = at;
        a.text = text;
        a.source = source;
        a.author = author;
        a.tags = tags;
        return a;
    };
    figure.annotations = {
        mark(1, kStart + 60'000, QStringLiteral("orders lag"), Annotation::Source::Query, QStringLiteral("lag"), {}),
        mark(2, kStart + 200'000, QStringLiteral("broker 2 down"), Annotation::Source::Manual, {},
             {QStringLiteral("kafka")}),
        mark(3, kStart + 320'000, QStringLiteral("worker restarted"), Annotation::Source::Query,
             QStringLiteral("restarts"), {}),
        mark(4, kStart + 450'000, QStringLiteral("rate 150 → 400"), Annotation::Source::Action, {}, {}),
    };
    const FigureLayout layout = paintAndLayOut(store, figure, QSize(1600, 600));
    std::map<quint64, std::set<int>> cellsOf;
    for (const FigureLayout::Line &line : layout.lines)
        cellsOf[line.annotation].insert(line.cell);
    EXPECT_EQ(cellsOf[1], std::set<int>{1}) << "the lag query marks the Kafka panel only";
    EXPECT_EQ(cellsOf[2], std::set<int>{1}) << "the #kafka note goes to the panel claiming it";
    EXPECT_FALSE(cellsOf.contains(3)) << "a query switched off is in no picture";
    EXPECT_EQ(cellsOf[4], (std::set<int>{0, 1})) << "the rest is on every panel";
}
