// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotating/annotationquerybar.h"

#include "theme/palette.h"
#include "theme/uitheme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>

namespace {

// A small square of the query marks' colour, filled while the switch is on and hollow while
// it is off: the button says which marks it switches and whether they are drawn.
QPixmap swatchPixmap(const QColor &color, bool on)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(color, 1.5));
    painter.setBrush(on ? QBrush(color) : QBrush(Qt::NoBrush));
    painter.drawRoundedRect(QRectF(1.5, 1.5, 9, 9), 2, 2);
    return pixmap;
}

QIcon swatch(const QColor &color)
{
    QIcon icon;
    icon.addPixmap(swatchPixmap(color, true), QIcon::Normal, QIcon::On);
    icon.addPixmap(swatchPixmap(color, false), QIcon::Normal, QIcon::Off);
    return icon;
}

} // namespace

AnnotationQueryBar::AnnotationQueryBar(QWidget *parent) : QWidget(parent), m_layout(new QHBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    m_layout->addWidget(new QLabel(tr("  Marks ")));
    connect(UiTheme::instance(), &UiTheme::changed, this, &AnnotationQueryBar::applyTheme);
}

void AnnotationQueryBar::setQueries(const std::vector<AnnotationQueryDefinition> &queries, const AnnotationScope &scope)
{
    for (QToolButton *button : m_buttons)
        delete button;
    m_buttons.clear();
    for (const AnnotationQueryDefinition &query : queries) {
        auto *button = new QToolButton;
        button->setObjectName(QStringLiteral("annotationQuery:") + query.name);
        button->setText(query.name);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setCheckable(true);
        button->setChecked(scope.isQueryShown(query.name));
        button->setToolTip(tr("Marks of the query \"%1\" on the charts (%2); they are recorded either way.\n%3")
                               .arg(query.name, AnnotationQueryDefinition::modeName(query.mode), query.query));
        const QString name = query.name;
        connect(button, &QToolButton::toggled, this, [this, name](bool shown) { emit queryToggled(name, shown); });
        m_layout->addWidget(button);
        m_buttons.push_back(button);
    }
    applyTheme();
}

void AnnotationQueryBar::applyTheme()
{
    const QColor color = Palette::annotationColor(Annotation::Source::Query, false, UiTheme::instance()->background());
    for (QToolButton *button : m_buttons)
        button->setIcon(swatch(color));
}
