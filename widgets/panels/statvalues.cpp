// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/statvalues.h"

#include "chart/statnumber.h"
#include "theme/uitheme.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

constexpr int kMaxPerRow = 4;       // more series than this wrap to a second row of numbers
constexpr double kMaxNumberPx = 72; // a big tile's number stays a number, not a poster

} // namespace

StatValues::StatValues(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("statValues"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    connect(UiTheme::instance(), &UiTheme::changed, this, qOverload<>(&QWidget::update));
}

void StatValues::setValues(std::vector<Value> values)
{
    if (values == m_values)
        return; // most live ticks change no digit shown
    m_values = std::move(values);
    setToolTip([this] {
        QStringList lines;
        for (const Value &value : m_values)
            lines << QStringLiteral("%1: %2").arg(value.name, value.text);
        return lines.join(QLatin1Char('\n'));
    }());
    update();
}

QSize StatValues::sizeHint() const
{
    return {200, fontMetrics().height() * 4};
}

QSize StatValues::minimumSizeHint() const
{
    return {60, fontMetrics().height() * 2};
}

void StatValues::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    std::vector<Value> shown = m_values;
    if (shown.empty())
        shown.push_back({QString(), QStringLiteral("–"), {}, {}, QColor()});
    const int count = int(shown.size());
    const int perRow = std::min(count, kMaxPerRow);
    const int rows = (count + perRow - 1) / perRow;
    const QRectF area = QRectF(rect()).adjusted(8, 2, -8, -2);
    const double cellWidth = area.width() / perRow;
    const double cellHeight = area.height() / rows;

    QFont nameFont = font();
    nameFont.setPointSizeF(font().pointSizeF() * 0.9);
    const QFontMetricsF nameMetrics(nameFont);
    const auto partsOf = [](const Value &value) {
        return value.number.isEmpty() ? Format::ValueParts{value.text, {}}
                                      : Format::ValueParts{value.number, value.unit};
    };
    // One size for every number, so that equal values look equal: the largest at which each
    // fits its cell, and no larger than reads well on a big tile.
    const QSizeF numberBox(cellWidth * 0.95, (cellHeight - nameMetrics.height()) * 0.85);
    double pixels = kMaxNumberPx;
    for (const Value &value : shown)
        pixels = std::min(pixels, StatNumber::fittingPixelSize(font(), partsOf(value), numberBox, kMaxNumberPx));
    QFont probe = font();
    probe.setBold(true);
    probe.setPixelSize(std::max(1, int(pixels)));
    const double numberHeight = QFontMetricsF(probe).height();

    for (int i = 0; i < count; ++i) {
        const Value &value = shown[std::size_t(i)];
        const int column = i % perRow;
        const int row = i / perRow;
        const QRectF cell(area.left() + column * cellWidth, area.top() + row * cellHeight, cellWidth, cellHeight);
        const double blockHeight = numberHeight + (value.name.isEmpty() ? 0 : nameMetrics.height());
        const double top = cell.top() + (cell.height() - blockHeight) / 2;
        StatNumber::paint(painter, font(), pixels, partsOf(value), QRectF(cell.left(), top, cell.width(), numberHeight),
                          value.color.isValid() ? value.color : colors.text);
        if (value.name.isEmpty())
            continue;
        painter.setFont(nameFont);
        painter.setPen(colors.muted);
        painter.drawText(QRectF(cell.left(), top + numberHeight, cell.width(), nameMetrics.height()), Qt::AlignCenter,
                         nameMetrics.elidedText(value.name, Qt::ElideRight, cell.width()));
    }
}
