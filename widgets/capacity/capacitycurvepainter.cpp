// SPDX-License-Identifier: GPL-3.0-or-later
#include "capacity/capacitycurvepainter.h"

#include "base/format.h"
#include "timeline/valuescale.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace {

void drawMarker(QPainter &painter, QPointF centre, double radius, const QColor &colour, bool filled,
                const QColor &background)
{
    painter.setPen(QPen(colour, 2));
    painter.setBrush(filled ? QBrush(colour) : QBrush(background));
    painter.drawEllipse(centre, radius, radius);
}

} // namespace

QPointF CapacityCurve::Geometry::at(double offered, double perSecondValue) const
{
    return {plot.left() + (offered - rate.low) / (rate.high - rate.low) * plot.width(),
            plot.bottom() - (perSecondValue - perSecond.low) / (perSecond.high - perSecond.low) * plot.height()};
}

double CapacityCurve::Geometry::latencyY(double seconds) const
{
    return plot.bottom() - (seconds - latency.low) / (latency.high - latency.low) * plot.height();
}

namespace {

struct LegendItem
{
    QColor colour;
    bool filled = true;
    bool line = false; // a dashed line rather than a marker
    QString text;
};

constexpr double kLegendSwatch = 24; // marker or line, and the gap to the text
constexpr double kLegendGap = 22;    // between items

// The legend's items placed in rows that fit the width: a dock is narrower than a picture.
std::vector<std::vector<LegendItem>> legendRows(const std::vector<LegendItem> &items, double width,
                                                const QFontMetricsF &metrics)
{
    std::vector<std::vector<LegendItem>> rows(1);
    double x = 0;
    for (const LegendItem &item : items) {
        const double itemWidth = kLegendSwatch + metrics.horizontalAdvance(item.text);
        if (x > 0 && x + itemWidth > width) {
            rows.emplace_back();
            x = 0;
        }
        rows.back().push_back(item);
        x += itemWidth + kLegendGap;
    }
    return rows;
}

std::vector<LegendItem> legendOf(const CeilingResult &result, const ExportTheme &theme)
{
    std::vector<LegendItem> items{{ExportTheme::seriesColor(0), true, false, QStringLiteral("completed/s (left)")},
                                  {ExportTheme::seriesColor(1), true, false, QStringLiteral("p99 (right)")},
                                  {theme.mutedText, true, false, QStringLiteral("held")},
                                  {theme.mutedText, false, false, QStringLiteral("failed")}};
    if (result.ceiling)
        items.push_back({ExportTheme::seriesColor(2), true, true, QStringLiteral("measured ceiling")});
    if (result.computed)
        items.push_back({ExportTheme::seriesColor(4), true, true, QStringLiteral("computed ceiling")});
    return items;
}

} // namespace

double CapacityCurve::headerHeight(const QRectF &area, const ExportTheme &theme) const
{
    const QFontMetricsF legendMetrics(theme.font(theme.legendPx));
    const double titleHeight = title.isEmpty() ? 0 : QFontMetricsF(theme.font(theme.titlePx, true)).height() + 4;
    const auto rows = legendRows(legendOf(result, theme), area.width() - 2 * theme.margin, legendMetrics);
    return titleHeight + QFontMetricsF(theme.font(theme.subtitlePx)).height() + 10 +
           double(rows.size()) * (legendMetrics.height() + 4) + 8;
}

CapacityCurve::Geometry CapacityCurve::geometry(const QRectF &area, const ExportTheme &theme) const
{
    // Both axes from 0, so that the diagonal starts in the corner.
    double maxRate = 1;
    double maxPerSecond = 1;
    double maxLatency = 0;
    for (const StairResult &stair : result.stairs) {
        maxRate = std::max(maxRate, stair.rate);
        maxPerSecond = std::max({maxPerSecond, stair.rate, stair.completed.value_or(0), stair.sent.value_or(0)});
        if (stair.latencySeconds && std::isfinite(*stair.latencySeconds))
            maxLatency = std::max(maxLatency, *stair.latencySeconds);
    }
    if (result.computed)
        maxPerSecond = std::max(maxPerSecond, *result.computed);
    maxRate = std::max(maxRate, maxPerSecond);
    const QFontMetricsF axisMetrics(theme.font(theme.axisPx));
    const double leftLabels = axisMetrics.horizontalAdvance(QStringLiteral("000k /s")) + 10;
    const double rightLabels = axisMetrics.horizontalAdvance(QStringLiteral("00.0 ms")) + 10;
    const double m = theme.margin;
    const double top = area.top() + m + headerHeight(area, theme);
    Geometry geometry;
    geometry.plot = QRectF(area.left() + m + leftLabels, top, area.width() - 2 * m - leftLabels - rightLabels,
                           area.bottom() - m - top - 2 * axisMetrics.height() - 8);
    const int ticks = ValueScale::targetTicksFor(geometry.plot.height());
    // A little room right of the highest stair, so that its point is not on the frame.
    geometry.rate = ValueScale::nice(0, maxRate * 1.08, std::max(2, int(geometry.plot.width() / 110)));
    geometry.perSecond = ValueScale::nice(0, maxPerSecond, ticks);
    geometry.latency = ValueScale::nice(0, maxLatency, ticks);
    return geometry;
}

void CapacityCurve::paint(QPainter &painter, const QRectF &area, const ExportTheme &theme) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(area, theme.background);
    const QColor completedColour = ExportTheme::seriesColor(0);
    const QColor latencyColour = ExportTheme::seriesColor(1);
    const QColor ceilingColour = ExportTheme::seriesColor(2);
    const QColor computedColour = ExportTheme::seriesColor(4);

    // Title and the one-line answer.
    const double m = theme.margin;
    double top = area.top() + m;
    if (!title.isEmpty()) {
        painter.setPen(theme.text);
        painter.setFont(theme.font(theme.titlePx, true));
        const QFontMetricsF titleMetrics(painter.font());
        painter.drawText(QPointF(area.left() + m, top + titleMetrics.ascent()), title);
        top += titleMetrics.height() + 4;
    }
    painter.setFont(theme.font(theme.subtitlePx));
    painter.setPen(theme.mutedText);
    const QFontMetricsF subtitleMetrics(painter.font());
    const QString answer = result.stairs.empty() ? QStringLiteral("no stair has run yet") : result.summary(rateUnit);
    painter.drawText(QRectF(area.left() + m, top, area.width() - 2 * m, subtitleMetrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     subtitleMetrics.elidedText(answer, Qt::ElideRight, area.width() - 2 * m));
    top += subtitleMetrics.height() + 10;

    // Legend, in as many rows as the width needs.
    painter.setFont(theme.font(theme.legendPx));
    const QFontMetricsF legendMetrics(painter.font());
    for (const std::vector<LegendItem> &row :
         legendRows(legendOf(result, theme), area.width() - 2 * m, legendMetrics)) {
        double x = area.left() + m;
        const double y = top + legendMetrics.height() / 2;
        for (const LegendItem &item : row) {
            if (item.line) {
                painter.setPen(QPen(item.colour, theme.lineWidth, Qt::DashLine));
                painter.drawLine(QPointF(x, y), QPointF(x + 18, y));
            } else {
                drawMarker(painter, {x + 9, y}, 5, item.colour, item.filled, theme.background);
            }
            painter.setPen(theme.text);
            painter.drawText(QPointF(x + kLegendSwatch, y + legendMetrics.ascent() / 2 - 1), item.text);
            x += kLegendSwatch + legendMetrics.horizontalAdvance(item.text) + kLegendGap;
        }
        top += legendMetrics.height() + 4;
    }

    painter.setFont(theme.font(theme.axisPx));
    const QFontMetricsF axisMetrics(painter.font());
    const Geometry axes = geometry(area, theme);
    if (!axes.usable()) {
        painter.restore();
        return;
    }
    const double leftLabels = axes.plot.left() - area.left() - m;
    const double rightLabels = area.right() - m - axes.plot.right();
    const bool hasLatency = std::any_of(result.stairs.begin(), result.stairs.end(), [](const StairResult &stair) {
        return stair.latencySeconds && std::isfinite(*stair.latencySeconds) && *stair.latencySeconds > 0;
    });

    // Grid and labels.
    painter.setPen(QPen(theme.grid, 1));
    for (int i = 0; i < axes.perSecond.count(); ++i) {
        const double value = axes.perSecond.tick(i);
        const double y = axes.at(0, value).y();
        painter.setPen(QPen(theme.grid, 1));
        painter.drawLine(QPointF(axes.plot.left(), y), QPointF(axes.plot.right(), y));
        painter.setPen(completedColour);
        painter.drawText(QRectF(area.left() + m, y - 10, leftLabels - 8, 20), Qt::AlignRight | Qt::AlignVCenter,
                         Format::value(value, QStringLiteral("/s")));
    }
    if (hasLatency) {
        painter.setPen(latencyColour);
        for (int i = 0; i < axes.latency.count(); ++i) {
            const double value = axes.latency.tick(i);
            const double y = axes.latencyY(value);
            if (y < axes.plot.top() - 1)
                continue;
            painter.drawText(QRectF(axes.plot.right() + 8, y - 10, rightLabels, 20), Qt::AlignLeft | Qt::AlignVCenter,
                             Format::value(value, QStringLiteral("s")));
        }
    }
    painter.setPen(theme.mutedText);
    for (int i = 0; i < axes.rate.count(); ++i) {
        const double value = axes.rate.tick(i);
        const double x = axes.at(value, 0).x();
        painter.setPen(QPen(theme.grid, 1));
        painter.drawLine(QPointF(x, axes.plot.top()), QPointF(x, axes.plot.bottom()));
        painter.setPen(theme.mutedText);
        painter.drawText(QRectF(x - 50, axes.plot.bottom() + 4, 100, axisMetrics.height()), Qt::AlignCenter,
                         Format::value(value, rateUnit));
    }
    painter.setPen(QPen(theme.axis, 1.5));
    painter.drawLine(axes.plot.bottomLeft(), axes.plot.bottomRight());
    painter.setPen(theme.mutedText);
    const QString longAxisTitle = QStringLiteral("offered load (the rate set on the load tester)");
    painter.drawText(QRectF(axes.plot.left(), axes.plot.bottom() + 4 + axisMetrics.height(), axes.plot.width(),
                            axisMetrics.height() + 4),
                     Qt::AlignCenter,
                     axisMetrics.horizontalAdvance(longAxisTitle) < axes.plot.width() ? longAxisTitle
                                                                                      : QStringLiteral("offered load"));

    painter.setClipRect(axes.plot.adjusted(-8, -8, 8, 8));
    // Where a system that keeps up lies: completed = offered.
    painter.setPen(QPen(theme.mutedText, 1.5, Qt::DotLine));
    const double diagonalEnd = std::min(axes.rate.high, axes.perSecond.high);
    painter.drawLine(axes.at(0, 0), axes.at(diagonalEnd, diagonalEnd));

    // The ceilings.
    if (result.computed) {
        painter.setPen(QPen(computedColour, theme.lineWidth, Qt::DashLine));
        const double y = axes.at(0, *result.computed).y();
        painter.drawLine(QPointF(axes.plot.left(), y), QPointF(axes.plot.right(), y));
        painter.setFont(theme.font(theme.annotationPx));
        painter.drawText(QPointF(axes.plot.left() + 6, y - 5),
                         QStringLiteral("computed %1").arg(Format::value(*result.computed, rateUnit)));
    }
    if (result.ceiling) {
        painter.setPen(QPen(ceilingColour, theme.lineWidth, Qt::DashLine));
        const double x = axes.at(*result.ceiling, 0).x();
        painter.drawLine(QPointF(x, axes.plot.top()), QPointF(x, axes.plot.bottom()));
        painter.setFont(theme.font(theme.annotationPx, true));
        const QString label = QStringLiteral("ceiling %1").arg(Format::value(*result.ceiling, rateUnit));
        const QFontMetricsF metrics(painter.font());
        const double labelX = x + 6 + metrics.horizontalAdvance(label) < axes.plot.right()
                                  ? x + 6
                                  : x - 6 - metrics.horizontalAdvance(label);
        painter.drawText(QPointF(labelX, axes.plot.top() + metrics.ascent() + 2), label);
    }

    // The stairs in the order of their rate, so that the lines read left to right.
    std::vector<const StairResult *> byRate;
    for (const StairResult &stair : result.stairs)
        byRate.push_back(&stair);
    std::stable_sort(byRate.begin(), byRate.end(),
                     [](const StairResult *a, const StairResult *b) { return a->rate < b->rate; });
    const auto drawSeries = [&](const QColor &colour, auto valueOf, auto yOf) {
        QPainterPath path;
        for (const StairResult *stair : byRate) {
            const std::optional<double> value = valueOf(*stair);
            // A confirmation is the same rate again: its point, not a second line down to it.
            if (!value || stair->role == StairResult::Role::Confirm)
                continue;
            const QPointF point(axes.at(stair->rate, 0).x(), yOf(*value));
            if (path.elementCount() == 0)
                path.moveTo(point);
            else
                path.lineTo(point);
        }
        painter.setPen(QPen(colour, theme.lineWidth * 0.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        for (const StairResult *stair : byRate) {
            if (const std::optional<double> value = valueOf(*stair))
                drawMarker(painter, {axes.at(stair->rate, 0).x(), yOf(*value)}, 5, colour, stair->held,
                           theme.background);
        }
    };
    if (hasLatency)
        drawSeries(
            latencyColour,
            [](const StairResult &stair) {
                return stair.latencySeconds && std::isfinite(*stair.latencySeconds) ? stair.latencySeconds
                                                                                    : std::optional<double>();
            },
            [&](double seconds) { return axes.latencyY(seconds); });
    drawSeries(
        completedColour, [](const StairResult &stair) { return stair.completed; },
        [&](double perSecond) { return axes.at(0, perSecond).y(); });
    painter.restore();
}

QImage CapacityCurve::render(const QSize &logicalSize, double scale) const
{
    QImage image(logicalSize * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    const ExportTheme theme = ExportTheme::blog();
    image.fill(theme.background);
    QPainter painter(&image);
    paint(painter, QRectF(QPointF(0, 0), QSizeF(logicalSize)), theme);
    painter.end();
    return image;
}
