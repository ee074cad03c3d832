// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/paneltitle.h"

#include <QFontMetricsF>
#include <algorithm>

PanelTitle::PanelTitle(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    // The header's other text keeps its width; this takes what is left.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void PanelTitle::setTitle(const QString &title, const QString &unit, const QColor &unitColor)
{
    m_title = title;
    m_unit = unit;
    m_unitColor = unitColor;
    setToolTip(unit.isEmpty() ? title : QStringLiteral("%1 · %2").arg(title, unit));
    relayout();
}

void PanelTitle::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    relayout();
}

void PanelTitle::relayout()
{
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF boldMetrics(bold);
    const QFontMetricsF plainMetrics(font());
    const double room = contentsRect().width() - 2; // a rich text label keeps a pixel each side
    const QString unitText = m_unit.isEmpty() ? QString() : QStringLiteral(" · ") + m_unit;
    const bool unitFits = boldMetrics.horizontalAdvance(m_title) + plainMetrics.horizontalAdvance(unitText) <= room;
    const QString unit = unitFits ? unitText : QString();
    m_shown =
        boldMetrics.elidedText(m_title, Qt::ElideRight, std::max(0.0, room - plainMetrics.horizontalAdvance(unit)));
    QString html = QStringLiteral("<b>%1</b>").arg(m_shown.toHtmlEscaped());
    if (!unit.isEmpty())
        html += QStringLiteral("<span style='color:%1'>%2</span>").arg(m_unitColor.name(), unit.toHtmlEscaped());
    setText(html);
}
