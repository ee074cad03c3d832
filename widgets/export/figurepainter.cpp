// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figurepainter.h"

#include "analysis/checkjudgement.h"
#include "analysis/phases.h"
#include "base/format.h"
#include "chart/heatmappaint.h"
#include "chart/linestroke.h"
#include "chart/seriesgeometry.h"
#include "chart/statnumber.h"
#include "store/decimator.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "store/seriesstatistics.h"
#include "theme/palette.h"
#include "timeline/annotationlayout.h"
#include "timeline/chartrender.h"
#include "timeline/heatmapgrid.h"
#include "timeline/timeticks.h"
#include "timeline/valuescale.h"

#include <QDateTime>
#include <QFontMetricsF>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <limits>

namespace {

constexpr double kGap = 8;          // between stacked parts of a panel
constexpr double kCellSpacing = 28; // between panels
constexpr double kSwatch = 22;      // legend line sample
constexpr double kLabelPadding = 5; // text inset in an annotation label
constexpr double kColourBar = 3;    // an annotation label's coloured edge
// Label rows in the band above a column's top plot; numbered boxes may take two more.
constexpr int kBandRows = 3;
constexpr int kMinTimeLabelSpacing = 80;
constexpr int kLegendLevels = 4;      // full statistics, last and max, last, names only
constexpr double kLegendSpacing = 18; // between two legend entries in a row

double xOf(qint64 t, const TimeRange &range, const QRectF &plot)
{
    return plot.left() + double(t - range.startMs) / double(std::max<qint64>(1, range.length())) * plot.width();
}

QColor withAlpha(QColor color, double alpha)
{
    color.setAlphaF(float(alpha));
    return color;
}

// A heatmap panel's grid over a plot this wide: a column per step of its samples, as on
// screen (Heatmap::columnMsFor).
HeatmapGrid heatmapOf(const SampleStore &store, const ExportFigure::Panel &panel, const TimeRange &range,
                      double plotWidth)
{
    std::vector<QString> keys;
    qint64 stepMs = 0;
    for (const ExportFigure::Series &series : panel.series) {
        keys.push_back(series.key);
        if (const SampleStore::Series *stored = store.series(series.key); stored && stepMs == 0) {
            const auto [first, last] = stored->indexRange(range);
            stepMs = ChartRender::typicalStepMs(stored->timestampsMs(), first, last);
        }
    }
    const qint64 pixelColumnMs = Decimator::columnMsFor(range, std::max(1, int(plotWidth)));
    return Heatmap::compute(store, keys, range, Heatmap::columnMsFor(stepMs, pixelColumnMs));
}

// A heatmap panel's legend line over a range (empty for other panels).
QString heatmapSummaryOf(const SampleStore &store, const ExportFigure::Panel &panel, const TimeRange &range)
{
    return panel.kind == PanelKind::Heatmap ? heatmapOf(store, panel, range, 1000).summary(panel.unit) : QString();
}

// The labels a heatmap's left axis may draw: its finite bounds.
QStringList bucketLabels(const SampleStore &store, const ExportFigure::Panel &panel)
{
    QStringList labels;
    for (const ExportFigure::Series &series : panel.series) {
        if (const SampleStore::Series *stored = store.series(series.key)) {
            const auto bound = Heatmap::parseBound(stored->labels().value(QStringLiteral("le")));
            if (bound && std::isfinite(*bound))
                labels << Format::value(*bound, panel.unit);
        }
    }
    return labels;
}

// "+1:30", "−0:45", "+1:02:00": time since a comparison window's zero.
QString relativeLabel(qint64 ms)
{
    const QChar sign = ms < 0 ? QChar(0x2212) : QLatin1Char('+');
    qint64 s = std::llabs(ms) / 1000;
    const qint64 h = s / 3600;
    const qint64 m = (s % 3600) / 60;
    s %= 60;
    if (h > 0)
        return QStringLiteral("%1%2:%3:%4")
            .arg(sign)
            .arg(h)
            .arg(m, 2, 10, QLatin1Char('0'))
            .arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1%2:%3").arg(sign).arg(m).arg(s, 2, 10, QLatin1Char('0'));
}

QString rangeText(const TimeRange &range, const QTimeZone &zone)
{
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(range.startMs, QTimeZone::utc());
    const QDateTime end = QDateTime::fromMSecsSinceEpoch(range.endMs, QTimeZone::utc());
    const QString endFormat =
        start.date() == end.date() ? QStringLiteral("HH:mm:ss") : QStringLiteral("yyyy-MM-dd HH:mm:ss");
    QString text = QStringLiteral("%1 – %2 UTC")
                       .arg(start.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), end.toString(endFormat));
    const QDateTime localStart = start.toTimeZone(zone);
    const QDateTime localEnd = end.toTimeZone(zone);
    if (zone != QTimeZone::utc() && localStart.offsetFromUtc() != 0) {
        const int offset = localStart.offsetFromUtc();
        const QString offsetText = QStringLiteral("UTC%1%2:%3")
                                       .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                                       .arg(std::abs(offset) / 3600, 2, 10, QLatin1Char('0'))
                                       .arg(std::abs(offset) % 3600 / 60, 2, 10, QLatin1Char('0'));
        text += QStringLiteral(" (%1 – %2 local, %3)")
                    .arg(localStart.toString(QStringLiteral("HH:mm:ss")), localEnd.toString(QStringLiteral("HH:mm:ss")),
                         offsetText);
    }
    return text;
}

// The scale of a data extent under the screen's tick rule for a plot this high (px).
ValueScale scaleFor(const std::optional<std::pair<double, double>> &extent, double plotHeight)
{
    const int ticks = ValueScale::targetTicksFor(plotHeight);
    return extent ? ValueScale::nice(extent->first, extent->second, ticks)
                  : ValueScale::nice(std::numeric_limits<double>::quiet_NaN(), 0, ticks);
}

bool hasRightAxis(const ExportFigure::Panel &panel)
{
    return std::any_of(panel.series.begin(), panel.series.end(),
                       [](const ExportFigure::Series &s) { return s.definition.axis == AxisSide::Right; });
}

QStringList valueLabels(const ValueScale &scale, const QString &unit)
{
    QStringList labels;
    for (int i = 0; i < scale.count(); ++i)
        labels << Format::value(scale.tick(i), unit);
    return labels;
}

// The first line; the painter elides it to the box the layout gave it.
QString annotationLabel(const Annotation &annotation)
{
    return annotation.text.section(QLatin1Char('\n'), 0, 0);
}

// The same mark, wherever it is drawn: an overlay moves a copy of it into each of its cells.
bool sameMark(const Annotation *x, const Annotation *y)
{
    return x == y || (x->id == y->id && x->timeMs == y->timeMs && annotationLabel(*x) == annotationLabel(*y));
}

} // namespace

FigurePainter::FigurePainter(const SampleStore &store, ExportTheme theme) : m_store(store), m_theme(std::move(theme)) {}

QString FigurePainter::captionText(const ExportFigure &figure) const
{
    QStringList parts;
    const bool sameTime = std::all_of(figure.compare.begin(), figure.compare.end(), [&](const ExportFigure::Window &w) {
        return w.range == figure.compare.front().range;
    });
    if (figure.isComparison() && sameTime) {
        // Runs over the same time (a variable's values): the time once.
        QStringList titles;
        for (const ExportFigure::Window &window : figure.compare)
            titles << window.title;
        parts << QStringLiteral("%1 (%2)").arg(rangeText(figure.compare.front().range, figure.timeZone),
                                               titles.join(QStringLiteral(", ")));
    } else if (figure.isComparison()) {
        for (const ExportFigure::Window &window : figure.compare) {
            const QString title = window.title.isEmpty() ? QString() : window.title + QStringLiteral(": ");
            parts << title + rangeText(window.range, figure.timeZone);
        }
    } else {
        parts << rangeText(figure.range, figure.timeZone);
    }
    const QStringList queries = figure.queryShortNames();
    if (!queries.isEmpty())
        parts << QStringLiteral("Queries: %1").arg(queries.join(QStringLiteral(", ")));
    if (!figure.source.isEmpty())
        parts << QStringLiteral("Source: %1").arg(figure.source);
    if (!figure.version.isEmpty())
        parts << figure.version;
    return parts.join(QStringLiteral(" · "));
}

// What a cell draws its series from: the panel's own samples, or one run among the runs
// overlaid in it.
struct FigurePainter::Layer
{
    const ExportFigure::Panel *panel = nullptr;
    const SampleStore *store = nullptr;
    TimeRange window;                               // its own time: the samples drawn
    TimeRange axis;                                 // the cell's time axis, in its own time
    const std::vector<Annotation> *marks = nullptr; // its own, in its own time (its checks' phases)
    int run = -1;                                   // overlaid: its colour and legend entry; -1: not
    QString title;                                  // overlaid: its name in the legend
};

struct FigurePainter::CellPlan
{
    const ExportFigure::Panel *panel = nullptr;     // title, units, kind and checks
    std::vector<Layer> layers;                      // one; or one per run overlaid
    const std::vector<Annotation> *marks = nullptr; // in the time of the axis
    TimeRange range;                                // the time axis
    TimeRange window;             // the cell's own time: its samples, marks and numbers (within range)
    std::optional<qint64> zeroMs; // comparison: time counted from here
    QRectF rect;
    // The value axes (ValueScale, as on screen); a comparison row shares them.
    ValueScale left;
    ValueScale right;
    bool hasRight = false;
    int legendLevel = 0;
    QRectF plot;
    QRectF legend;
    std::vector<const Annotation *> shown; // the annotations in this cell's range, in time order
    AnnotationLayout::Result annotations;  // their lines
    // The top cell of a column: the band above its plot, and the labels of what any cell of
    // the column shows (in time order), placed in it.
    bool carriesLabels = false;
    double bandHeight = 0;
    QRectF band;
    std::vector<const Annotation *> labelled;
    AnnotationLayout::Result labels;
    std::vector<bool> checkFailed; // per check of the panel: failed in this cell's range
    // A heatmap's legend line ("11 buckets up to 10 s · above 10 s: 0.0 %"): its grid is
    // computed once per plan, not at every legend level tried.
    QString heatmapSummary;
};

struct FigurePainter::Plan
{
    QRectF picture;
    QRectF title;
    QRectF subtitle;
    QRectF caption;
    QString captionText;
    std::vector<QRectF> windowTitles; // comparison
    std::vector<CellPlan> cells;
    // The key of numbered annotations: figure-wide numbers, in time order.
    std::vector<std::pair<int, const Annotation *>> key;
    QRectF keyRect;
    QTimeZone timeZone;       // the time axis', for the key's times
    double missingHeight = 0; // how much taller the picture must be for every plot to keep half its panel
    double missingWidth = 0;  // how much wider for every column of a comparison to keep kMinColumnWidth
    // An overlay's marks, moved to the time since their run's zero; cells point into it.
    std::deque<std::vector<Annotation>> movedMarks;
    bool relativeKey = false; // the key says "+1:30" (an overlay's marks), not a clock time
};

std::optional<std::pair<double, double>> FigurePainter::dataExtent(const CellPlan &cell, AxisSide side) const
{
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    for (const Layer &layer : cell.layers) {
        for (const ExportFigure::Series &series : layer.panel->series) {
            if (series.definition.axis != side)
                continue;
            const SampleStore::Series *stored = layer.store->series(series.key);
            if (!stored)
                continue;
            const auto [first, last] = stored->indexRange(layer.window);
            const auto values = stored->values();
            for (std::size_t i = first; i < last; ++i) {
                if (std::isfinite(values[i])) {
                    low = std::min(low, values[i]);
                    high = std::max(high, values[i]);
                }
            }
        }
    }
    if (low > high)
        return std::nullopt;
    // A check's level is part of what the panel says: the axis reaches it, as on screen.
    for (const PanelCheck &check : cell.panel->checks) {
        if (check.axis == side) {
            low = std::min(low, check.check.condition.threshold);
            high = std::max(high, check.check.condition.threshold);
        }
    }
    return std::make_pair(low, high);
}

namespace {

struct LegendItem
{
    QString name;
    QString stats;
    double width = 0;
    bool swatch = true; // a heatmap's one line of buckets has no colour of its own
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
};

// Overlaid runs are told apart by colour, the series of one run by the line's pattern.
Qt::PenStyle overlayStyle(int series)
{
    constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    return kStyles[std::size_t(series) % std::size(kStyles)];
}

// The lowest value of each axis (left, right) a cell's legend notes dips under: ValueScale
// keeps an axis at zero for a small dip below it, and the legend says so.
using AxisLows = std::array<double, 2>;

std::vector<LegendItem> legendItems(const SampleStore &store, const ExportFigure::Panel &panel, const TimeRange &range,
                                    const QString &heatmapSummary, const QFontMetricsF &metrics, int level,
                                    const AxisLows &lows, int run = -1, const QString &runTitle = {})
{
    std::vector<LegendItem> items;
    if (panel.kind == PanelKind::Heatmap) {
        // Its series are the buckets: one line says how many and how much went past them.
        LegendItem item;
        item.name = heatmapSummary;
        item.swatch = false;
        item.width = metrics.horizontalAdvance(item.name);
        if (!item.name.isEmpty())
            items.push_back(item);
        return items;
    }
    int index = 0;
    for (const ExportFigure::Series &series : panel.series) {
        LegendItem item;
        item.name = series.name;
        item.color = Palette::resolve(run >= 0 ? QString() : series.definition.color, run >= 0 ? run : index);
        if (run >= 0) {
            item.style = overlayStyle(index);
            item.name = panel.series.size() == 1 ? runTitle : QStringLiteral("%1 · %2").arg(runTitle, series.name);
        }
        ++index;
        const SampleStore::Series *stored = store.series(series.key);
        // One pass over the samples for the statistics and for the dip below the axis.
        const SeriesStatistics stats =
            stored ? SeriesStatistics::compute(stored->timestampsMs(), stored->values(), range) : SeriesStatistics{};
        const QString &unit = series.definition.axis == AxisSide::Right ? panel.rightUnit : panel.unit;
        if (stats.count > 0 && level < kLegendLevels - 1) {
            const QString last = stats.last ? Format::value(*stats.last, unit) : QStringLiteral("–");
            if (level == 0)
                item.stats = QStringLiteral("last %1 · min %2 · max %3 · mean %4")
                                 .arg(last, Format::value(stats.min, unit), Format::value(stats.max, unit),
                                      Format::value(stats.mean, unit));
            else if (level == 1)
                item.stats = QStringLiteral("last %1 · max %2").arg(last, Format::value(stats.max, unit));
            else
                item.stats = QStringLiteral("last %1").arg(last);
        }
        if (stats.count > 0 && stats.min < lows[series.definition.axis == AxisSide::Right ? 1 : 0]) {
            const QString note = QStringLiteral("↓ %1 below the axis").arg(Format::value(stats.min, unit));
            item.stats = item.stats.isEmpty() ? note : item.stats + QStringLiteral(" · ") + note;
        }
        item.width = kSwatch + 6 + metrics.horizontalAdvance(item.name) +
                     (item.stats.isEmpty() ? 0 : 8 + metrics.horizontalAdvance(item.stats));
        items.push_back(item);
    }
    return items;
}

// A cell's legend: the entries of each of its layers (Cell is FigurePainter::CellPlan).
template<typename Cell>
std::vector<LegendItem> legendOf(const Cell &cell, const QFontMetricsF &metrics, int level,
                                 const AxisLows *drawn = nullptr)
{
    // Where each axis starts: as drawn, when painting; while measuring (before the plot's
    // height and the scales are known), by ValueScale's rule over the cell's samples.
    AxisLows lows{-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    if (drawn) {
        lows = *drawn;
    } else {
        std::array<double, 2> mins{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
        std::array<double, 2> maxs{-mins[0], -mins[1]};
        for (const auto &layer : cell.layers) {
            for (const ExportFigure::Series &series : layer.panel->series) {
                if (const SampleStore::Series *stored = layer.store->series(series.key)) {
                    const SeriesStatistics stats =
                        SeriesStatistics::compute(stored->timestampsMs(), stored->values(), layer.window);
                    const std::size_t side = series.definition.axis == AxisSide::Right ? 1 : 0;
                    if (stats.count > 0) {
                        mins[side] = std::min(mins[side], stats.min);
                        maxs[side] = std::max(maxs[side], stats.max);
                    }
                }
            }
        }
        for (std::size_t side = 0; side < 2; ++side) {
            if (mins[side] <= maxs[side])
                lows[side] = ValueScale::nice(mins[side], maxs[side], 4).low;
        }
    }
    std::vector<LegendItem> items;
    for (const auto &layer : cell.layers) {
        std::vector<LegendItem> more = legendItems(*layer.store, *layer.panel, layer.window, cell.heatmapSummary,
                                                   metrics, level, lows, layer.run, layer.title);
        items.insert(items.end(), more.begin(), more.end());
    }
    return items;
}

// Draws a text and notes the box its ink takes.
void drawText(QPainter &painter, const QRectF &rect, int flags, const QString &text, FigureLayout::Role role, int cell,
              FigureLayout *layout)
{
    painter.drawText(rect, flags, text);
    if (layout && !text.isEmpty())
        layout->texts.push_back({role, painter.boundingRect(rect, flags, text), text, cell});
}

// Heights for rows that each need at least need[r] out of `available`: equal shares while
// they suffice; a row that needs more than its share gets its need and the rest share the
// remainder (water-filling). When all needs together exceed `available`, each gets its need.
std::vector<double> shareHeights(const std::vector<double> &need, double available)
{
    std::vector<double> heights(need.size(), 0);
    std::vector<bool> fixed(need.size(), false);
    for (std::size_t round = 0; round <= need.size(); ++round) {
        double left = available;
        std::size_t open = 0;
        for (std::size_t r = 0; r < need.size(); ++r) {
            if (fixed[r])
                left -= need[r];
            else
                ++open;
        }
        if (open == 0)
            break;
        const double share = left / double(open);
        bool changed = false;
        for (std::size_t r = 0; r < need.size(); ++r) {
            if (!fixed[r] && need[r] > share) {
                fixed[r] = true;
                changed = true;
            }
        }
        if (!changed) {
            for (std::size_t r = 0; r < need.size(); ++r)
                heights[r] = fixed[r] ? need[r] : share;
            return heights;
        }
    }
    for (std::size_t r = 0; r < need.size(); ++r)
        heights[r] = need[r];
    return heights;
}

// A key entry says all of the first line, with the time: the key has the room a label lacked.
// An overlay's marks are at the time since their run's zero.
QString keyLabel(const Annotation &annotation, const QTimeZone &zone, bool relative)
{
    return QStringLiteral("%1 %2").arg(
        relative ? relativeLabel(annotation.timeMs)
                 : QDateTime::fromMSecsSinceEpoch(annotation.timeMs, zone).toString(QStringLiteral("HH:mm:ss")),
        annotation.text.section(QLatin1Char('\n'), 0, 0));
}

QString numberText(int number)
{
    return QString::number(number);
}

// Where each entry of the key goes in an area `width` wide from `origin`: a numbered box and
// the whole text beside it, entries side by side while they fit; an entry longer than a row
// wraps onto as many lines as it needs, alone, so that the key always holds the whole text.
struct KeyEntry
{
    int number = 0;
    const Annotation *annotation = nullptr;
    QString text;
    QRectF box;
    QRectF textRect;
};

std::vector<KeyEntry> keyEntries(const std::vector<std::pair<int, const Annotation *>> &key,
                                 const QFontMetricsF &metrics, const QTimeZone &zone, bool relative, QPointF origin,
                                 double width)
{
    std::vector<KeyEntry> entries;
    const double rowHeight = metrics.height() + 6;
    const double right = origin.x() + width;
    double x = origin.x();
    double y = origin.y();
    for (const auto &[number, a] : key) {
        KeyEntry entry{number, a, keyLabel(*a, zone, relative), {}, {}};
        const double boxWidth = metrics.horizontalAdvance(numberText(number)) + 2 * kLabelPadding;
        const double textWidth = metrics.horizontalAdvance(entry.text) + 1;
        if (x > origin.x() && x + boxWidth + 6 + textWidth > right) {
            x = origin.x();
            y += rowHeight;
        }
        entry.box = QRectF(x, y + 1, boxWidth, rowHeight - 4);
        const double room = right - entry.box.right() - 6;
        if (textWidth <= room) {
            entry.textRect = QRectF(entry.box.right() + 6, y, textWidth, rowHeight - 2);
            x = entry.textRect.right() + kLegendSpacing;
        } else {
            const QRectF wrapped = metrics.boundingRect(QRectF(0, 0, room, 1e6), Qt::TextWordWrap, entry.text);
            entry.textRect = QRectF(entry.box.right() + 6, y + 2, room, wrapped.height());
            x = origin.x();
            y = std::max(y + rowHeight, entry.textRect.bottom() + 4);
        }
        entries.push_back(entry);
    }
    return entries;
}

double keyHeightOf(const std::vector<KeyEntry> &entries, QPointF origin)
{
    double bottom = origin.y();
    for (const KeyEntry &entry : entries)
        bottom = std::max({bottom, entry.box.bottom() + 3, entry.textRect.bottom()});
    return bottom - origin.y();
}

} // namespace

double FigurePainter::legendHeight(const CellPlan &cell, double width, int level) const
{
    const QFontMetricsF metrics(m_theme.font(m_theme.legendPx));
    const std::vector<LegendItem> items = legendOf(cell, metrics, level);
    if (items.empty())
        return 0;
    int rows = 1;
    double x = 0;
    for (const LegendItem &item : items) {
        if (x > 0 && x + item.width > width) {
            ++rows;
            x = 0;
        }
        x += item.width + kLegendSpacing;
    }
    return rows * (metrics.height() + 4);
}

double FigurePainter::fitVertically(CellPlan &cell, double leftGutter, double rightGutter) const
{
    const QRectF &rect = cell.rect;
    double top = rect.top();
    if (!cell.panel->title.isEmpty())
        top += QFontMetricsF(m_theme.font(m_theme.panelTitlePx, true)).height() + kGap;
    cell.band =
        cell.carriesLabels && cell.bandHeight > 0 ? QRectF(rect.left(), top, rect.width(), cell.bandHeight) : QRectF();
    const QFontMetricsF axisMetrics(m_theme.font(m_theme.axisPx));
    // The top value label is centred on the plot's top; the band (right of the value labels)
    // may reach down beside it.
    top = std::max(top + axisMetrics.height() / 2, top + cell.band.height());
    const double timeLabels = axisMetrics.height() + 4;
    bool fits = false;
    double legend = 0;
    const QFontMetricsF legendMetrics(m_theme.font(m_theme.legendPx));
    for (int level = 0; level < kLegendLevels; ++level) {
        cell.legendLevel = level;
        // A level whose entries do not fit a row would be cut short: the next says less, whole.
        const std::vector<LegendItem> items = legendOf(cell, legendMetrics, level);
        const bool whole =
            std::all_of(items.begin(), items.end(), [&](const LegendItem &item) { return item.width <= rect.width(); });
        if (!whole && level < kLegendLevels - 1)
            continue;
        legend = legendHeight(cell, rect.width(), level);
        const double plotHeight = rect.bottom() - legend - kGap - timeLabels - top;
        if (plotHeight >= std::max((rect.height() - cell.band.height()) / 2, kMinPlotHeight)) {
            fits = true;
            break;
        }
    }
    cell.legend = QRectF(rect.left(), rect.bottom() - legend, rect.width(), legend);
    const double bottom = rect.bottom() - legend - kGap - timeLabels;
    cell.plot = QRectF(rect.left() + leftGutter + kGap, top,
                       std::max(10.0, rect.width() - leftGutter - kGap - rightGutter), std::max(10.0, bottom - top));
    // Everything but the plot, twice, is the height at which the plot would be half the panel
    // (the label band, on top, not counted); and the plot never less than kMinPlotHeight.
    const double others = rect.height() - (bottom - top) - cell.band.height();
    return fits ? 0 : std::max(2 * others, others + kMinPlotHeight) + cell.band.height() - rect.height();
}

void FigurePainter::judgeChecks(CellPlan &cell)
{
    cell.checkFailed.clear();
    if (cell.panel->checks.empty())
        return;
    // Judged as the legend on screen and the post judge them (the one phase rule): over the
    // picture's range, each phase on its own, whatever marks this panel draws; overlaid, each
    // run in its own time.
    cell.checkFailed.assign(cell.panel->checks.size(), false);
    for (const Layer &layer : cell.layers) {
        const std::vector<Phase> phases = Phases::of(layer.window, *layer.marks);
        for (std::size_t c = 0; c < cell.panel->checks.size(); ++c) {
            const PanelCheck &check = cell.panel->checks[c];
            std::vector<CheckJudgement::Samples> judged;
            for (const ExportFigure::Series &series : layer.panel->series) {
                const SampleStore::Series *stored = layer.store->series(series.key);
                if (stored && SeriesKey::matches(check.reference, series.key))
                    judged.push_back({stored->timestampsMs(), stored->values()});
            }
            if (CheckJudgement::perPhase(check.check, judged, phases).front().failed())
                cell.checkFailed[c] = true;
        }
    }
}

void FigurePainter::planAnnotations(CellPlan &cell, const ExportFigure &figure) const
{
    cell.shown.clear();
    std::vector<AnnotationLayout::Item> items;
    for (const Annotation &a : *cell.marks) {
        if (a.timeMs > cell.window.endMs || a.endMs.value_or(a.timeMs) < cell.window.startMs)
            continue;
        if (!figure.panelShows(*cell.panel, a))
            continue;
        cell.shown.push_back(&a);
        items.push_back({a.id, a.timeMs, a.endMs, 0, a.labelPriority()});
    }
    AnnotationLayout::Options options;
    options.range = cell.range;
    options.plotLeft = cell.plot.left();
    options.plotWidth = cell.plot.width();
    options.plotTop = cell.plot.top();
    options.plotBottom = cell.plot.bottom();
    options.clusterPx = 0;
    options.rows = 0; // lines only: the labels stand in the column's band
    cell.annotations = AnnotationLayout::compute(items, options);
}

double FigurePainter::planLabelBands(Plan &plan, int columns) const
{
    const QFontMetricsF metrics(m_theme.font(m_theme.annotationPx));
    const double chrome = 2 * kLabelPadding + kColourBar;
    const double numberWidth = metrics.horizontalAdvance(QStringLiteral("99")) + 2 * kLabelPadding;
    double needed = 0;
    for (int column = 0; column < columns && column < int(plan.cells.size()); ++column) {
        CellPlan &top = plan.cells[std::size_t(column)];
        top.labelled.clear();
        for (std::size_t k = std::size_t(column); k < plan.cells.size(); k += std::size_t(columns)) {
            for (const Annotation *a : plan.cells[k].shown) {
                if (std::none_of(top.labelled.begin(), top.labelled.end(),
                                 [&](const Annotation *other) { return sameMark(a, other); }))
                    top.labelled.push_back(a);
            }
        }
        std::stable_sort(top.labelled.begin(), top.labelled.end(),
                         [](const Annotation *x, const Annotation *y) { return x->timeMs < y->timeMs; });
        std::vector<AnnotationLayout::Item> items;
        for (const Annotation *a : top.labelled) {
            // Whole, never shortened: a label without room whole gets a number, and the key
            // holds its text.
            const double width = metrics.horizontalAdvance(annotationLabel(*a)) + chrome;
            items.push_back({a->id, a->timeMs, a->endMs, width, a->labelPriority()});
        }
        AnnotationLayout::Options options;
        options.range = top.range;
        options.plotLeft = top.plot.left();
        options.plotWidth = top.plot.width();
        // The rows hang from the band's top; the band is as tall as the rows taken.
        options.plotTop = top.band.isEmpty() ? top.plot.top() : top.band.top();
        options.plotBottom = options.plotTop + 1e6;
        // A published chart names every mark: no "+N" badges, a numbered box where a label has no room.
        options.clusterPx = 0;
        options.labelGap = 0; // the label's coloured edge is on its line
        options.rows = kBandRows;
        options.rowHeight = metrics.height() + 4;
        options.minShownFraction = 1.0;
        options.numberWidth = [numberWidth](int) { return numberWidth; };
        top.labels = AnnotationLayout::compute(items, options);
        for (const AnnotationLayout::Group &group : top.labels.groups) {
            if (!group.label.isEmpty())
                needed = std::max(needed, group.label.bottom() - options.plotTop + 3);
        }
    }
    return needed;
}

FigurePainter::Plan FigurePainter::plan(const QRectF &rect, const ExportFigure &figure) const
{
    Plan plan;
    plan.picture = rect;
    plan.timeZone = figure.timeZone;
    QRectF area = rect.adjusted(m_theme.margin, m_theme.margin, -m_theme.margin, -m_theme.margin);
    if (!figure.title.isEmpty()) {
        const double height = QFontMetricsF(m_theme.font(m_theme.titlePx, true)).height();
        plan.title = QRectF(area.left(), area.top(), area.width(), height);
        area.setTop(area.top() + height + 2);
    }
    if (!figure.subtitle.isEmpty()) {
        const double height = QFontMetricsF(m_theme.font(m_theme.subtitlePx)).height();
        plan.subtitle = QRectF(area.left(), area.top(), area.width(), height);
        area.setTop(area.top() + height);
    }
    if (!figure.title.isEmpty() || !figure.subtitle.isEmpty())
        area.setTop(area.top() + kGap * 1.5);
    if (figure.caption) {
        plan.captionText = captionText(figure);
        const QRectF bounds =
            QFontMetricsF(m_theme.font(m_theme.captionPx))
                .boundingRect(QRectF(0, 0, area.width(), 1e6), Qt::AlignLeft | Qt::TextWordWrap, plan.captionText);
        plan.caption = QRectF(area.left(), area.bottom() - bounds.height(), area.width(), bounds.height());
        area.setBottom(plan.caption.top() - kGap * 1.5);
    }
    const int panelCount = int(figure.panels.size());
    if (panelCount == 0)
        return plan;

    // Cells, scales and gutters for an area; run again when the label band's height changes,
    // and when numbered annotations need a key.
    const QRectF cellsArea = area;
    double band = 0;   // the label band's height, as the last lay-out measured it
    double needed = 0; // what the labels of the last lay-out need
    const auto layOut = [&](const QRectF &cellArea) {
        plan.cells.clear();
        plan.windowTitles.clear();
        plan.missingHeight = 0;
        plan.missingWidth = 0;
        QRectF grid = cellArea;
        int rows = 0;
        int columns = 0;
        const bool sideBySide = figure.isComparison() && figure.compareView == ExportFigure::CompareView::SideBySide;
        if (sideBySide) {
            columns = std::max(1, int(figure.compare.size())); // two or more, by isComparison
            rows = panelCount;
            const double headerHeight = QFontMetricsF(m_theme.font(m_theme.panelTitlePx + 3, true)).height() + kGap;
            const double cellWidth = (grid.width() - kCellSpacing * (columns - 1)) / columns;
            for (int c = 0; c < columns; ++c)
                plan.windowTitles.emplace_back(grid.left() + c * (cellWidth + kCellSpacing), grid.top(), cellWidth,
                                               headerHeight);
            grid.setTop(grid.top() + headerHeight);
            plan.missingWidth = std::max(0.0, columns * kMinColumnWidth + kCellSpacing * (columns - 1) - grid.width());
        } else {
            columns = std::clamp(figure.columns, 1, panelCount);
            rows = (panelCount + columns - 1) / columns;
        }
        const double cellWidth = (grid.width() - kCellSpacing * (columns - 1)) / columns;
        const double cellHeight = (grid.height() - kCellSpacing * (rows - 1)) / rows;
        const auto cellRect = [&](int row, int column) {
            return QRectF(grid.left() + column * (cellWidth + kCellSpacing),
                          grid.top() + row * (cellHeight + kCellSpacing), cellWidth, cellHeight);
        };
        if (figure.isComparison()) {
            planComparison(plan, figure);
            for (std::size_t k = 0; k < plan.cells.size(); ++k)
                plan.cells[k].rect = cellRect(int(k) / columns, int(k) % columns);
        } else {
            for (int i = 0; i < panelCount; ++i) {
                CellPlan cell;
                cell.panel = &figure.panels[std::size_t(i)];
                cell.range = figure.range;
                cell.window = cell.range;
                cell.marks = &figure.annotations;
                cell.layers.push_back({cell.panel, &m_store, cell.window, cell.range, cell.marks, -1, {}});
                cell.rect = cellRect(i / columns, i % columns);
                cell.heatmapSummary = heatmapSummaryOf(m_store, *cell.panel, cell.window);
                plan.cells.push_back(cell);
            }
        }
        for (std::size_t k = 0; k < plan.cells.size() && k < std::size_t(columns); ++k) {
            plan.cells[k].carriesLabels = true;
            plan.cells[k].bandHeight = band;
        }
        // Row heights: equal while every row fits in its share; a row whose panels need more
        // (the least each needs: names-only legends and a plot of half the panel) gets that,
        // and the other rows share what is left. What the picture lacks for all of them is
        // what it must grow by (sizeFor) -- only the rows that need it get taller. The top
        // row's label band is on top of its share, so that its plots are as tall as the others.
        std::vector<double> need(std::size_t(rows), 0);
        for (std::size_t k = 0; k < plan.cells.size(); ++k) {
            CellPlan probe = plan.cells[k];
            probe.rect.setHeight(1);
            const std::size_t row = k / std::size_t(columns);
            need[row] = std::max(need[row], 1 + fitVertically(probe, 0, 0) - probe.band.height());
        }
        const double shared = grid.height() - kCellSpacing * (rows - 1) - band;
        std::vector<double> heights = shareHeights(need, shared);
        heights.front() += band;
        double sum = 0;
        for (double n : need)
            sum += n;
        plan.missingHeight = std::max(0.0, sum - shared);
        std::vector<double> rowTops(std::size_t(rows), grid.top());
        for (std::size_t r = 1; r < rowTops.size(); ++r)
            rowTops[r] = rowTops[r - 1] + heights[r - 1] + kCellSpacing;
        for (std::size_t k = 0; k < plan.cells.size(); ++k) {
            const std::size_t row = k / std::size_t(columns);
            plan.cells[k].rect.setTop(rowTops[row]);
            plan.cells[k].rect.setHeight(heights[row]);
        }
        // Then the plots, the scales for them, and the gutters: the widest value labels of any
        // panel set those of all, so time axes line up across the picture.
        for (CellPlan &cell : plan.cells) {
            cell.hasRight = hasRightAxis(*cell.panel);
            fitVertically(cell, 0, 0);
        }
        for (std::size_t first = 0; first < plan.cells.size();) {
            // A comparison row shares its value scales: the lowest plot of the row chooses.
            const std::size_t count = sideBySide ? std::size_t(columns) : 1;
            double plotHeight = std::numeric_limits<double>::infinity();
            std::optional<std::pair<double, double>> left, right;
            for (std::size_t k = first; k < first + count; ++k) {
                const CellPlan &cell = plan.cells[k];
                plotHeight = std::min(plotHeight, cell.plot.height());
                for (auto [side, extent] :
                     {std::make_pair(AxisSide::Left, &left), std::make_pair(AxisSide::Right, &right)}) {
                    if (const auto e = dataExtent(cell, side)) {
                        *extent = *extent ? std::make_pair(std::min((*extent)->first, e->first),
                                                           std::max((*extent)->second, e->second))
                                          : *e;
                    }
                }
            }
            for (std::size_t k = first; k < first + count; ++k) {
                plan.cells[k].left = scaleFor(left, plotHeight);
                plan.cells[k].right = scaleFor(right, plotHeight);
            }
            first += count;
        }
        const QFontMetricsF axisMetrics(m_theme.font(m_theme.axisPx));
        double leftGutter = 0;
        double rightGutter = axisMetrics.horizontalAdvance(QStringLiteral("00:00")) / 2; // the last time label
        for (const CellPlan &cell : plan.cells) {
            if (cell.panel->kind == PanelKind::Heatmap) {
                // Bucket bounds on the left, the colour scale and its top rate on the right.
                for (const QString &label : bucketLabels(*cell.layers.front().store, *cell.panel))
                    leftGutter = std::max(leftGutter, axisMetrics.horizontalAdvance(label));
                rightGutter = std::max(rightGutter, kGap + 12 + axisMetrics.horizontalAdvance(QStringLiteral("000k")));
                continue;
            }
            for (const QString &label : valueLabels(cell.left, cell.panel->unit))
                leftGutter = std::max(leftGutter, axisMetrics.horizontalAdvance(label));
            if (cell.hasRight) {
                for (const QString &label : valueLabels(cell.right, cell.panel->rightUnit))
                    rightGutter = std::max(rightGutter, axisMetrics.horizontalAdvance(label) + kGap);
            }
        }
        for (CellPlan &cell : plan.cells)
            fitVertically(cell, leftGutter, rightGutter);
        for (CellPlan &cell : plan.cells) {
            planAnnotations(cell, figure);
            judgeChecks(cell);
        }
        needed = planLabelBands(plan, columns);
    };
    layOut(cellsArea);
    // The labels' places do not depend on the band's height (only on the plots' widths), so a
    // second lay-out with the band they need settles it; the band only grows, so they fit.
    for (int attempt = 0; attempt < 2 && needed > band + 0.5; ++attempt) {
        band = std::max(band, needed);
        layOut(cellsArea);
    }

    // The key: every annotation that got a number in some panel, numbered across the figure.
    const auto collectKey = [&] {
        std::vector<const Annotation *> numbered;
        for (const CellPlan &cell : plan.cells) {
            for (const AnnotationLayout::Group &group : cell.labels.groups) {
                if (group.number > 0) {
                    const Annotation *a =
                        cell.labelled[std::size_t(cell.labels.markers[std::size_t(group.markers.front())].item)];
                    if (std::none_of(numbered.begin(), numbered.end(),
                                     [&](const Annotation *other) { return sameMark(a, other); }))
                        numbered.push_back(a);
                }
            }
        }
        std::sort(numbered.begin(), numbered.end(),
                  [](const Annotation *x, const Annotation *y) { return x->timeMs < y->timeMs; });
        plan.key.clear();
        for (std::size_t i = 0; i < numbered.size(); ++i)
            plan.key.emplace_back(int(i) + 1, numbered[i]);
    };
    collectKey();
    if (plan.key.empty())
        return plan;
    const QFontMetricsF keyMetrics(m_theme.font(m_theme.annotationPx));
    const auto keyHeight = [&] {
        return keyHeightOf(
            keyEntries(plan.key, keyMetrics, figure.timeZone, plan.relativeKey, QPointF(0, 0), cellsArea.width()),
            QPointF(0, 0));
    };
    const double height = keyHeight();
    QRectF withKey = cellsArea;
    withKey.setBottom(cellsArea.bottom() - height - kGap * 1.5);
    layOut(withKey);
    if (needed > band + 0.5) {
        band = needed;
        layOut(withKey);
    }
    collectKey();
    plan.keyRect = QRectF(cellsArea.left(), cellsArea.bottom() - keyHeight(), cellsArea.width(), keyHeight());
    return plan;
}

void FigurePainter::planComparison(Plan &plan, const ExportFigure &figure) const
{
    const int panelCount = int(figure.panels.size());
    const auto storeOf = [&](const ExportFigure::Window &window) { return window.store ? window.store : &m_store; };
    const auto panelOf = [&](const ExportFigure::Window &window, int index) {
        const std::vector<ExportFigure::Panel> &own = figure.panelsOf(window);
        return index < int(own.size()) ? &own[std::size_t(index)] : &figure.panels[std::size_t(index)];
    };
    // One time scale: every side's (every run's) axis reaches as far before and after its zero
    // as the longest does, so a second is as wide everywhere; a shorter run ends where its
    // time ends, and the rest of its axis stays empty.
    qint64 before = 0;
    qint64 after = 0;
    for (const ExportFigure::Window &window : figure.compare) {
        before = std::max(before, window.zeroMs - window.range.startMs);
        after = std::max(after, window.range.endMs - window.zeroMs);
    }
    const auto axisOf = [&](const ExportFigure::Window &window) {
        return TimeRange{window.zeroMs - before, window.zeroMs + after};
    };
    if (figure.compareView == ExportFigure::CompareView::SideBySide) {
        for (int r = 0; r < panelCount; ++r) {
            for (const ExportFigure::Window &window : figure.compare) {
                CellPlan cell;
                cell.panel = panelOf(window, r);
                cell.range = axisOf(window);
                cell.window = window.range;
                cell.zeroMs = window.zeroMs;
                cell.marks = &figure.annotationsOf(window);
                cell.layers.push_back({cell.panel, storeOf(window), cell.window, cell.range, cell.marks, -1, {}});
                cell.heatmapSummary = heatmapSummaryOf(*storeOf(window), *cell.panel, cell.window);
                plan.cells.push_back(cell);
            }
        }
        return;
    }
    // Overlaid: one cell per panel on the time since the zero; each run a colour, its marks
    // moved to that time, a mark that several runs share at the same moment drawn once.
    for (int r = 0; r < panelCount; ++r) {
        CellPlan cell;
        cell.panel = &figure.panels[std::size_t(r)];
        cell.range = {-before, after};
        cell.window = cell.range;
        cell.zeroMs = 0;
        std::vector<Annotation> moved;
        for (int c = 0; c < int(figure.compare.size()); ++c) {
            const ExportFigure::Window &window = figure.compare[std::size_t(c)];
            const std::vector<Annotation> &own = figure.annotationsOf(window);
            cell.layers.push_back({panelOf(window, r), storeOf(window), window.range, axisOf(window), &own, c,
                                   window.title.isEmpty() ? QStringLiteral("run %1").arg(c + 1) : window.title});
            for (const Annotation &annotation : own) {
                if (annotation.timeMs > window.range.endMs ||
                    annotation.endMs.value_or(annotation.timeMs) < window.range.startMs)
                    continue;
                Annotation shifted = annotation;
                shifted.timeMs -= window.zeroMs;
                if (shifted.endMs)
                    *shifted.endMs = std::min(*shifted.endMs, window.range.endMs) - window.zeroMs;
                const QString line = annotationLabel(shifted);
                const bool shown = std::any_of(moved.begin(), moved.end(), [&](const Annotation &other) {
                    return std::llabs(other.timeMs - shifted.timeMs) < 1000 && annotationLabel(other) == line;
                });
                if (!shown)
                    moved.push_back(shifted);
            }
        }
        std::stable_sort(moved.begin(), moved.end(),
                         [](const Annotation &a, const Annotation &b) { return a.timeMs < b.timeMs; });
        plan.movedMarks.push_back(std::move(moved));
        cell.marks = &plan.movedMarks.back();
        plan.relativeKey = true;
        plan.cells.push_back(cell);
    }
}

QSizeF FigurePainter::sizeFor(const ExportFigure &figure, QSizeF requested) const
{
    QSizeF size = requested;
    // Growing changes the caption's and key's share only a little: a second look settles it.
    for (int attempt = 0; attempt < 3; ++attempt) {
        const Plan planned = plan(QRectF(QPointF(0, 0), size), figure);
        if (planned.missingHeight <= 0.5 && planned.missingWidth <= 0.5)
            break;
        size.setHeight(std::ceil(size.height() + planned.missingHeight));
        size.setWidth(std::ceil(size.width() + planned.missingWidth));
    }
    return size;
}

void FigurePainter::paint(QPainter &painter, const QRectF &rect, const ExportFigure &figure, FigureLayout *layout) const
{
    const Plan planned = plan(rect, figure);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(rect, m_theme.background);
    if (layout)
        layout->picture = rect;
    if (!planned.title.isEmpty()) {
        const QFont font = m_theme.font(m_theme.titlePx, true);
        painter.setFont(font);
        painter.setPen(m_theme.text);
        drawText(painter, planned.title, Qt::AlignLeft | Qt::AlignVCenter,
                 QFontMetricsF(font).elidedText(figure.title, Qt::ElideRight, planned.title.width()),
                 FigureLayout::Role::Title, -1, layout);
    }
    if (!planned.subtitle.isEmpty()) {
        const QFont font = m_theme.font(m_theme.subtitlePx);
        painter.setFont(font);
        painter.setPen(m_theme.mutedText);
        drawText(painter, planned.subtitle, Qt::AlignLeft | Qt::AlignVCenter,
                 QFontMetricsF(font).elidedText(figure.subtitle, Qt::ElideRight, planned.subtitle.width()),
                 FigureLayout::Role::Subtitle, -1, layout);
    }
    if (!planned.caption.isEmpty()) {
        painter.setFont(m_theme.font(m_theme.captionPx));
        painter.setPen(m_theme.mutedText);
        drawText(painter, planned.caption, Qt::AlignLeft | Qt::TextWordWrap, planned.captionText,
                 FigureLayout::Role::Caption, -1, layout);
    }
    if (!planned.windowTitles.empty()) {
        const QFont font = m_theme.font(m_theme.panelTitlePx + 3, true);
        painter.setFont(font);
        painter.setPen(m_theme.text);
        for (std::size_t c = 0; c < planned.windowTitles.size(); ++c) {
            const QRectF &header = planned.windowTitles[c];
            drawText(painter, header, Qt::AlignHCenter | Qt::AlignTop,
                     QFontMetricsF(font).elidedText(figure.compare[c].title, Qt::ElideRight, header.width()),
                     FigureLayout::Role::WindowTitle, -1, layout);
        }
    }
    for (int i = 0; i < int(planned.cells.size()); ++i) {
        const CellPlan &cell = planned.cells[std::size_t(i)];
        paintCell(painter, cell, i, layout);
        paintTimeAxis(painter, cell, i, figure.timeZone, layout);
        paintAnnotations(painter, cell, i, planned, layout);
        paintLegend(painter, cell, i, layout);
    }
    paintKey(painter, planned, layout);
    painter.restore();
}

void FigurePainter::paintCell(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const
{
    const ExportFigure::Panel &panel = *cell.panel;
    const QRectF &rect = cell.rect;
    const QRectF &plot = cell.plot;
    if (!panel.title.isEmpty()) {
        // Overlaid runs that each draw one series, the same: the legend names the runs, the
        // title the quantity first ("engine completed/s (Throughput)"), the panel after it.
        QString title = panel.title;
        const QString quantity = cell.layers.size() > 1 && !cell.layers.front().panel->series.empty()
                                     ? cell.layers.front().panel->series.front().name
                                     : QString();
        const bool oneQuantity =
            !quantity.isEmpty() && std::all_of(cell.layers.begin(), cell.layers.end(), [&](const Layer &layer) {
                return layer.panel->series.size() == 1 && layer.panel->series.front().name == quantity;
            });
        if (oneQuantity)
            title = QStringLiteral("%1 (%2)").arg(quantity, panel.title);
        const QFont font = m_theme.font(m_theme.panelTitlePx, true);
        const double height = QFontMetricsF(font).height();
        painter.setFont(font);
        painter.setPen(m_theme.text);
        drawText(painter, QRectF(rect.left(), rect.top(), rect.width(), height), Qt::AlignLeft | Qt::AlignVCenter,
                 QFontMetricsF(font).elidedText(title, Qt::ElideRight, rect.width()), FigureLayout::Role::PanelTitle,
                 index, layout);
    }

    // Grid and value labels, where the curves put the same values (SeriesGeometry's mapping,
    // as on screen). A label that would touch the one below it is left out (its grid line
    // stays); the lowest label is always drawn.
    const QFont axisFont = m_theme.font(m_theme.axisPx);
    const QFontMetricsF axisMetrics(axisFont);
    painter.setFont(axisFont);
    QStringList drawnLeft;
    const auto drawAxis = [&](const ValueScale &scale, const QString &unit, bool rightSide) {
        const QStringList labels = valueLabels(scale, unit);
        const auto mapping = SeriesGeometry::Mapping::of(cell.range, scale.low, scale.high, plot);
        double lastTop = std::numeric_limits<double>::infinity();
        for (int i = 0; i < scale.count(); ++i) {
            const double y = mapping.y(scale.tick(i));
            if (!rightSide) {
                painter.setPen(QPen(m_theme.grid, 1));
                painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
            }
            const QRectF box = rightSide ? QRectF(plot.right() + kGap, y - axisMetrics.height() / 2,
                                                  rect.right() - plot.right() - kGap, axisMetrics.height())
                                         : QRectF(rect.left(), y - axisMetrics.height() / 2,
                                                  plot.left() - kGap - rect.left(), axisMetrics.height());
            if (box.bottom() > lastTop - 1)
                continue;
            painter.setPen(m_theme.mutedText);
            drawText(painter, box, (rightSide ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter, labels.value(i),
                     FigureLayout::Role::ValueLabel, index, layout);
            lastTop = box.top();
            if (!rightSide)
                drawnLeft << labels.value(i);
        }
    };
    if (panel.kind == PanelKind::Heatmap) {
        paintHeatmap(painter, cell, index, layout);
        painter.setPen(QPen(m_theme.axis, 1));
        painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    } else {
        drawAxis(cell.left, panel.unit, false);
        if (cell.hasRight)
            drawAxis(cell.right, panel.rightUnit, true);
        painter.setPen(QPen(m_theme.axis, 1));
        painter.drawLine(plot.bottomLeft(), plot.bottomRight());
        painter.save();
        painter.setClipRect(
            plot.adjusted(-m_theme.lineWidth, -m_theme.lineWidth, m_theme.lineWidth, m_theme.lineWidth));
        paintSeries(painter, cell);
        paintChecks(painter, cell);
        painter.restore();
    }

    if (panel.kind == PanelKind::Stat)
        paintStatValues(painter, cell, index, layout);

    bool anyData = false;
    for (const Layer &layer : cell.layers) {
        for (const ExportFigure::Series &series : layer.panel->series) {
            const auto [first, last] = layer.store->indexRange(series.key, layer.window);
            anyData = anyData || last > first;
        }
    }
    if (!anyData) {
        painter.setFont(m_theme.font(m_theme.legendPx));
        painter.setPen(m_theme.mutedText);
        drawText(painter, plot, Qt::AlignCenter, QStringLiteral("No data in this time range"),
                 FigureLayout::Role::NoData, index, layout);
    }
    if (layout)
        layout->cells.push_back({rect, plot, cell.band, drawnLeft, cell.legendLevel, cell.checkFailed});
}

// A heatmap's cells, bucket bounds and colour scale, by the screen's painter (HeatmapPaint).
void FigurePainter::paintHeatmap(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const
{
    const ExportFigure::Panel &panel = *cell.panel;
    const HeatmapGrid grid = heatmapOf(*cell.layers.front().store, panel, cell.window, cell.plot.width());
    if (grid.rows() == 0)
        return;
    const HeatmapPaint paint(grid, Heatmap::rowEdges(grid.upperBounds, panel.buckets == BucketScale::Log), cell.range,
                             cell.plot,
                             HeatmapPaint::Look{m_theme.font(m_theme.axisPx), m_theme.mutedText, m_theme.background,
                                                m_theme.background.lightnessF() < 0.5});
    painter.save();
    painter.setClipRect(cell.plot);
    paint.paintCells(&painter);
    painter.restore();
    std::vector<HeatmapPaint::Label> labels = paint.paintBucketLabels(&painter, cell.plot.left() - kGap, panel.unit);
    const std::vector<HeatmapPaint::Label> scale =
        paint.paintScale(&painter, QRectF(cell.plot.right() + kGap, cell.plot.top(),
                                          cell.rect.right() - cell.plot.right() - kGap, cell.plot.height()));
    labels.insert(labels.end(), scale.begin(), scale.end());
    if (layout) {
        for (const HeatmapPaint::Label &label : labels)
            layout->texts.push_back({FigureLayout::Role::ValueLabel, label.box, label.text, index});
    }
}

// A stat tile's numbers, as on screen: the newest value of each series in the range, in its
// threshold colour, over the upper part of the sparkline, each on a small veil of the
// background so that the line stays visible and keeps its colour around them.
void FigurePainter::paintStatValues(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const
{
    const ExportFigure::Panel &panel = *cell.panel;
    if (panel.series.empty())
        return;
    const int count = int(std::min<std::size_t>(panel.series.size(), 4));
    const QRectF area(cell.plot.left(), cell.plot.top(), cell.plot.width(), cell.plot.height() * 0.6);
    const double width = area.width() / count;
    const QFont nameFont = m_theme.font(m_theme.legendPx);
    const double nameHeight = QFontMetricsF(nameFont).height();
    const QFont numberFont = m_theme.font(m_theme.legendPx, true);
    const QSizeF numberBox(width * 0.95, (area.height() - nameHeight) * 0.85);
    const double maxPx = m_theme.titlePx * 2.5;
    std::vector<Format::ValueParts> parts;
    std::vector<QColor> colors;
    double pixels = maxPx;
    for (int i = 0; i < count; ++i) {
        const ExportFigure::Series &series = panel.series[std::size_t(i)];
        const QString &unit = series.definition.axis == AxisSide::Right ? panel.rightUnit : panel.unit;
        Format::ValueParts value{QStringLiteral("–"), {}};
        QColor color = m_theme.text;
        if (const SampleStore::Series *stored = cell.layers.front().store->series(series.key)) {
            const SeriesStatistics stats =
                SeriesStatistics::compute(stored->timestampsMs(), stored->values(), cell.window);
            if (stats.last) {
                value = Format::valueParts(*stats.last, unit);
                const QString threshold = ThresholdSteps::colorFor(panel.thresholds, *stats.last);
                if (!threshold.isEmpty())
                    color = Palette::resolve(threshold, i);
            }
        }
        pixels = std::min(pixels, StatNumber::fittingPixelSize(numberFont, value, numberBox, maxPx));
        parts.push_back(value);
        colors.push_back(color);
    }
    QFont probe = numberFont;
    probe.setPixelSize(std::max(1, int(pixels)));
    const double numberHeight = QFontMetricsF(probe).height();
    for (int i = 0; i < count; ++i) {
        const double left = area.left() + i * width;
        const double top = area.top() + (area.height() - numberHeight - nameHeight) / 2;
        const Format::ValueParts &value = parts[std::size_t(i)];
        const QRectF box(left, top, width, numberHeight);
        // A veil behind the number and its name only, so the sparkline keeps its colour
        // everywhere else: painted once to measure, then over the veil.
        const QRectF measured = StatNumber::paint(painter, numberFont, pixels, value, box, Qt::transparent);
        painter.fillRect(measured.adjusted(-6, 0, 6, nameHeight), withAlpha(m_theme.background, 0.85));
        const QRectF ink = StatNumber::paint(painter, numberFont, pixels, value, box, colors[std::size_t(i)]);
        if (layout)
            layout->texts.push_back({FigureLayout::Role::StatValue, ink,
                                     value.unit.isEmpty() ? value.number : value.number + QLatin1Char(' ') + value.unit,
                                     index});
        painter.setFont(nameFont);
        painter.setPen(m_theme.mutedText);
        drawText(painter, QRectF(left, top + numberHeight, width, nameHeight), Qt::AlignCenter,
                 QFontMetricsF(nameFont).elidedText(panel.series[std::size_t(i)].name, Qt::ElideRight, width),
                 FigureLayout::Role::StatValue, index, layout);
    }
}

void FigurePainter::paintTimeAxis(QPainter &painter, const CellPlan &cell, int index, const QTimeZone &zone,
                                  FigureLayout *layout) const
{
    const QRectF &plot = cell.plot;
    const QFont font = m_theme.font(m_theme.axisPx);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    const qint64 zero = cell.zeroMs.value_or(0);
    const qint64 offsetMs =
        cell.zeroMs ? 0 : qint64(QDateTime::fromMSecsSinceEpoch(cell.range.startMs, zone).offsetFromUtc()) * 1000;
    const TimeRange shifted{cell.range.startMs - zero, cell.range.endMs - zero};
    const TimeTicks::Ticks ticks = TimeTicks::compute(shifted, int(plot.width()), kMinTimeLabelSpacing, offsetMs);
    // A time label may reach into the gutters by half the gap, not into the value labels
    // there, and never out of its panel.
    const double leftLimit = plot.left() - kGap / 2;
    // A heatmap's colour scale is in its right gutter; its cells take no grid lines over them
    // (painted before them on screen, they are painted after them here).
    const bool heatmap = cell.panel->kind == PanelKind::Heatmap;
    const double rightLimit = cell.hasRight || heatmap ? plot.right() + kGap / 2 : cell.rect.right();
    for (qint64 t : ticks.instantsMs) {
        const double x = xOf(t + zero, cell.range, plot);
        if (!heatmap) {
            painter.setPen(QPen(m_theme.grid, 1));
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
        const QString label =
            cell.zeroMs ? relativeLabel(t) : QDateTime::fromMSecsSinceEpoch(t, zone).toString(ticks.labelFormat);
        const double width = metrics.horizontalAdvance(label);
        if (x - width / 2 < leftLimit || x + width / 2 > rightLimit)
            continue;
        painter.setPen(m_theme.mutedText);
        drawText(painter, QRectF(x - width / 2 - 2, plot.bottom() + 4, width + 4, metrics.height()), Qt::AlignCenter,
                 label, FigureLayout::Role::TimeLabel, index, layout);
    }
}

void FigurePainter::paintSeries(QPainter &painter, const CellPlan &cell) const
{
    const QRectF &plot = cell.plot;
    const ValueScale &left = cell.left;
    const ValueScale &right = cell.right;
    const qint64 columnMs = Decimator::columnMsFor(cell.range, int(plot.width()));
    // An SVG keeps each series as one path, for the editors a post goes through; a raster
    // picture strokes the runs as the chart does.
    const bool vector = painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::SVG;
    for (const Layer &layer : cell.layers) {
        int index = 0;
        for (const ExportFigure::Series &series : layer.panel->series) {
            // Overlaid runs are told apart by colour, a run's series by the line's pattern.
            const int seriesIndex = index++;
            const QColor color = layer.run >= 0 ? Palette::resolve(QString(), layer.run)
                                                : Palette::resolve(series.definition.color, seriesIndex);
            const SampleStore::Series *stored = layer.store->series(series.key);
            if (!stored || stored->isEmpty())
                continue;
            const auto [first, last] = stored->indexRange(layer.window);
            // The screen's gap rule, at the step the samples in view were fetched at.
            const qint64 gapMs =
                ChartRender::gapMsFor(ChartRender::typicalStepMs(stored->timestampsMs(), first, last), columnMs);
            const Decimator::Points points =
                Decimator::m4(stored->timestampsMs(), stored->values(), layer.window, columnMs, gapMs);
            const ValueScale &scale = series.definition.axis == AxisSide::Right ? right : left;
            const bool step = series.definition.style == SeriesStyle::Step;

            // Areas are filled down to the axis per run of samples, then stroked like a line.
            // The runs are the chart's (SeriesGeometry), so a picture draws gaps and steps as
            // the panel does. A layer's own time maps to the cell's axis through its own range.
            const SeriesGeometry::Mapping mapping =
                SeriesGeometry::Mapping::of(layer.axis, scale.low, scale.high, plot);
            const std::vector<QPolygonF> runs =
                SeriesGeometry::polylines(points.timestampsMs, points.values, mapping, step);
            QPainterPath fill;
            const double base = mapping.y(std::clamp(0.0, scale.low, scale.high));
            for (const QPolygonF &run : runs) {
                if (series.definition.style == SeriesStyle::Area && layer.run < 0 && run.size() >= 2) {
                    QPainterPath area;
                    area.addPolygon(SeriesGeometry::areaOf(run, base));
                    area.closeSubpath();
                    fill.addPath(area);
                }
            }
            if (!fill.isEmpty())
                painter.fillPath(fill, withAlpha(color, 0.18));
            // Bevel joins: round ones cost the raster engine several times more per point, and
            // at these widths nobody sees the difference.
            QPen pen(color, m_theme.lineWidth, layer.run >= 0 ? overlayStyle(seriesIndex) : Qt::SolidLine);
            pen.setJoinStyle(Qt::BevelJoin);
            pen.setCapStyle(Qt::FlatCap);
            painter.setBrush(Qt::NoBrush);
            if (vector) {
                // One path per series (an SVG <path>); a gap starts a new subpath.
                QPainterPath line;
                for (const QPolygonF &run : runs)
                    line.addPolygon(run);
                painter.setPen(pen);
                painter.drawPath(line);
            } else {
                for (const QPolygonF &run : runs)
                    LineStroke::draw(&painter, pen, run); // the chart's stroke, at the cost of the columns
            }
        }
    }
}

void FigurePainter::paintChecks(QPainter &painter, const CellPlan &cell) const
{
    const QFont font = m_theme.font(m_theme.annotationPx);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    for (const PanelLevel &level : PanelChecks::levels(cell.panel->checks, cell.checkFailed)) {
        const ValueScale &scale = level.axis == AxisSide::Right ? cell.right : cell.left;
        const double value = level.value;
        if (scale.high <= scale.low || value < scale.low || value > scale.high)
            continue;
        const auto mapping = SeriesGeometry::Mapping::of(cell.range, scale.low, scale.high, cell.plot);
        const double y = std::round(mapping.y(value)) + 0.5; // on a pixel row: crisp, as on screen
        const QColor colour = level.failed ? m_theme.checkFailed : m_theme.checkLevel;
        QPen pen(colour, 1.0, Qt::DashLine);
        painter.setPen(pen);
        painter.drawLine(QPointF(cell.plot.left(), y), QPointF(cell.plot.right(), y));
        // The name at the right end, above the line where there is room, else below it.
        const QString label = metrics.elidedText(level.label, Qt::ElideRight, cell.plot.width() / 2);
        const double width = metrics.horizontalAdvance(label);
        const double top = y - metrics.height() - 2 >= cell.plot.top() ? y - metrics.height() - 2 : y + 2;
        const QRectF box(cell.plot.right() - width - 6, top, width + 4, metrics.height());
        painter.fillRect(box, withAlpha(m_theme.background, 0.8));
        painter.setPen(colour);
        painter.drawText(box, Qt::AlignCenter, label);
    }
}

void FigurePainter::paintAnnotations(QPainter &painter, const CellPlan &cell, int index, const Plan &plan,
                                     FigureLayout *layout) const
{
    const QRectF &plot = cell.plot;
    // The lines of what this cell shows, over its plot; in a column's top cell they rise
    // through the band to the labels.
    const double lineTop = cell.band.isEmpty() ? plot.top() : cell.band.top();
    const AnnotationLayout::Result &lines = cell.annotations;
    painter.save();
    painter.setClipRect(QRectF(plot.left(), lineTop, plot.width(), plot.bottom() - lineTop));
    for (const AnnotationLayout::Marker &marker : lines.markers) {
        const Annotation &a = *cell.shown[std::size_t(marker.item)];
        const QColor color = Palette::annotationColor(a.source, a.failed);
        if (marker.endX) {
            // Shaded only over the cell's own time: a comparison's shorter run has none past it.
            const double x0 = std::max(xOf(cell.window.startMs, cell.range, plot), marker.x);
            const double x1 = std::min(xOf(cell.window.endMs, cell.range, plot), *marker.endX);
            painter.fillRect(QRectF(x0, plot.top(), std::max(1.0, x1 - x0), plot.height()), withAlpha(color, 0.10));
        }
        if (marker.startVisible) {
            QPen pen(color, std::max(1.5, m_theme.lineWidth * 0.6), Qt::DashLine);
            painter.setPen(pen);
            painter.drawLine(QPointF(marker.x, plot.top()), QPointF(marker.x, plot.bottom()));
            if (layout)
                layout->lines.push_back({a.id, marker.x, index});
        }
    }
    // In the band, a thin solid stem from each label to the plot: the label reads as hanging
    // from its line, whichever cell below draws it.
    const AnnotationLayout::Result &labels = cell.labels;
    for (const AnnotationLayout::Marker &marker : labels.markers) {
        if (!marker.startVisible || cell.band.isEmpty())
            continue;
        const Annotation &a = *cell.labelled[std::size_t(marker.item)];
        const QColor color = Palette::annotationColor(a.source, a.failed);
        painter.setPen(QPen(withAlpha(color, 0.7), 1));
        painter.drawLine(QPointF(marker.x, lineTop), QPointF(marker.x, plot.top()));
    }
    painter.restore();

    const QFont font = m_theme.font(m_theme.annotationPx);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    for (const AnnotationLayout::Group &group : labels.groups) {
        if (group.label.isEmpty())
            continue;
        const Annotation &a = *cell.labelled[std::size_t(labels.markers[std::size_t(group.markers.front())].item)];
        const QColor color = Palette::annotationColor(a.source, a.failed);
        if (group.number > 0) {
            int number = 0;
            for (const auto &[n, keyed] : plan.key) {
                if (sameMark(keyed, &a))
                    number = n;
            }
            painter.setPen(Qt::NoPen);
            painter.setBrush(color);
            painter.drawRoundedRect(group.label, 3, 3);
            painter.setPen(Qt::white);
            drawText(painter, group.label, Qt::AlignCenter, numberText(number), FigureLayout::Role::AnnotationNumber,
                     index, nullptr);
            if (layout) {
                layout->texts.push_back({FigureLayout::Role::AnnotationNumber, group.label, numberText(number), index});
                layout->labels.push_back({a.id, group.label, group.x, group.leftOfLine, number, index});
            }
            continue;
        }
        // The coloured edge is on the line's side, so the label reads as hanging from its line.
        painter.setPen(QPen(withAlpha(color, 0.6), 1));
        painter.setBrush(m_theme.background);
        painter.drawRect(group.label);
        const double barLeft = group.leftOfLine ? group.label.right() - kColourBar : group.label.left();
        painter.fillRect(QRectF(barLeft, group.label.top(), kColourBar, group.label.height()), color);
        painter.setPen(color.darker(130));
        const QRectF textBox = group.leftOfLine
                                   ? group.label.adjusted(kLabelPadding, 0, -kColourBar - kLabelPadding, 0)
                                   : group.label.adjusted(kColourBar + kLabelPadding, 0, -kLabelPadding, 0);
        // Whole: the band gave it its whole width (AnnotationLayout never shortens it here).
        const QString text = annotationLabel(a);
        painter.drawText(textBox, Qt::AlignLeft | Qt::AlignVCenter, text);
        if (layout) {
            layout->texts.push_back({FigureLayout::Role::AnnotationLabel, group.label, text, index});
            layout->labels.push_back({a.id, group.label, group.x, group.leftOfLine, 0, index});
        }
    }
    painter.setBrush(Qt::NoBrush);
}

void FigurePainter::paintKey(QPainter &painter, const Plan &plan, FigureLayout *layout) const
{
    if (plan.key.empty())
        return;
    const QFont font = m_theme.font(m_theme.annotationPx);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    for (const KeyEntry &entry :
         keyEntries(plan.key, metrics, plan.timeZone, plan.relativeKey, plan.keyRect.topLeft(), plan.keyRect.width())) {
        const QColor color = Palette::annotationColor(entry.annotation->source, entry.annotation->failed);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRoundedRect(entry.box, 3, 3);
        painter.setPen(Qt::white);
        painter.drawText(entry.box, Qt::AlignCenter, numberText(entry.number));
        painter.setPen(m_theme.text);
        painter.drawText(entry.textRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, entry.text);
        if (layout)
            layout->texts.push_back(
                {FigureLayout::Role::Key,
                 entry.box.united(painter.boundingRect(
                     entry.textRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, entry.text)),
                 numberText(entry.number) + QLatin1Char(' ') + entry.text, -1});
    }
    painter.setBrush(Qt::NoBrush);
}

void FigurePainter::paintLegend(QPainter &painter, const CellPlan &cell, int index, FigureLayout *layout) const
{
    const QRectF &rect = cell.legend;
    const QFont font = m_theme.font(m_theme.legendPx);
    const QFontMetricsF metrics(font);
    const AxisLows drawn{cell.left.low, cell.hasRight ? cell.right.low : -std::numeric_limits<double>::infinity()};
    const std::vector<LegendItem> items = legendOf(cell, metrics, cell.legendLevel, &drawn);
    painter.setFont(font);
    double x = rect.left();
    double y = rect.top();
    const double rowHeight = metrics.height() + 4;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const LegendItem &item = items[i];
        if (x > rect.left() && x + item.width > rect.right()) {
            x = rect.left();
            y += rowHeight;
        }
        double textX = x;
        if (item.swatch) {
            QPen pen(item.color, m_theme.lineWidth + 1, item.style);
            pen.setCapStyle(item.style == Qt::SolidLine ? Qt::RoundCap : Qt::FlatCap);
            painter.setPen(pen);
            const double mid = y + rowHeight / 2;
            painter.drawLine(QPointF(x + 2, mid), QPointF(x + kSwatch - 2, mid));
            textX += kSwatch + 6;
        }
        painter.setPen(m_theme.text);
        const QString name = metrics.elidedText(item.name, Qt::ElideRight, rect.right() - textX);
        const double nameWidth = metrics.horizontalAdvance(name);
        drawText(painter, QRectF(textX, y, std::min(nameWidth + 2, rect.right() - textX), rowHeight),
                 Qt::AlignLeft | Qt::AlignVCenter, name, FigureLayout::Role::Legend, index, layout);
        textX += nameWidth + 8;
        if (!item.stats.isEmpty() && textX < rect.right()) {
            painter.setPen(m_theme.mutedText);
            drawText(painter, QRectF(textX, y, rect.right() - textX, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(item.stats, Qt::ElideRight, rect.right() - textX), FigureLayout::Role::Legend,
                     index, layout);
        }
        x += item.width + kLegendSpacing;
    }
}
