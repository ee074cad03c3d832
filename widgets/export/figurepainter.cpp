// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figurepainter.h"

#include "base/format.h"
#include "store/decimator.h"
#include "store/samplestore.h"
#include "store/seriesstatistics.h"
#include "theme/palette.h"
#include "timeline/annotationlayout.h"
#include "timeline/seriesgeometry.h"
#include "timeline/timeticks.h"

#include <QDateTime>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <limits>

namespace {

constexpr double kGap = 8;          // between stacked parts of a panel
constexpr double kCellSpacing = 28; // between panels
constexpr double kSwatch = 22;      // legend line sample
constexpr double kLabelPadding = 5; // text inset in an annotation label
constexpr double kColourBar = 3;    // an annotation label's coloured edge
constexpr double kMaxLabelWidth = 260;
constexpr int kMinTimeLabelSpacing = 110;

double xOf(qint64 t, const TimeRange &range, const QRectF &plot)
{
    return plot.left() + double(t - range.startMs) / double(std::max<qint64>(1, range.length())) * plot.width();
}

QColor withAlpha(QColor color, double alpha)
{
    color.setAlphaF(float(alpha));
    return color;
}

// Gaps are breaks in the line: a sample missing for longer than 2.5 typical intervals. The
// typical interval is the median distance of the samples in view (the step they were
// fetched at), as a picture has no poller to ask.
qint64 gapFor(std::span<const qint64> times, std::size_t first, std::size_t last, qint64 columnMs)
{
    std::vector<qint64> deltas;
    for (std::size_t i = first + 1; i < last && deltas.size() < 512; ++i)
        deltas.push_back(times[i] - times[i - 1]);
    if (deltas.empty())
        return 0;
    std::nth_element(deltas.begin(), deltas.begin() + std::ptrdiff_t(deltas.size() / 2), deltas.end());
    return std::max<qint64>(deltas[deltas.size() / 2] * 5 / 2, columnMs * 2);
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

QString annotationLabel(const Annotation &annotation, const QFontMetricsF &metrics)
{
    const QString firstLine = annotation.text.section(QLatin1Char('\n'), 0, 0);
    return metrics.elidedText(firstLine, Qt::ElideRight, kMaxLabelWidth);
}

} // namespace

FigurePainter::FigurePainter(const SampleStore &store, ExportTheme theme) : m_store(store), m_theme(std::move(theme)) {}

std::optional<std::pair<double, double>> FigurePainter::dataExtent(const ExportFigure::Panel &panel, AxisSide side,
                                                                   const TimeRange &range) const
{
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    for (const ExportFigure::Series &series : panel.series) {
        if (series.definition.axis != side)
            continue;
        const SampleStore::Series *stored = m_store.series(series.key);
        if (!stored)
            continue;
        const auto [first, last] = stored->indexRange(range);
        const auto values = stored->values();
        for (std::size_t i = first; i < last; ++i) {
            if (std::isfinite(values[i])) {
                low = std::min(low, values[i]);
                high = std::max(high, values[i]);
            }
        }
    }
    if (low > high)
        return std::nullopt;
    return std::make_pair(low, high);
}

QString FigurePainter::captionText(const ExportFigure &figure) const
{
    QStringList parts;
    if (figure.isComparison()) {
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

void FigurePainter::paint(QPainter &painter, const QRectF &rect, const ExportFigure &figure,
                          std::vector<DrawnPlot> *drawn) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(rect, m_theme.background);
    QRectF area = rect.adjusted(m_theme.margin, m_theme.margin, -m_theme.margin, -m_theme.margin);

    if (!figure.title.isEmpty()) {
        const QFont font = m_theme.font(m_theme.titlePx, true);
        painter.setFont(font);
        painter.setPen(m_theme.text);
        const double height = QFontMetricsF(font).height();
        painter.drawText(QRectF(area.left(), area.top(), area.width(), height), Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetricsF(font).elidedText(figure.title, Qt::ElideRight, area.width()));
        area.setTop(area.top() + height + 2);
    }
    if (!figure.subtitle.isEmpty()) {
        const QFont font = m_theme.font(m_theme.subtitlePx);
        painter.setFont(font);
        painter.setPen(m_theme.mutedText);
        const double height = QFontMetricsF(font).height();
        painter.drawText(QRectF(area.left(), area.top(), area.width(), height), Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetricsF(font).elidedText(figure.subtitle, Qt::ElideRight, area.width()));
        area.setTop(area.top() + height);
    }
    if (!figure.title.isEmpty() || !figure.subtitle.isEmpty())
        area.setTop(area.top() + kGap * 1.5);

    if (figure.caption) {
        const QFont font = m_theme.font(m_theme.captionPx);
        const QString text = captionText(figure);
        const QRectF bounds =
            QFontMetricsF(font).boundingRect(QRectF(0, 0, area.width(), 1e6), Qt::AlignLeft | Qt::TextWordWrap, text);
        const QRectF captionRect(area.left(), area.bottom() - bounds.height(), area.width(), bounds.height());
        painter.setFont(font);
        painter.setPen(m_theme.mutedText);
        painter.drawText(captionRect, Qt::AlignLeft | Qt::TextWordWrap, text);
        area.setBottom(captionRect.top() - kGap * 1.5);
    }

    const int panelCount = int(figure.panels.size());
    if (panelCount == 0) {
        painter.restore();
        return;
    }

    std::vector<std::pair<QRectF, Cell>> cells;
    if (figure.isComparison()) {
        // One column per window, one row per panel; each panel row shares its value scales.
        const int columns = int(figure.compare.size());
        const QFont headerFont = m_theme.font(m_theme.panelTitlePx + 3, true);
        const double headerHeight = QFontMetricsF(headerFont).height() + kGap;
        const double cellWidth = (area.width() - kCellSpacing * (columns - 1)) / columns;
        painter.setFont(headerFont);
        painter.setPen(m_theme.text);
        for (int c = 0; c < columns; ++c) {
            const QRectF header(area.left() + c * (cellWidth + kCellSpacing), area.top(), cellWidth, headerHeight);
            painter.drawText(header, Qt::AlignHCenter | Qt::AlignTop, figure.compare[std::size_t(c)].title);
        }
        area.setTop(area.top() + headerHeight);
        const double cellHeight = (area.height() - kCellSpacing * (panelCount - 1)) / panelCount;
        for (int r = 0; r < panelCount; ++r) {
            const ExportFigure::Panel &panel = figure.panels[std::size_t(r)];
            std::optional<std::pair<double, double>> left, right;
            for (const ExportFigure::Window &window : figure.compare) {
                for (auto [side, extent] :
                     {std::make_pair(AxisSide::Left, &left), std::make_pair(AxisSide::Right, &right)}) {
                    if (const auto e = dataExtent(panel, side, window.range)) {
                        *extent = *extent ? std::make_pair(std::min((*extent)->first, e->first),
                                                           std::max((*extent)->second, e->second))
                                          : *e;
                    }
                }
            }
            const std::size_t first = cells.size();
            double plotHeight = std::numeric_limits<double>::infinity(); // the row's lowest plot
            for (int c = 0; c < columns; ++c) {
                const ExportFigure::Window &window = figure.compare[std::size_t(c)];
                Cell cell;
                cell.panel = &panel;
                cell.range = window.range;
                cell.zeroMs = window.zeroMs;
                const QRectF cellRect(area.left() + c * (cellWidth + kCellSpacing),
                                      area.top() + r * (cellHeight + kCellSpacing), cellWidth, cellHeight);
                plotHeight = std::min(plotHeight, plotRectOf(cellRect, cell, Gutters{}).height());
                cells.emplace_back(cellRect, cell);
            }
            for (std::size_t k = first; k < cells.size(); ++k) {
                cells[k].second.left = scaleFor(left, plotHeight);
                cells[k].second.right = scaleFor(right, plotHeight);
            }
        }
    } else {
        const int columns = std::clamp(figure.columns, 1, panelCount);
        const int rows = (panelCount + columns - 1) / columns;
        const double cellWidth = (area.width() - kCellSpacing * (columns - 1)) / columns;
        const double cellHeight = (area.height() - kCellSpacing * (rows - 1)) / rows;
        for (int i = 0; i < panelCount; ++i) {
            Cell cell;
            cell.panel = &figure.panels[std::size_t(i)];
            cell.range = figure.range;
            const int row = i / columns; // whole rows above this cell
            const int column = i % columns;
            cells.emplace_back(QRectF(area.left() + column * (cellWidth + kCellSpacing),
                                      area.top() + row * (cellHeight + kCellSpacing), cellWidth, cellHeight),
                               cell);
        }
    }

    // Every plot starts at the same x and ends at the same x: the widest value labels of any
    // panel set the gutters of all, so time axes line up across the picture.
    Gutters gutters;
    for (auto &[cellRect, cell] : cells) {
        // The tick rule of the screen, for this plot's height (TimelineChart does the same).
        const double plotHeight = plotRectOf(cellRect, cell, Gutters{}).height();
        if (!cell.left)
            cell.left = scaleFor(dataExtent(*cell.panel, AxisSide::Left, cell.range), plotHeight);
        if (!cell.right)
            cell.right = scaleFor(dataExtent(*cell.panel, AxisSide::Right, cell.range), plotHeight);
        const Gutters own = guttersOf(cell);
        gutters.left = std::max(gutters.left, own.left);
        gutters.right = std::max(gutters.right, own.right);
    }
    for (const auto &[cellRect, cell] : cells) {
        DrawnPlot plot = paintCell(painter, cellRect, cell, gutters, figure.annotations, figure.timeZone);
        if (drawn)
            drawn->push_back(std::move(plot));
    }
    painter.restore();
}

FigurePainter::Gutters FigurePainter::guttersOf(const Cell &cell) const
{
    const QFontMetricsF axisMetrics(m_theme.font(m_theme.axisPx));
    Gutters gutters;
    for (const QString &label : valueLabels(*cell.left, cell.panel->unit))
        gutters.left = std::max(gutters.left, axisMetrics.horizontalAdvance(label));
    gutters.right = axisMetrics.horizontalAdvance(QStringLiteral("00:00")) / 2; // room for the last time label
    if (hasRightAxis(*cell.panel)) {
        for (const QString &label : valueLabels(*cell.right, cell.panel->rightUnit))
            gutters.right = std::max(gutters.right, axisMetrics.horizontalAdvance(label) + kGap);
    }
    return gutters;
}

QRectF FigurePainter::plotRectOf(const QRectF &rect, const Cell &cell, const Gutters &gutters) const
{
    double top = rect.top();
    if (!cell.panel->title.isEmpty())
        top += QFontMetricsF(m_theme.font(m_theme.panelTitlePx, true)).height() + kGap;
    const QFontMetricsF axisMetrics(m_theme.font(m_theme.axisPx));
    const double legend = legendHeight(cell, rect.width());
    const double timeLabels = axisMetrics.height() + 4;
    return QRectF(rect.left() + gutters.left + kGap, top + axisMetrics.height() / 2,
                  std::max(10.0, rect.width() - gutters.left - kGap - gutters.right),
                  std::max(10.0, rect.bottom() - legend - kGap - timeLabels - top - axisMetrics.height() / 2));
}

FigurePainter::DrawnPlot FigurePainter::paintCell(QPainter &painter, const QRectF &rect, const Cell &cell,
                                                  const Gutters &gutters, const std::vector<Annotation> &annotations,
                                                  const QTimeZone &zone) const
{
    const ExportFigure::Panel &panel = *cell.panel;
    const double top = rect.top();
    if (!panel.title.isEmpty()) {
        const QFont font = m_theme.font(m_theme.panelTitlePx, true);
        const double height = QFontMetricsF(font).height();
        painter.setFont(font);
        painter.setPen(m_theme.text);
        painter.drawText(QRectF(rect.left(), top, rect.width(), height), Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetricsF(font).elidedText(panel.title, Qt::ElideRight, rect.width()));
    }

    const bool hasRight = hasRightAxis(panel);
    const ValueScale left = *cell.left;
    const ValueScale right = *cell.right;
    const QFont axisFont = m_theme.font(m_theme.axisPx);
    const QFontMetricsF axisMetrics(axisFont);
    const QStringList leftLabels = valueLabels(left, panel.unit);
    const QStringList rightLabels = hasRight ? valueLabels(right, panel.rightUnit) : QStringList();
    const double leftGutter = gutters.left;
    const double rightGutter = gutters.right;
    const double legend = legendHeight(cell, rect.width());
    const QRectF plot = plotRectOf(rect, cell, gutters);

    // Grid and value labels, where the curves put the same values (SeriesGeometry's mapping,
    // as on screen).
    painter.setFont(axisFont);
    const auto leftMapping = SeriesGeometry::Mapping::of(cell.range, left.low, left.high, plot);
    for (int i = 0; i < left.count(); ++i) {
        const double y = leftMapping.y(left.tick(i));
        painter.setPen(QPen(m_theme.grid, 1));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(m_theme.mutedText);
        painter.drawText(QRectF(rect.left(), y - axisMetrics.height() / 2, leftGutter, axisMetrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, leftLabels.value(i));
    }
    const auto rightMapping = SeriesGeometry::Mapping::of(cell.range, right.low, right.high, plot);
    for (int i = 0; hasRight && i < right.count(); ++i) {
        const double y = rightMapping.y(right.tick(i));
        painter.setPen(m_theme.mutedText);
        painter.drawText(QRectF(plot.right() + kGap, y - axisMetrics.height() / 2, rightGutter, axisMetrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, rightLabels.value(i));
    }
    paintTimeAxis(painter, plot, cell, zone);
    painter.setPen(QPen(m_theme.axis, 1));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());

    painter.save();
    painter.setClipRect(plot.adjusted(-m_theme.lineWidth, -m_theme.lineWidth, m_theme.lineWidth, m_theme.lineWidth));
    paintSeries(painter, plot, cell, left, right);
    painter.restore();
    paintAnnotations(painter, plot, cell, annotations);

    bool anyData = false;
    for (const ExportFigure::Series &series : panel.series) {
        const auto [first, last] = m_store.indexRange(series.key, cell.range);
        anyData = anyData || last > first;
    }
    if (!anyData) {
        painter.setFont(m_theme.font(m_theme.legendPx));
        painter.setPen(m_theme.mutedText);
        painter.drawText(plot, Qt::AlignCenter, QStringLiteral("No data in this time range"));
    }
    paintLegend(painter, QRectF(rect.left(), rect.bottom() - legend, rect.width(), legend), cell);
    return DrawnPlot{plot, leftLabels};
}

void FigurePainter::paintTimeAxis(QPainter &painter, const QRectF &plot, const Cell &cell, const QTimeZone &zone) const
{
    const QFont font = m_theme.font(m_theme.axisPx);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    const qint64 zero = cell.zeroMs.value_or(0);
    const qint64 offsetMs =
        cell.zeroMs ? 0 : qint64(QDateTime::fromMSecsSinceEpoch(cell.range.startMs, zone).offsetFromUtc()) * 1000;
    const TimeRange shifted{cell.range.startMs - zero, cell.range.endMs - zero};
    const TimeTicks::Ticks ticks = TimeTicks::compute(shifted, int(plot.width()), kMinTimeLabelSpacing, offsetMs);
    for (qint64 t : ticks.instantsMs) {
        const double x = xOf(t + zero, cell.range, plot);
        painter.setPen(QPen(m_theme.grid, 1));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const QString label =
            cell.zeroMs ? relativeLabel(t) : QDateTime::fromMSecsSinceEpoch(t, zone).toString(ticks.labelFormat);
        const double width = metrics.horizontalAdvance(label);
        painter.setPen(m_theme.mutedText);
        painter.drawText(QRectF(x - width / 2 - 2, plot.bottom() + 4, width + 4, metrics.height()), Qt::AlignCenter,
                         label);
    }
}

void FigurePainter::paintSeries(QPainter &painter, const QRectF &plot, const Cell &cell, const ValueScale &left,
                                const ValueScale &right) const
{
    const qint64 columnMs = Decimator::columnMsFor(cell.range, int(plot.width()));
    int index = 0;
    for (const ExportFigure::Series &series : cell.panel->series) {
        const QColor color = Palette::resolve(series.definition.color, index++);
        const SampleStore::Series *stored = m_store.series(series.key);
        if (!stored || stored->isEmpty())
            continue;
        const auto [first, last] = stored->indexRange(cell.range);
        const qint64 gapMs = gapFor(stored->timestampsMs(), first, last, columnMs);
        const Decimator::Points points =
            Decimator::m4(stored->timestampsMs(), stored->values(), cell.range, columnMs, gapMs);
        const ValueScale &scale = series.definition.axis == AxisSide::Right ? right : left;
        const bool step = series.definition.style == SeriesStyle::Step;

        // One path per series (an SVG <path>); a gap starts a new subpath. Areas are filled
        // down to the axis per run of samples, then stroked like a line. The runs are the
        // chart's (SeriesGeometry), so a picture draws gaps and steps as the panel does.
        const SeriesGeometry::Mapping mapping = SeriesGeometry::Mapping::of(cell.range, scale.low, scale.high, plot);
        QPainterPath line;
        QPainterPath fill;
        const double base = mapping.y(std::clamp(0.0, scale.low, scale.high));
        for (const QPolygonF &run : SeriesGeometry::polylines(points.timestampsMs, points.values, mapping, step)) {
            line.addPolygon(run);
            if (series.definition.style == SeriesStyle::Area && run.size() >= 2) {
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
        QPen pen(color, m_theme.lineWidth);
        pen.setJoinStyle(Qt::BevelJoin);
        pen.setCapStyle(Qt::FlatCap);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(line);
    }
}

void FigurePainter::paintAnnotations(QPainter &painter, const QRectF &plot, const Cell &cell,
                                     const std::vector<Annotation> &annotations) const
{
    const QFont font = m_theme.font(m_theme.annotationPx);
    const QFontMetricsF metrics(font);
    std::vector<const Annotation *> shown;
    std::vector<AnnotationLayout::Item> items;
    for (const Annotation &a : annotations) {
        if (a.timeMs > cell.range.endMs || a.endMs.value_or(a.timeMs) < cell.range.startMs)
            continue;
        shown.push_back(&a);
        const double width = metrics.horizontalAdvance(annotationLabel(a, metrics)) + 2 * kLabelPadding + kColourBar;
        items.push_back({a.id, a.timeMs, a.endMs, width});
    }
    if (items.empty())
        return;
    AnnotationLayout::Options options;
    options.range = cell.range;
    options.plotLeft = plot.left();
    options.plotWidth = plot.width();
    options.plotTop = plot.top();
    options.plotBottom = plot.bottom();
    // A published chart names every action: labels stack in rows instead of folding into "+N".
    options.clusterPx = 0;
    options.rows = std::max(2, int(plot.height() / 2 / (metrics.height() + 8)));
    options.rowHeight = metrics.height() + 4;
    options.badgeWidth = [&](int n) {
        return metrics.horizontalAdvance(QStringLiteral("+%1").arg(n)) + 2 * kLabelPadding;
    };
    const AnnotationLayout::Result layout = AnnotationLayout::compute(items, options);

    painter.save();
    painter.setClipRect(plot);
    for (const AnnotationLayout::Marker &marker : layout.markers) {
        const Annotation &a = *shown[std::size_t(marker.item)];
        const QColor color = Palette::annotationColor(a.source, a.failed);
        if (marker.endX) {
            const double x0 = std::max(plot.left(), marker.x);
            const double x1 = std::min(plot.right(), *marker.endX);
            painter.fillRect(QRectF(x0, plot.top(), std::max(1.0, x1 - x0), plot.height()), withAlpha(color, 0.10));
        }
        if (marker.startVisible) {
            QPen pen(color, std::max(1.5, m_theme.lineWidth * 0.6), Qt::DashLine);
            painter.setPen(pen);
            painter.drawLine(QPointF(marker.x, plot.top()), QPointF(marker.x, plot.bottom()));
        }
    }
    painter.restore();

    painter.setFont(font);
    for (const AnnotationLayout::Group &group : layout.groups) {
        if (group.label.isEmpty())
            continue;
        const Annotation &first = *shown[std::size_t(layout.markers[std::size_t(group.markers.front())].item)];
        const QColor color = Palette::annotationColor(first.source, first.failed);
        if (group.isCluster()) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(color);
            painter.drawRoundedRect(group.label, 3, 3);
            painter.setPen(Qt::white);
            painter.drawText(group.label, Qt::AlignCenter, QStringLiteral("+%1").arg(group.markers.size()));
            continue;
        }
        painter.setPen(QPen(withAlpha(color, 0.6), 1));
        painter.setBrush(QColor(255, 255, 255, 235));
        painter.drawRect(group.label);
        painter.fillRect(QRectF(group.label.left(), group.label.top(), kColourBar, group.label.height()), color);
        painter.setPen(color.darker(130));
        // Elided again to the box: the layout shortens a label to make room for a later one.
        const QRectF textBox = group.label.adjusted(kColourBar + kLabelPadding, 0, -kLabelPadding, 0);
        painter.drawText(textBox, Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(annotationLabel(first, metrics), Qt::ElideRight, textBox.width()));
    }
    painter.setBrush(Qt::NoBrush);
}

namespace {

struct LegendItem
{
    QString name;
    QString stats;
    double width = 0;
};

} // namespace

static std::vector<LegendItem> legendItems(const SampleStore &store, const ExportFigure::Panel &panel,
                                           const TimeRange &range, const QFontMetricsF &metrics)
{
    std::vector<LegendItem> items;
    for (const ExportFigure::Series &series : panel.series) {
        LegendItem item;
        item.name = series.name;
        const SampleStore::Series *stored = store.series(series.key);
        if (stored) {
            const SeriesStatistics stats = SeriesStatistics::compute(stored->timestampsMs(), stored->values(), range);
            if (stats.count > 0) {
                const QString &unit = series.definition.axis == AxisSide::Right ? panel.rightUnit : panel.unit;
                item.stats = QStringLiteral("last %1 · min %2 · max %3 · mean %4")
                                 .arg(stats.last ? Format::value(*stats.last, unit) : QStringLiteral("–"),
                                      Format::value(stats.min, unit), Format::value(stats.max, unit),
                                      Format::value(stats.mean, unit));
            }
        }
        item.width = kSwatch + 6 + metrics.horizontalAdvance(item.name) +
                     (item.stats.isEmpty() ? 0 : 8 + metrics.horizontalAdvance(item.stats));
        items.push_back(item);
    }
    return items;
}

double FigurePainter::legendHeight(const Cell &cell, double width) const
{
    const QFontMetricsF metrics(m_theme.font(m_theme.legendPx));
    const std::vector<LegendItem> items = legendItems(m_store, *cell.panel, cell.range, metrics);
    if (items.empty())
        return 0;
    int rows = 1;
    double x = 0;
    for (const LegendItem &item : items) {
        if (x > 0 && x + item.width > width) {
            ++rows;
            x = 0;
        }
        x += item.width + 18;
    }
    return rows * (metrics.height() + 4);
}

void FigurePainter::paintLegend(QPainter &painter, const QRectF &rect, const Cell &cell) const
{
    const QFont font = m_theme.font(m_theme.legendPx);
    const QFontMetricsF metrics(font);
    const std::vector<LegendItem> items = legendItems(m_store, *cell.panel, cell.range, metrics);
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
        const QColor color = Palette::resolve(cell.panel->series[i].definition.color, int(i));
        QPen pen(color, m_theme.lineWidth + 1);
        pen.setCapStyle(Qt::RoundCap);
        painter.setPen(pen);
        const double mid = y + rowHeight / 2;
        painter.drawLine(QPointF(x + 2, mid), QPointF(x + kSwatch - 2, mid));
        double textX = x + kSwatch + 6;
        painter.setPen(m_theme.text);
        const double nameWidth = metrics.horizontalAdvance(item.name);
        painter.drawText(QRectF(textX, y, std::min(nameWidth + 2, rect.right() - textX), rowHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, item.name);
        textX += nameWidth + 8;
        if (!item.stats.isEmpty() && textX < rect.right()) {
            painter.setPen(m_theme.mutedText);
            painter.drawText(QRectF(textX, y, rect.right() - textX, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(item.stats, Qt::ElideRight, rect.right() - textX));
        }
        x += item.width + 18;
    }
}
