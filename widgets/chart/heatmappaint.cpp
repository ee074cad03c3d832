// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/heatmappaint.h"

#include "base/format.h"
#include "timeline/timeaxismap.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

namespace {

// A sequential orange ramp (ColorBrewer's "Oranges", as Grafana's heatmaps default to): the
// eye reads more as darker on a light plot; on a dark plot the ramp runs the other way.
constexpr QRgb kLightRamp[] = {0xfff0e0, 0xfdae6b, 0xe6550d, 0x7f2704};
constexpr QRgb kDarkRamp[] = {0x4a2a12, 0xa63603, 0xf16913, 0xfdd0a2};
// The faintest filled cell is still this far up the ramp: a bucket that saw anything at all
// must not look empty.
constexpr double kLowestShade = 0.12;

QColor ramp(const QRgb (&stops)[4], double t)
{
    const double scaled = std::clamp(t, 0.0, 1.0) * 3;
    const int i = std::min(2, int(scaled));
    const double f = scaled - i;
    const QColor a(stops[i]);
    const QColor b(stops[i + 1]);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

} // namespace

HeatmapPaint::HeatmapPaint(const HeatmapGrid &grid, std::vector<double> edges, const TimeRange &range,
                           const QRectF &plot, Look look)
    : m_grid(grid), m_edges(std::move(edges)), m_range(range), m_plot(plot), m_look(std::move(look))
{}

QColor HeatmapPaint::colorFor(double value, double max, bool dark)
{
    if (!(value > 0) || !(max > 0))
        return Qt::transparent;
    const double t = kLowestShade + (1 - kLowestShade) * std::sqrt(std::min(1.0, value / max));
    return dark ? ramp(kDarkRamp, t) : ramp(kLightRamp, t);
}

double HeatmapPaint::rowTop(int row) const
{
    return m_plot.bottom() - m_edges[std::size_t(row) + 1] * m_plot.height();
}

double HeatmapPaint::rowBottom(int row) const
{
    return m_plot.bottom() - m_edges[std::size_t(row)] * m_plot.height();
}

int HeatmapPaint::rowAt(double y) const
{
    for (int row = 0; row < m_grid.rows(); ++row) {
        if (y >= rowTop(row) && y <= rowBottom(row))
            return row;
    }
    return -1;
}

QRectF HeatmapPaint::cellRect(int column, int row) const
{
    const TimeAxisMap axis{m_range, m_plot};
    auto x = [&axis](qint64 t) { return axis.xFor(t); };
    const qint64 start = m_grid.columnStartMs(column);
    // Whole pixels, so that neighbouring cells neither overlap nor leave a hairline between.
    const double left = std::round(std::max(m_plot.left(), x(start)));
    const double right = std::round(std::min(m_plot.right(), x(start + m_grid.columnMs)));
    return QRectF(QPointF(left, std::round(rowTop(row))), QPointF(right, std::round(rowBottom(row))));
}

void HeatmapPaint::paintCells(QPainter *painter) const
{
    if (int(m_edges.size()) != m_grid.rows() + 1)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(Qt::NoPen);
    for (int column = 0; column < m_grid.columns; ++column) {
        for (int row = 0; row < m_grid.rows(); ++row) {
            const QColor color = colorFor(m_grid.cell(column, row), m_grid.maxCell, m_look.dark);
            if (color.alpha() == 0)
                continue;
            const QRectF cell = cellRect(column, row);
            if (cell.width() > 0 && cell.height() > 0)
                painter->fillRect(cell, color);
        }
    }
    if (m_grid.hasOpenBucket()) {
        const int open = m_grid.rows() - 1;
        QColor hatch = m_look.text;
        hatch.setAlphaF(0.22f);
        painter->fillRect(QRectF(QPointF(m_plot.left(), rowTop(open)), QPointF(m_plot.right(), rowBottom(open))),
                          QBrush(hatch, Qt::BDiagPattern));
    }
    painter->restore();
}

QStringList HeatmapPaint::textsOf(const std::vector<Label> &labels)
{
    QStringList texts;
    for (const Label &label : labels)
        texts << label.text;
    return texts;
}

std::vector<HeatmapPaint::Label> HeatmapPaint::paintBucketLabels(QPainter *painter, double labelRight,
                                                                 const QString &unit) const
{
    std::vector<Label> drawn;
    if (int(m_edges.size()) != m_grid.rows() + 1)
        return drawn;
    painter->save();
    painter->setFont(m_look.font);
    painter->setPen(m_look.text);
    const QFontMetricsF metrics(m_look.font);
    auto boxAt = [&](const QString &label, double y) {
        return QRectF(labelRight - metrics.horizontalAdvance(label), y - metrics.height() / 2,
                      metrics.horizontalAdvance(label), metrics.height());
    };
    // The open bucket first, in the middle of its row: what went past the largest bound
    // ("> 10 s") must be readable off the picture, before any bound below it.
    std::optional<Label> open;
    if (m_grid.hasOpenBucket() && m_grid.rows() >= 2) {
        const int row = m_grid.rows() - 1;
        const QString label = QStringLiteral("> %1").arg(Format::value(m_grid.upperBounds[std::size_t(row) - 1], unit));
        open = Label{boxAt(label, (rowTop(row) + rowBottom(row)) / 2), label};
    }
    double lastTop = std::numeric_limits<double>::infinity();
    // Each finite bound at the top edge of its row: the bucket holds what is up to it.
    for (int row = 0; row < m_grid.rows(); ++row) {
        const double bound = m_grid.upperBounds[std::size_t(row)];
        if (!std::isfinite(bound))
            continue;
        const QString label = Format::value(bound, unit);
        const QRectF box = boxAt(label, rowTop(row));
        if (box.bottom() > lastTop - 1 || (open && box.top() < open->box.bottom() + 1))
            continue;
        painter->drawText(box, Qt::AlignRight | Qt::AlignVCenter, label);
        drawn.push_back({box, label});
        lastTop = box.top();
    }
    if (open) {
        painter->drawText(open->box, Qt::AlignRight | Qt::AlignVCenter, open->text);
        drawn.push_back(*open);
    }
    painter->restore();
    return drawn;
}

std::vector<HeatmapPaint::Label> HeatmapPaint::paintScale(QPainter *painter, const QRectF &area) const
{
    std::vector<Label> drawn;
    if (!m_grid.hasData() || area.width() < 8 || area.height() < 20)
        return drawn;
    painter->save();
    const QFontMetricsF metrics(m_look.font);
    const QRectF bar(area.left(), area.top() + metrics.height() / 2, 8, area.height() - metrics.height());
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    constexpr int kStops = 16;
    for (int i = 0; i <= kStops; ++i) {
        const double share = double(i) / kStops;
        gradient.setColorAt(share, colorFor(std::max(1e-9, share * share), 1.0, m_look.dark));
    }
    painter->fillRect(bar, gradient);
    painter->setFont(m_look.font);
    painter->setPen(m_look.text);
    const double labelLeft = bar.right() + 4;
    // The cells are what the queries return (a rate per second, or an increase per step).
    const QString top = Format::value(m_grid.maxCell, QString());
    const QString bottom = QStringLiteral("0");
    for (const auto &[text, y] : {std::pair(bottom, bar.bottom()), std::pair(top, bar.top())}) {
        const QRectF box(labelLeft, y - metrics.height() / 2, metrics.horizontalAdvance(text), metrics.height());
        painter->drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
        drawn.push_back({box, text});
    }
    painter->restore();
    return drawn;
}
