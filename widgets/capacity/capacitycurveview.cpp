// SPDX-License-Identifier: GPL-3.0-or-later
#include "capacity/capacitycurveview.h"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>

CapacityCurveView::CapacityCurveView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(320, 240);
    setAccessibleName(tr("Capacity curve"));
}

void CapacityCurveView::setCurve(const CapacityCurve &curve)
{
    m_curve = curve;
    m_curve.title.clear(); // the dock's title says it
    setToolTip(curve.result.stairs.empty() ? QString() : curve.result.summary(curve.rateUnit));
    update();
}

void CapacityCurveView::paintEvent(QPaintEvent *)
{
    ExportTheme theme = ExportTheme::app();
    theme.background = palette().color(QPalette::Base);
    theme.text = palette().color(QPalette::Text);
    theme.mutedText = palette().color(QPalette::PlaceholderText);
    theme.grid = palette().color(QPalette::Midlight);
    theme.axis = palette().color(QPalette::Mid);
    theme.margin = 12;
    QPainter painter(this);
    m_curve.paint(painter, rect(), theme);
}

QImage CapacityCurveView::picture() const
{
    CapacityCurve titled = m_curve;
    titled.title = CapacityCurve().title;
    return titled.render(QSize(1200, 720), 2.0);
}

void CapacityCurveView::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *save = menu.addAction(tr("Save picture…"));
    save->setEnabled(!m_curve.result.stairs.empty());
    if (menu.exec(event->globalPos()) != save)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the capacity curve"),
                                                      QStringLiteral("capacity-curve.png"), tr("PNG pictures (*.png)"));
    if (path.isEmpty())
        return;
    if (!picture().save(path, "PNG"))
        QMessageBox::warning(this, tr("Save the capacity curve"), tr("%1 could not be written.").arg(path));
}
