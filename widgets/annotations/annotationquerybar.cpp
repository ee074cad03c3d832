// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotationquerybar.h"

#include "theme/palette.h"
#include "theme/uitheme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>

namespace {

// A small square of the query marks' colour: the button says which marks it switches.
QIcon swatch(const QColor &color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawRoundedRect(QRectF(1, 1, 10, 10), 2, 2);
    return QIcon(pixmap);
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

QToolButton *AnnotationQueryBar::buttonFor(const QString &query) const
{
    for (QToolButton *button : m_buttons) {
        if (button->text() == query)
            return button;
    }
    return nullptr;
}

void AnnotationQueryBar::applyTheme()
{
    const QColor color = Palette::annotationColor(Annotation::Source::Query, false, UiTheme::instance()->background());
    for (QToolButton *button : m_buttons)
        button->setIcon(swatch(color));
}
