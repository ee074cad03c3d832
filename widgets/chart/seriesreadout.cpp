// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/seriesreadout.h"

#include "theme/uitheme.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

constexpr double kPadding = 7;
constexpr double kSwatch = 9;
constexpr double kColumnGap = 10;
constexpr double kMaxNameWidth = 220; // long legends are elided, the values must stay readable
constexpr double kOffset = 16;        // from the mouse, so the box never hides the crosshair

} // namespace

SeriesReadout::SeriesReadout(QString title, QList<Row> rows, const QFont &font)
    : m_title(std::move(title)), m_rows(std::move(rows)), m_font(font), m_titleFont(font)
{
    m_titleFont.setBold(true);
}

double SeriesReadout::nameWidth() const
{
    const QFontMetricsF metrics(m_font);
    double width = 0;
    for (const Row &row : m_rows)
        width = std::max(width, metrics.horizontalAdvance(row.name));
    return std::min(width, kMaxNameWidth);
}

double SeriesReadout::valueWidth() const
{
    QFont bold = m_font;
    bold.setBold(true);
    const QFontMetricsF metrics(bold);
    double width = 0;
    for (const Row &row : m_rows)
        width = std::max(width, metrics.horizontalAdvance(row.value));
    return width;
}

double SeriesReadout::timeWidth() const
{
    const QFontMetricsF metrics(m_font);
    double width = 0;
    for (const Row &row : m_rows)
        width = std::max(width, metrics.horizontalAdvance(row.time));
    return width;
}

QSizeF SeriesReadout::size() const
{
    const QFontMetricsF metrics(m_font);
    const QFontMetricsF titleMetrics(m_titleFont);
    const double rowsWidth = kSwatch + 6 + nameWidth() + kColumnGap + valueWidth() + kColumnGap + timeWidth();
    const double width = std::max(rowsWidth, titleMetrics.horizontalAdvance(m_title)) + 2 * kPadding;
    const double height = titleMetrics.height() + 4 + double(m_rows.size()) * (metrics.height() + 2) + 2 * kPadding - 2;
    return {std::ceil(width), std::ceil(height)};
}

QRectF SeriesReadout::placeAt(const QPointF &anchor, const QRectF &bounds) const
{
    const QSizeF box = size();
    double left = anchor.x() + kOffset;
    if (left + box.width() > bounds.right())
        left = anchor.x() - kOffset - box.width();
    double top = anchor.y() + kOffset;
    if (top + box.height() > bounds.bottom())
        top = anchor.y() - kOffset - box.height();
    left = std::clamp(left, bounds.left(), std::max(bounds.left(), bounds.right() - box.width()));
    top = std::clamp(top, bounds.top(), std::max(bounds.top(), bounds.bottom() - box.height()));
    return {QPointF(left, top), box};
}

void SeriesReadout::paint(QPainter *painter, const QRectF &box) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    painter->setPen(QPen(colors.labelBorder, 1));
    QColor background = colors.labelBackground;
    background.setAlpha(240);
    painter->setBrush(background);
    painter->drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);

    const QFontMetricsF metrics(m_font);
    const QFontMetricsF titleMetrics(m_titleFont);
    double y = box.top() + kPadding;
    painter->setFont(m_titleFont);
    painter->setPen(colors.text);
    painter->drawText(QPointF(box.left() + kPadding, y + titleMetrics.ascent()), m_title);
    y += titleMetrics.height() + 4;

    QFont bold = m_font;
    bold.setBold(true);
    const double names = nameWidth();
    const double values = valueWidth();
    for (const Row &row : m_rows) {
        double x = box.left() + kPadding;
        const double baseline = y + metrics.ascent();
        painter->fillRect(QRectF(x, y + (metrics.height() - kSwatch) / 2, kSwatch, kSwatch), row.color);
        x += kSwatch + 6;
        painter->setFont(m_font);
        painter->setPen(colors.text);
        painter->drawText(QPointF(x, baseline), metrics.elidedText(row.name, Qt::ElideMiddle, names));
        x += names + kColumnGap;
        painter->setFont(bold);
        const double valueAdvance = QFontMetricsF(bold).horizontalAdvance(row.value);
        painter->drawText(QPointF(x + values - valueAdvance, baseline), row.value); // right-aligned
        x += values + kColumnGap;
        painter->setFont(m_font);
        painter->setPen(colors.muted);
        painter->drawText(QPointF(x, baseline), row.time);
        y += metrics.height() + 2;
    }
    painter->restore();
}
