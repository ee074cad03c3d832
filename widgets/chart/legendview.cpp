// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/legendview.h"

#include "theme/uitheme.h"

#include <QEvent>
#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <utility>

namespace {

const QString kSolidMark = QStringLiteral("\u25A0");  // ■
const QString kDashedMark = QStringLiteral("\u2504"); // ┄

} // namespace

LegendView::LegendView(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void LegendView::setRows(std::vector<Row> rows)
{
    if (rows == m_rows)
        return;
    const int before = shownRows();
    m_rows = std::move(rows);
    if (shownRows() != before)
        updateGeometry();
    update();
}

void LegendView::setReservedRows(int rows)
{
    const int before = shownRows();
    m_reservedRows = std::max(0, rows);
    if (shownRows() != before)
        updateGeometry();
}

int LegendView::shownRows() const
{
    return std::max(int(m_rows.size()), m_reservedRows);
}

int LegendView::rowHeight() const
{
    QFont bold = font();
    bold.setBold(true);
    return std::max(fontMetrics().lineSpacing(), QFontMetrics(bold).lineSpacing());
}

QSize LegendView::sizeHint() const
{
    // Any width will do (a row is cut to fit); the panel gives the legend its whole width.
    return QSize(200, rowHeight() * shownRows());
}

QSize LegendView::minimumSizeHint() const
{
    return QSize(0, rowHeight() * shownRows());
}

void LegendView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateGeometry();
}

void LegendView::mouseReleaseEvent(QMouseEvent *event)
{
    const int row = int(event->position().y()) / std::max(1, rowHeight());
    if (event->button() == Qt::LeftButton && row >= 0 && row < int(m_rows.size())) {
        emit rowClicked(row, event->modifiers());
        event->accept();
        return;
    }
    QWidget::mouseReleaseEvent(event);
}

void LegendView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const UiTheme::Colors &colors = UiTheme::instance()->colors();
    const QFont normal = font();
    QFont bold = normal;
    bold.setBold(true);
    const QFontMetrics normalMetrics(normal);
    const QFontMetrics boldMetrics(bold);
    const int height = rowHeight();
    const int space = normalMetrics.horizontalAdvance(QLatin1Char(' '));

    int y = 0;
    for (const Row &row : m_rows) {
        const int baseline = y + (height + normalMetrics.ascent() - normalMetrics.descent()) / 2;
        int x = 0;
        // Draws one piece of the row; a piece that does not fit is cut and ends the row.
        auto piece = [&](const QString &text, const QColor &color, bool isBold) {
            if (x >= width() || text.isEmpty())
                return;
            const QFontMetrics &metrics = isBold ? boldMetrics : normalMetrics;
            QString shown = text;
            if (x + metrics.horizontalAdvance(text) > width())
                shown = metrics.elidedText(text, Qt::ElideRight, width() - x);
            painter.setFont(isBold ? bold : normal);
            painter.setPen(color);
            painter.drawText(QPoint(x, baseline), shown);
            x += metrics.horizontalAdvance(shown) + space;
            if (shown != text)
                x = width();
        };
        // A hidden series: its mark hollow and its name muted, so that the row still says
        // what a click brings back.
        piece(row.hidden ? QStringLiteral("\u25A1") : row.dashed ? kDashedMark : kSolidMark, row.color, false);
        piece(row.name, row.hidden ? colors.axisText : colors.text, false);
        if (row.hidden) {
            y += height;
            continue;
        }
        if (!row.check.isEmpty()) // before the numbers: a cut row keeps the verdict
            piece(row.check, row.checkFailed ? colors.error : row.checkJudged ? colors.ok : colors.axisText, true);
        if (!row.note.isEmpty())
            piece(row.note, colors.axisText, false);
        if (row.last.isEmpty()) {
            piece(QStringLiteral("–"), colors.axisText, false);
        } else {
            piece(tr("last"), colors.axisText, false);
            piece(row.last, colors.axisText, true);
            x += space;
            piece(row.stats, colors.axisText, false);
        }
        y += height;
    }
}
