// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/annotationoverlay.h"

#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "chart/chartpaint.h"
#include "theme/palette.h"
#include "theme/uitheme.h"

#include <QDateTime>
#include <QFontMetricsF>
#include <QPainter>
#include <QToolTip>
#include <QWidget>
#include <algorithm>
#include <cmath>

using namespace ChartPaint;
using HitKind = AnnotationLayout::HitKind;

namespace {

// How near (px) the mouse must be to a marker line or band edge to grab it.
constexpr double kGrabTolerancePx = 4;
// Markers closer than this collapse into one "+N" badge.
constexpr double kClusterPx = 8;
constexpr double kLabelPadding = 5; // text inset in a label box, besides the colour bar
constexpr double kColourBar = 3;

QString labelText(const Annotation &annotation, const QFontMetricsF &metrics, double plotWidth)
{
    // The first line only: the tooltip and the dock show the rest.
    const QString firstLine = annotation.text.section(QLatin1Char('\n'), 0, 0);
    return metrics.elidedText(firstLine, Qt::ElideRight, std::min(220.0, plotWidth * 0.4));
}

// A detector's suggestion is drawn faded until the user accepts it, so it reads as a
// proposal next to what people and actions marked.
QColor markerColor(const Annotation &annotation)
{
    const QColor color = Palette::annotationColor(annotation.source, annotation.failed, themeBackground());
    return annotation.suggested ? withAlpha(color, 0.45) : color;
}

} // namespace

AnnotationOverlay::View AnnotationOverlay::layout(const Context &context) const
{
    View view;
    if (!m_model)
        return view;
    const TimeRange range = context.axis.range;
    view.annotations = m_model->inRange(range);
    std::erase_if(view.annotations, [this](const Annotation &a) { return !m_scope.shows(a, m_panel); });
    if (context.moving) {
        // The marker being dragged is drawn where it would land; a start dragged past its end
        // makes the end the start.
        qint64 timeMs = context.moving->timeMs;
        std::optional<qint64> endMs = context.moving->endMs;
        if (endMs && *endMs < timeMs)
            std::swap(*endMs, timeMs);
        for (Annotation &a : view.annotations) {
            if (a.id == context.moving->id) {
                a.timeMs = timeMs;
                a.endMs = endMs;
            }
        }
        std::stable_sort(view.annotations.begin(), view.annotations.end(),
                         [](const Annotation &x, const Annotation &y) { return x.timeMs < y.timeMs; });
    }
    const QRectF plot = context.axis.plot;
    const QFontMetricsF metrics(context.font);
    std::vector<AnnotationLayout::Item> items;
    items.reserve(view.annotations.size());
    for (const Annotation &a : view.annotations) {
        const double width =
            metrics.horizontalAdvance(labelText(a, metrics, plot.width())) + 2 * kLabelPadding + kColourBar;
        items.push_back({a.id, a.timeMs, a.endMs, std::ceil(width), a.labelPriority()});
    }
    AnnotationLayout::Options options;
    options.range = range;
    options.plotLeft = plot.left();
    options.plotWidth = plot.width();
    options.plotTop = plot.top();
    options.plotBottom = plot.bottom();
    options.clusterPx = kClusterPx;
    options.rowHeight = std::ceil(metrics.height()) + 3;
    options.rowGap = 3;
    // Labels cover at most a fifth of the plot (a short plot beside open docks keeps its data
    // in view): up to three rows, fewer on a short plot, none below two rows' worth -- the
    // lines stay, the dock lists every mark and a hover names it.
    options.rows = std::clamp(int((plot.height() / 5 - 2) / (options.rowHeight + options.rowGap)), 0, 3);
    options.badgeWidth = [&metrics](int n) {
        return std::ceil(metrics.horizontalAdvance(QStringLiteral("+%1").arg(n))) + 12;
    };
    options.expandedId = m_expandedCluster;
    options.listRowHeight = std::ceil(metrics.height()) + 5;
    options.listWidth = std::min(300.0, plot.width() - 8);
    view.layout = AnnotationLayout::compute(items, options);
    return view;
}

ChartGestures::Target AnnotationOverlay::targetAt(const QPointF &pos, const Context &context) const
{
    ChartGestures::Target target;
    const View view = layout(context);
    const AnnotationLayout::Hit hit = AnnotationLayout::hitTest(view.layout, pos, kGrabTolerancePx);
    target.kind = hit.kind;
    if (hit.kind == HitKind::Badge) {
        const auto &group = view.layout.groups[std::size_t(hit.group)];
        target.cluster = view.of(view.layout.markers[std::size_t(group.markers.front())]).id;
    } else if (hit.kind == HitKind::Start || hit.kind == HitKind::End || hit.kind == HitKind::Label) {
        const Annotation &a = view.of(view.layout.markers[std::size_t(hit.marker)]);
        if (a.isReadOnly())
            target.kind = HitKind::None; // a query's mark stays where its data put it
        else
            target.mark = ChartGestures::Mark{a.id, a.timeMs, a.endMs, a.suggested};
    }
    return target;
}

void AnnotationOverlay::hover(const QPointF &pos, bool inPlot, const Context &context, QWidget *viewport)
{
    AnnotationLayout::Hit hit;
    View view;
    if (inPlot && m_model) {
        view = layout(context);
        hit = AnnotationLayout::hitTest(view.layout, pos, kGrabTolerancePx);
    }
    const bool movable = context.editable &&
                         (hit.kind == HitKind::Start || hit.kind == HitKind::End || hit.kind == HitKind::Label) &&
                         !view.of(view.layout.markers[std::size_t(hit.marker)]).isReadOnly();
    if (movable)
        viewport->setCursor(Qt::SizeHorCursor);
    else if (hit.kind == HitKind::Badge)
        viewport->setCursor(Qt::PointingHandCursor);
    else
        viewport->setCursor(Qt::CrossCursor);

    QString key;
    if (hit.kind == HitKind::Badge)
        key = QStringLiteral("badge:%1").arg(view.layout.groups[std::size_t(hit.group)].markers.size());
    else if (hit.kind != HitKind::None)
        key = QStringLiteral("%1:%2").arg(int(hit.kind)).arg(view.of(view.layout.markers[std::size_t(hit.marker)]).id);
    if (key == m_toolTipKey)
        return;
    m_toolTipKey = key;
    if (key.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(viewport->mapToGlobal(pos.toPoint()) + QPoint(12, 12),
                           toolTipFor(view, hit, context.editable), viewport);
}

void AnnotationOverlay::endHover()
{
    QToolTip::hideText();
    m_toolTipKey.clear();
}

void AnnotationOverlay::clearPendingMark(const Mark &mark)
{
    if (m_pendingMark == mark)
        m_pendingMark.reset();
}

QString AnnotationOverlay::toolTipFor(const View &view, const AnnotationLayout::Hit &hit, bool editable) const
{
    if (hit.kind == HitKind::None)
        return {};
    if (hit.kind == HitKind::Badge) {
        const auto &group = view.layout.groups[std::size_t(hit.group)];
        QStringList lines;
        for (int m : group.markers) {
            const Annotation &a = view.of(view.layout.markers[std::size_t(m)]);
            lines << QStringLiteral("%1&nbsp;&nbsp;%2")
                         .arg(timeText(a.timeMs), a.text.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped());
        }
        return QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
            .arg(tr("%n annotations", nullptr, int(group.markers.size())), lines.join(QStringLiteral("<br>")),
                 group.expanded ? tr("Click to close the list") : tr("Click to list them"));
    }
    const Annotation &a = view.of(view.layout.markers[std::size_t(hit.marker)]);
    QString when = QDateTime::fromMSecsSinceEpoch(a.timeMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (a.endMs)
        when += QStringLiteral(" – %1 (%2)").arg(timeText(*a.endMs), Format::duration(*a.endMs - a.timeMs));
    QString html = QStringLiteral("<b>%1</b><br>%2")
                       .arg(a.text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")), when);
    if (!a.tags.isEmpty())
        html += QStringLiteral("<br>%1 %2").arg(tr("Tags:"), a.tags.join(QStringLiteral(", ")).toHtmlEscaped());
    QString origin = Annotation::sourceName(a.source);
    if (!a.author.isEmpty())
        origin += QStringLiteral(" · ") + a.author.toHtmlEscaped();
    html += QStringLiteral("<br><span style='color:%1'>%2</span>").arg(UiTheme::css(themeColors().muted), origin);
    if (a.failed)
        html += QStringLiteral("<br><span style='color:%1'>%2</span>")
                    .arg(UiTheme::css(themeColors().error), tr("did not take effect"));
    if (a.isReadOnly() && hit.kind != HitKind::ListRow) {
        html += QStringLiteral("<br><i>%1</i>")
                    .arg(tr("From the query's data: it stays where the data put it. In the Annotations dock, "
                            "right-click ▸ Copy into a note makes one of yours."));
    } else if (editable && hit.kind != HitKind::ListRow) {
        QString hint = tr("Drag to move it");
        if (hit.kind == HitKind::Start && a.endMs)
            hint = tr("Drag to move its start");
        else if (hit.kind == HitKind::End)
            hint = tr("Drag to move its end");
        html += QStringLiteral("<br><i>%1</i>").arg(hint);
    }
    return html;
}

void AnnotationOverlay::paint(QPainter *painter, const Context &context)
{
    m_drawnAnnotations.clear();
    m_drawnClusters.clear();
    const View view = layout(context);
    if (view.layout.markers.empty())
        return;
    const QRectF plot = context.axis.plot;
    const auto &markers = view.layout.markers;
    const auto &groups = view.layout.groups;
    painter->save();
    painter->setClipRect(plot.adjusted(0, 0, 1, 1));
    const QFont &font = context.font;
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    // The id of the marker being dragged, 0 for none (ids start at 1). A plain value: an
    // optional here makes GCC's -O2/-O3 flow analysis warn falsely of an uninitialised read.
    const quint64 dragged = context.moving ? context.moving->id : 0;

    // Bands first: lines and labels go over them.
    for (const auto &marker : markers) {
        if (!marker.endX)
            continue;
        const Annotation &a = view.of(marker);
        const QColor color = markerColor(a);
        const double left = std::clamp(marker.x, plot.left(), plot.right());
        const double right = std::clamp(*marker.endX, plot.left(), plot.right());
        painter->fillRect(QRectF(QPointF(left, plot.top()), QPointF(right, plot.bottom())), withAlpha(color, 0.10));
    }
    for (const auto &marker : markers) {
        const Annotation &a = view.of(marker);
        const QColor color = markerColor(a);
        QPen pen(color, dragged != 0 && dragged == a.id ? 2.0 : 1.3, a.failed ? Qt::DotLine : Qt::DashLine);
        if (a.suggested)
            pen.setDashPattern({2, 4}); // sparser than an accepted mark's dashes
        painter->setPen(pen);
        if (marker.startVisible) {
            const double x = std::round(marker.x) + 0.5;
            painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
        if (marker.endX && marker.endVisible) {
            const double x = std::round(*marker.endX) + 0.5;
            painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
        DrawnAnnotation drawn;
        drawn.id = a.id;
        drawn.x = marker.x;
        drawn.endX = marker.endX;
        drawn.startVisible = marker.startVisible;
        if (marker.group >= 0) {
            const auto &group = groups[std::size_t(marker.group)];
            drawn.clustered = group.isCluster();
            if (!drawn.clustered)
                drawn.label = group.label;
        }
        m_drawnAnnotations.append(drawn);
    }

    painter->setRenderHint(QPainter::Antialiasing);
    for (const auto &group : groups) {
        const Annotation &first = view.of(markers[std::size_t(group.markers.front())]);
        if (!group.isCluster()) {
            if (group.label.isEmpty())
                continue;
            const QColor color = markerColor(first);
            painter->setPen(Qt::NoPen);
            // Translucent, so that a curve behind a label still shows through it.
            painter->setBrush(withAlpha(themeColors().labelBackground, first.suggested ? 0.55 : 0.78));
            painter->drawRoundedRect(group.label, 2, 2);
            // The coloured edge is on the side of the line: the label reads as hanging from it.
            const double barLeft = group.leftOfLine ? group.label.right() - kColourBar : group.label.left();
            painter->fillRect(QRectF(barLeft, group.label.top(), kColourBar, group.label.height()), color);
            painter->setPen(labelTextColor(color));
            // Elided again to the box: the layout shortens a label when its whole text has no room.
            const QRectF textBox = group.leftOfLine
                                       ? group.label.adjusted(kLabelPadding, 0, -kColourBar - kLabelPadding, 0)
                                       : group.label.adjusted(kColourBar + kLabelPadding, 0, -kLabelPadding, 0);
            painter->drawText(
                textBox, Qt::AlignLeft | Qt::AlignVCenter,
                metrics.elidedText(labelText(first, metrics, plot.width()), Qt::ElideRight, textBox.width()));
            continue;
        }
        DrawnCluster cluster;
        cluster.badge = group.label;
        cluster.expanded = group.expanded;
        // One colour when every member has it (say, a burst of actions), slate otherwise.
        QColor color = Palette::annotationColor(first.source, first.failed, themeBackground());
        for (int m : group.markers) {
            const Annotation &a = view.of(markers[std::size_t(m)]);
            cluster.ids.push_back(a.id);
            if (Palette::annotationColor(a.source, a.failed, themeBackground()) != color)
                color = Palette::annotationColor(Annotation::Source::Manual, false, themeBackground());
        }
        m_drawnClusters.append(cluster);
        if (!group.label.isEmpty()) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(color);
            painter->drawRoundedRect(group.label, group.label.height() / 2, group.label.height() / 2);
            painter->setPen(UiTheme::instance()->isDark() ? themeColors().panel : QColor(Qt::white));
            QFont bold = font;
            bold.setBold(true);
            painter->setFont(bold);
            painter->drawText(group.label, Qt::AlignCenter, QStringLiteral("+%1").arg(group.markers.size()));
            painter->setFont(font);
        }
        if (group.expanded && !group.listRows.empty()) {
            const QRectF list = group.listRows.front().united(group.listRows.back()).adjusted(-1, -1, 1, 1);
            painter->setPen(QPen(themeColors().labelBorder, 1));
            painter->setBrush(withAlpha(themeColors().labelBackground, 0.96));
            painter->drawRoundedRect(list, 3, 3);
            for (std::size_t k = 0; k < group.listRows.size(); ++k) {
                const Annotation &a = view.of(markers[std::size_t(group.markers[k])]);
                const QRectF row = group.listRows[k];
                const QColor rowColor = Palette::annotationColor(a.source, a.failed, themeBackground());
                painter->fillRect(QRectF(row.left() + 6, row.center().y() - 4, 8, 8), rowColor);
                const QString when = timeText(a.timeMs);
                painter->setPen(themeColors().muted);
                const QRectF textArea = row.adjusted(20, 0, -6, 0);
                painter->drawText(textArea, Qt::AlignLeft | Qt::AlignVCenter, when);
                const double whenWidth = metrics.horizontalAdvance(when) + 8;
                painter->setPen(labelTextColor(rowColor));
                painter->drawText(textArea.adjusted(whenWidth, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                                  metrics.elidedText(a.text.section(QLatin1Char('\n'), 0, 0), Qt::ElideRight,
                                                     textArea.width() - whenWidth));
            }
        }
    }
    painter->restore();
}

void AnnotationOverlay::paintPreview(QPainter *painter, const Context &context,
                                     const std::optional<std::pair<double, std::optional<double>>> &making) const
{
    // What Ctrl+click / Ctrl+drag is about to add, shown while dragging and while the prompt
    // for its text is open.
    std::optional<double> x1;
    std::optional<double> x2;
    if (making) {
        x1 = making->first;
        x2 = making->second;
    } else if (m_pendingMark) {
        x1 = context.axis.xFor(m_pendingMark->first);
        if (m_pendingMark->second)
            x2 = context.axis.xFor(*m_pendingMark->second);
    }
    if (!x1)
        return;
    const QRectF plot = context.axis.plot;
    const QColor color = Palette::annotationColor(Annotation::Source::Manual, false, themeBackground());
    painter->save();
    painter->setClipRect(plot.adjusted(0, 0, 1, 1));
    if (x2) {
        painter->fillRect(QRectF(QPointF(std::min(*x1, *x2), plot.top()), QPointF(std::max(*x1, *x2), plot.bottom())),
                          withAlpha(color, 0.14));
    }
    painter->setPen(QPen(color, 1.5));
    for (const std::optional<double> &x : {x1, x2}) {
        if (x)
            painter->drawLine(QPointF(std::round(*x) + 0.5, plot.top()), QPointF(std::round(*x) + 0.5, plot.bottom()));
    }
    painter->restore();
}
