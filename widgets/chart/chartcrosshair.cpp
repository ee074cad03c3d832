// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/chartcrosshair.h"

#include "base/format.h"
#include "chart/chartpaint.h"
#include "chart/heatmappaint.h"
#include "chart/seriesgeometry.h"
#include "chart/seriesreadout.h"
#include "store/samplestore.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

using namespace ChartPaint;

void ChartCrosshair::hover(const QPointF &pos, bool inPlot, qint64 timeMs, const QObject *origin)
{
    m_hoverPos = pos;
    if (!m_cursor)
        return;
    if (inPlot)
        m_cursor->hover(timeMs, origin);
    else
        m_cursor->leave(origin);
}

void ChartCrosshair::leave(const QObject *origin)
{
    m_hoverPos.reset();
    if (m_cursor)
        m_cursor->leave(origin);
}

bool ChartCrosshair::visible(const Context &context) const
{
    return m_cursor && m_cursor->timeMs() && context.axis.range.contains(*m_cursor->timeMs());
}

QRect ChartCrosshair::strip(double x, int height)
{
    // The line, its dots on the curves and the time label below the plot.
    return QRect(int(x) - 48, 0, 96, height);
}

QRegion ChartCrosshair::dirtyRegion(const Context &context) const
{
    QRegion dirty;
    if (m_drawnX)
        dirty += strip(*m_drawnX, context.height);
    if (!m_drawnReadoutRect.isEmpty())
        dirty += m_drawnReadoutRect.toAlignedRect().adjusted(-2, -2, 2, 2);
    if (visible(context))
        dirty += strip(context.axis.xFor(*m_cursor->timeMs()), context.height);
    if (const std::optional<QRectF> box = readoutRect(context))
        dirty += box->toAlignedRect().adjusted(-2, -2, 2, 2);
    return dirty;
}

std::vector<std::optional<NearestSample>> ChartCrosshair::samplesAt(const Context &context, qint64 timeMs) const
{
    // Farther than a couple of steps (or a few pixels when zoomed out) is a gap, not a value.
    const qint64 step = context.stepMs > 0 ? context.stepMs : 1000;
    const qint64 maxDistance = std::max<qint64>(step * 5 / 2, qint64(context.axis.msPerPixel() * 6));
    std::vector<std::optional<NearestSample>> samples;
    samples.reserve(context.series.size());
    for (const Series &s : context.series) {
        const SampleStore::Series *series = context.store->series(s.key);
        samples.push_back(series ? nearestSample(*series, timeMs, maxDistance) : std::nullopt);
    }
    return samples;
}

SeriesReadout ChartCrosshair::readoutFor(const Context &context, qint64 timeMs,
                                         const std::vector<std::optional<NearestSample>> &samples) const
{
    // The header says the time the values are of: the samples' own when they all share it
    // (the usual case, one scrape for all), so the header and the rows never disagree.
    std::optional<QString> sharedTime;
    bool oneTime = true;
    for (const auto &sample : samples) {
        if (!sample)
            continue;
        const QString time = timeText(sample->timestampMs);
        if (!sharedTime)
            sharedTime = time;
        else if (*sharedTime != time)
            oneTime = false;
    }
    QList<SeriesReadout::Row> rows;
    for (std::size_t i = 0; i < context.series.size(); ++i) {
        const Series &s = context.series[i];
        SeriesReadout::Row row{s.color, s.name, QStringLiteral("–"), QString()};
        if (samples[i]) {
            row.value = Format::value(samples[i]->value, s.unit);
            row.time = timeText(samples[i]->timestampMs);
        }
        rows.append(row);
    }
    return SeriesReadout(sharedTime && oneTime ? *sharedTime : timeText(timeMs), rows, context.font);
}

SeriesReadout ChartCrosshair::heatmapReadout(const Context &context, qint64 timeMs)
{
    // The buckets that saw anything in the column, from the top bound down, as the rows are
    // stacked; at most kRows of them (the busiest), so the box fits a short panel.
    constexpr std::size_t kRows = 8;
    const HeatmapGrid &grid = *context.heatmap;
    const std::optional<int> column = grid.columnAt(timeMs);
    const qint64 columnStart = column ? grid.columnStartMs(*column) : timeMs;
    QString title = timeText(columnStart);
    std::vector<int> rows;
    double columnTotal = 0;
    if (column) {
        for (int row = 0; row < grid.rows(); ++row) {
            const double cell = grid.cell(*column, row);
            if (cell > 0) {
                rows.push_back(row);
                columnTotal += cell;
            }
        }
        title = QStringLiteral("%1 – %2").arg(title, timeText(columnStart + grid.columnMs));
    }
    if (rows.size() > kRows) {
        std::partial_sort(rows.begin(), rows.begin() + kRows, rows.end(),
                          [&](int a, int b) { return grid.cell(*column, a) > grid.cell(*column, b); });
        rows.resize(kRows);
    }
    std::sort(rows.begin(), rows.end(), std::greater<>());
    QList<SeriesReadout::Row> shown;
    for (int row : rows) {
        const double cell = grid.cell(*column, row);
        shown.append({HeatmapPaint::colorFor(cell, grid.maxCell, context.dark), grid.rowName(row, context.unit),
                      QStringLiteral("%1 · %2 %")
                          .arg(Format::value(cell, QString()), QString::number(cell / columnTotal * 100, 'f', 1)),
                      QString()});
    }
    if (shown.isEmpty())
        shown.append({QColor(Qt::transparent), QStringLiteral("no observations"), QStringLiteral("–"), QString()});
    return SeriesReadout(title, shown, context.font);
}

std::optional<QRectF> ChartCrosshair::readoutRect(const Context &context) const
{
    if (!m_cursor || !m_cursor->timeMs() || m_cursor->origin() != context.origin || !m_hoverPos ||
        !hasReadout(context) || m_readoutHidden)
        return std::nullopt;
    if (!context.axis.range.contains(*m_cursor->timeMs()))
        return std::nullopt;
    const qint64 t = *m_cursor->timeMs();
    const SeriesReadout readout =
        context.heatmap ? heatmapReadout(context, t) : readoutFor(context, t, samplesAt(context, t));
    return readout.placeAt(*m_hoverPos, context.axis.plot.adjusted(4, 4, -4, -4));
}

void ChartCrosshair::paintLine(QPainter *painter, const Context &context)
{
    m_drawnX.reset();
    if (!visible(context))
        return;
    const QRectF plot = context.axis.plot;
    const double x = std::round(context.axis.xFor(*m_cursor->timeMs())) + 0.5;
    painter->save();
    painter->setPen(QPen(themeColors().crosshair, 1));
    painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    painter->restore();
    m_drawnX = x;
}

void ChartCrosshair::paintMarks(QPainter *painter, const Context &context)
{
    m_drawnReadout.clear();
    m_drawnReadoutTitle.clear();
    m_drawnReadoutRect = QRectF();
    if (!m_drawnX)
        return;
    const QRectF plot = context.axis.plot;
    const qint64 t = *m_cursor->timeMs();
    const double x = *m_drawnX;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);

    const bool here = m_cursor->origin() == context.origin && m_hoverPos;
    if (here) {
        // The instant itself, on the time axis.
        const QFontMetricsF metrics(context.font);
        const QString label = timeText(t);
        const QRectF box(x - metrics.horizontalAdvance(label) / 2 - 5, plot.bottom() + 2,
                         metrics.horizontalAdvance(label) + 10, metrics.height() + 4);
        painter->setPen(Qt::NoPen);
        painter->setBrush(themeColors().crosshair);
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(themeColors().panel);
        painter->setFont(context.font);
        painter->drawText(box, Qt::AlignCenter, label);
    }

    const std::vector<std::optional<NearestSample>> samples = samplesAt(context, t);
    // A dot where each series has the sample the read-out shows, in every panel: the eye
    // follows the line across the grid.
    for (std::size_t i = 0; i < context.series.size(); ++i) {
        if (!samples[i] || !std::isfinite(samples[i]->value))
            continue;
        const ValueScale &scale = context.series[i].axis == AxisSide::Right ? context.right : context.left;
        if (scale.high <= scale.low)
            continue;
        // Where the curve has the value (SeriesGeometry's mapping, as the layer draws it).
        const double y =
            SeriesGeometry::Mapping::of(context.axis.range, scale.low, scale.high, plot).y(samples[i]->value);
        if (y < plot.top() - 1 || y > plot.bottom() + 1)
            continue;
        painter->setPen(QPen(themeColors().panel, 1.5)); // a ring that parts the dot from its line
        painter->setBrush(context.series[i].color);
        painter->drawEllipse(QPointF(context.axis.xFor(samples[i]->timestampMs), y), 3.5, 3.5);
    }
    painter->restore();

    if (!here || !hasReadout(context) || m_readoutHidden)
        return;
    const SeriesReadout readout = context.heatmap ? heatmapReadout(context, t) : readoutFor(context, t, samples);
    const QRectF box = readout.placeAt(*m_hoverPos, plot.adjusted(4, 4, -4, -4));
    readout.paint(painter, box);
    m_drawnReadoutRect = box;
    m_drawnReadoutTitle = readout.title();
    for (const SeriesReadout::Row &row : readout.rows()) {
        m_drawnReadout << (row.time.isEmpty() ? QStringLiteral("%1 = %2").arg(row.name, row.value)
                                              : QStringLiteral("%1 = %2 @ %3").arg(row.name, row.value, row.time));
    }
}
