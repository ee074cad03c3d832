// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/annotationscope.h"
#include "annotations/annotation.h"
#include "timeline/annotationlayout.h"
#include "timeline/chartgestures.h"
#include "timeline/timeaxismap.h"

#include <QCoreApplication>
#include <QFont>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <optional>
#include <utility>
#include <vector>

class AnnotationModel;
class QPainter;
class QWidget;

// The annotations over a chart's plot: dashed lines, region bands, labels in a few rows at
// the top, "+N" badges where markers crowd (a click lists them), and the mark a Ctrl+click is
// about to add. It lays them out for the chart's size (AnnotationLayout), says what is under
// the mouse (for a gesture, a cursor shape and a tooltip) and paints them. Not a widget: the
// chart hands it the painter and its viewport.
class AnnotationOverlay
{
    Q_DECLARE_TR_FUNCTIONS(AnnotationOverlay)
public:
    // What the last paint drew, for tests and tools that check the picture, not the model.
    struct DrawnAnnotation
    {
        quint64 id = 0;
        double x = 0;               // of the start line (widget coordinates)
        std::optional<double> endX; // a region's end
        bool startVisible = false;
        bool clustered = false; // its line is part of a "+N" badge
        QRectF label;           // its own label; empty when clustered or without room
    };
    struct DrawnCluster
    {
        std::vector<quint64> ids;
        QRectF badge;
        bool expanded = false;
    };

    // The chart as the overlay needs it now.
    struct Context
    {
        TimeAxisMap axis;                           // the visible range over the plot
        QFont font;                                 // of the labels
        std::optional<ChartGestures::Moved> moving; // drawn where it would land
        bool editable = false;                      // an editor can move them
    };

    void setModel(AnnotationModel *model) { m_model = model; }
    AnnotationModel *model() const { return m_model; }
    // Which of the model's annotations this chart draws: those the scope shows on `panel`.
    void setScope(const AnnotationScope &scope, int panel)
    {
        m_scope = scope;
        m_panel = panel;
    }

    // What a press at pos would grab.
    ChartGestures::Target targetAt(const QPointF &pos, const Context &context) const;
    // The cursor shape and the tooltip for the mouse at pos over the viewport (a tooltip is
    // shown again only when what is under the mouse changed, so that it does not flicker).
    void hover(const QPointF &pos, bool inPlot, const Context &context, QWidget *viewport);
    bool showsToolTip() const { return !m_toolTipKey.isEmpty(); }
    // The mouse left, or a press began: no tooltip.
    void endHover();

    void toggleCluster(quint64 id) { m_expandedCluster = m_expandedCluster == id ? std::nullopt : std::optional(id); }
    void closeClusterList() { m_expandedCluster.reset(); }

    // The mark a prompt is open for (its time and, for a region, its end), drawn until cleared.
    using Mark = std::pair<qint64, std::optional<qint64>>;
    void setPendingMark(const Mark &mark) { m_pendingMark = mark; }
    // Clears it if it is still this one: a second Ctrl+click replaces it.
    void clearPendingMark(const Mark &mark);

    void paint(QPainter *painter, const Context &context);
    // The mark being made by a Ctrl+click or Ctrl+drag (x of its start and, once dragged, its
    // end), or else the one a prompt is open for.
    void paintPreview(QPainter *painter, const Context &context,
                      const std::optional<std::pair<double, std::optional<double>>> &making) const;

    const QList<DrawnAnnotation> &drawnAnnotations() const { return m_drawnAnnotations; }
    const QList<DrawnCluster> &drawnClusters() const { return m_drawnClusters; }

private:
    // The annotations of the visible range, laid out for the current size (and with the
    // marker being dragged at its new place).
    struct View
    {
        std::vector<Annotation> annotations;
        AnnotationLayout::Result layout;
        const Annotation &of(const AnnotationLayout::Marker &marker) const
        {
            return annotations[std::size_t(marker.item)];
        }
    };
    View layout(const Context &context) const;
    QString toolTipFor(const View &view, const AnnotationLayout::Hit &hit, bool editable) const;

    AnnotationModel *m_model = nullptr;
    AnnotationScope m_scope;
    int m_panel = -1;
    std::optional<quint64> m_expandedCluster; // an annotation id inside the expanded cluster
    std::optional<Mark> m_pendingMark;        // a prompt is open for it
    QString m_toolTipKey;                     // what the tooltip shows now
    QList<DrawnAnnotation> m_drawnAnnotations;
    QList<DrawnCluster> m_drawnClusters;
};
