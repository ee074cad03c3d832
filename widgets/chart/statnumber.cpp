// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/statnumber.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

namespace StatNumber {
namespace {

constexpr double kProbePx = 100; // measured once at this size; text widths scale linearly

QFont numberFont(QFont font, double pixelSize)
{
    font.setBold(true);
    font.setPixelSize(std::max(1, int(pixelSize)));
    return font;
}

QFont unitFont(QFont font, double pixelSize)
{
    font.setBold(false);
    font.setPixelSize(std::max(1, int(pixelSize * kUnitScale)));
    return font;
}

double widthAt(const QFont &font, const Format::ValueParts &parts, double pixelSize)
{
    double width = QFontMetricsF(numberFont(font, pixelSize)).horizontalAdvance(parts.number);
    if (!parts.unit.isEmpty())
        width += QFontMetricsF(unitFont(font, pixelSize)).horizontalAdvance(QLatin1Char(' ') + parts.unit);
    return width;
}

} // namespace

double fittingPixelSize(const QFont &font, const Format::ValueParts &parts, const QSizeF &box, double maxPx)
{
    const double width = widthAt(font, parts, kProbePx);
    const double height = QFontMetricsF(numberFont(font, kProbePx)).height();
    if (width <= 0 || height <= 0)
        return std::max(1.0, maxPx);
    const double byWidth = box.width() * kProbePx / width;
    const double byHeight = box.height() * kProbePx / height;
    return std::max(1.0, std::min({byWidth, byHeight, maxPx}));
}

QRectF paint(QPainter &painter, const QFont &font, double pixelSize, const Format::ValueParts &parts, const QRectF &box,
             const QColor &color)
{
    const QFont number = numberFont(font, pixelSize);
    const QFont unit = unitFont(font, pixelSize);
    const QFontMetricsF numberMetrics(number);
    const QFontMetricsF unitMetrics(unit);
    const QString unitText = parts.unit.isEmpty() ? QString() : QLatin1Char(' ') + parts.unit;
    const double width = numberMetrics.horizontalAdvance(parts.number) + unitMetrics.horizontalAdvance(unitText);
    const double left = box.left() + std::max(0.0, (box.width() - width) / 2);
    const double baseline = box.top() + (box.height() - numberMetrics.height()) / 2 + numberMetrics.ascent();
    painter.save();
    painter.setPen(color);
    painter.setFont(number);
    painter.drawText(QPointF(left, baseline), parts.number);
    if (!unitText.isEmpty()) {
        painter.setFont(unit);
        painter.drawText(QPointF(left + numberMetrics.horizontalAdvance(parts.number), baseline), unitText);
    }
    painter.restore();
    return QRectF(left, baseline - numberMetrics.ascent(), std::min(width, box.width()), numberMetrics.height());
}

} // namespace StatNumber
