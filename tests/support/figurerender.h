// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "export/figurelayout.h"
#include "export/figurepainter.h"

#include <QImage>
#include <QPainter>

class SampleStore;

// An export as a picture test reads it: the image FigurePainter paints for a figure at the
// size it chooses for `requested`, on white, and where it put each part. For widget tests
// (they link the widgets); header-only, so the support library stays free of them.
struct RenderedFigure
{
    QImage image;
    FigureLayout layout;
};

inline RenderedFigure renderFigure(const SampleStore &store, const ExportFigure &figure, QSizeF requested,
                                   const ExportTheme &theme = ExportTheme::blog())
{
    const FigurePainter painter(store, theme);
    const QSizeF size = painter.sizeFor(figure, requested);
    RenderedFigure rendered{QImage(size.toSize(), QImage::Format_ARGB32_Premultiplied), {}};
    rendered.image.fill(Qt::white);
    {
        QPainter qp(&rendered.image); // done before the image is handed back
        painter.paint(qp, QRectF(QPointF(0, 0), size), figure, &rendered.layout);
    }
    return rendered;
}
