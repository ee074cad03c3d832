// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capacity/capacitycurvepainter.h"

#include <QWidget>

// The capacity curve on screen, in the window's colours; filled in stair by stair while a
// ceiling search runs. Its context menu saves it as a picture for the write-up.
class CapacityCurveView : public QWidget
{
    Q_OBJECT
public:
    explicit CapacityCurveView(QWidget *parent = nullptr);

    void setCurve(const CapacityCurve &curve);
    const CapacityCurve &curve() const { return m_curve; }
    QSize sizeHint() const override { return {520, 360}; }

    // The picture "Save picture…" writes: the blog theme, twice as fine.
    QImage picture() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    CapacityCurve m_curve;
};
