// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/timelinechart.h"

#include "annotating/annotationeditor.h"
#include "annotating/annotationprompt.h"
#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "chart/chartpaint.h"
#include "chart/heatmappaint.h"
#include "fetching/seriesbindings.h"
#include "store/samplestore.h"
#include "theme/palette.h"
#include "theme/uitheme.h"
#include "timeline/timecursor.h"
#include "timeline/timeticks.h"
#include "timeline/timewindow.h"

#include <QDateTime>
#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

using namespace ChartPaint;

namespace {

// Series: the palette's colour (Palette::resolve); an area is filled with it at this opacity.
constexpr double kAreaFillAlpha = 0.25;
// The curves' pen, in device pixels (cosmetic), antialiased. 1 px is the raster engine's fast
// path (QCosmeticStroker); 1.6 px looks a little bolder but costs 3-4 times as much per point
// (docs/performance.md).
constexpr double kLineWidthPx = 1.0;

// The wheel has no release; a pause this long ends one pan or zoom in the history.
constexpr int kWheelGestureEndMs = 400;

} // namespace

TimelineChart::TimelineChart(const PanelDefinition &panel, SampleStore *store, TimeWindow *window, QWidget *parent)
    // The chart is handed to the base constructor: QChartView(QWidget*) would create a default
    // chart that setChart() later replaces without deleting.
    : QChartView(new QChart, parent), m_panel(panel), m_store(store), m_window(window), m_chart(chart()),
      m_timeAxis(new QDateTimeAxis), m_leftAxis(new QValueAxis),
      m_renderer(
          store, window,
          [this] {
              return ChartRenderer::Frame{plotWidth(), m_status.stepMs, isHeatmap()};
          },
          [this](ChartRenderOutput output) { applyRender(std::move(output)); })
{
    // OpenGL series stay off: they break SVG export and offscreen rendering.
    m_chart->legend()->hide();            // the panel draws its own legend, with statistics
    m_chart->setBackgroundVisible(false); // the panel frame is the background
    applyTheme();
    connect(UiTheme::instance(), &UiTheme::changed, this, &TimelineChart::applyTheme);
    // Fixed gutters as chart margins, and no axis labels for Qt Charts to measure: every panel
    // then gets a plot area at the same offsets, so the time axes line up. (A fixed
    // setPlotArea() is not an option in 6.4: after a resize the axes and the series disagree
    // about where it is.) Labels are drawn here instead.
    m_chart->setMargins(QMargins(kLeftGutter, kTopGutter, kRightGutter, kBottomGutter));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    setRenderHint(QPainter::Antialiasing);
    m_layer.setLineWidth(kLineWidthPx);
    setFrameShape(QFrame::NoFrame);
    setMinimumHeight(120);

    QFont axisFont = font();
    axisFont.setPointSizeF(axisFont.pointSizeF() * 0.85);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_timeAxis), static_cast<QAbstractAxis *>(m_leftAxis)}) {
        axis->setLabelsFont(axisFont);
        axis->setGridLineColor(themeColors().grid);
        axis->setLinePenColor(themeColors().grid);
    }
    m_leftAxis->setLabelsVisible(false);
    m_leftAxis->setGridLineVisible(false); // drawn here, from m_leftScale
    // The time axis only maps; its labels and grid are drawn here at round instants
    // (TimeTicks), which Qt Charts' date-time axis cannot do.
    m_timeAxis->setLabelsVisible(false);
    m_timeAxis->setGridLineVisible(false);
    m_timeAxis->setFormat(QStringLiteral("HH:mm:ss"));
    m_timeAxis->setTickCount(2);
    m_leftAxis->setTickCount(5);
    m_leftAxis->setRange(0, 1);
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_leftAxis, Qt::AlignLeft);
    // Qt Charts 6.4 never shows a date-time axis that had no series attached at the first
    // layout, even after series arrive; an empty series keeps it alive from the start.
    auto *axisAnchor = new QLineSeries;
    m_chart->addSeries(axisAnchor);
    axisAnchor->attachAxis(m_timeAxis);
    axisAnchor->attachAxis(m_leftAxis);
    // Every panel has a right axis, used or not: an axis takes a little room in Qt Charts' layout
    // even without labels, and panels with and without one would otherwise differ by that.
    axisFor(AxisSide::Right);
    // Qt Charts puts the plot area a few pixels inside the margins (axis lines and ticks); the
    // margins are corrected once after each layout so the plot sits exactly at the gutters.
    connect(m_chart, &QChart::plotAreaChanged, this, &TimelineChart::keepPlotAtGutters);

    // Hover drives the crosshair, the read-out and the annotation tooltips.
    viewport()->setMouseTracking(true);
    viewport()->setCursor(Qt::CrossCursor);
    m_scrollEnd.setSingleShot(true);
    m_scrollEnd.setInterval(kWheelGestureEndMs);
    connect(&m_scrollEnd, &QTimer::timeout, this, &TimelineChart::scrollFinished);
}

TimelineChart::~TimelineChart()
{
    // A note being typed is a child widget: Qt would delete it after this chart's members are
    // gone, and its focus loss would then tell this chart it was cancelled. It goes first.
    if (m_prompt) {
        disconnect(m_prompt, nullptr, this, nullptr);
        delete m_prompt;
    }
}

void TimelineChart::applyTheme()
{
    setBackgroundBrush(themeColors().panel);
    for (QValueAxis *axis : {m_leftAxis, m_rightAxis}) {
        if (!axis)
            continue;
        axis->setGridLineColor(themeColors().grid);
        axis->setLinePenColor(themeColors().grid);
    }
    m_timeAxis->setLinePenColor(themeColors().grid);
    // The palette's colours differ between light and dark (its black becomes light grey);
    // a colour the dashboard file gives stays as it is.
    for (std::size_t i = 0; i < m_slots.size(); ++i)
        m_slots[i].color = Palette::resolve(m_slots[i].definition.color, int(i), themeBackground());
    scheduleRender(); // the layer takes the colours with the next render; the legend follows
    viewport()->update();
}

void TimelineChart::addSeries(const QString &key, const QString &name, int queryIndex)
{
    if (queryIndex < 0 || queryIndex >= int(m_panel.series.size()))
        return;
    for (const Slot &existing : m_slots) {
        if (existing.key == key)
            return; // announced twice (a rebuild and a discovery): drawn once
    }
    Slot slot;
    slot.key = key;
    slot.name = name;
    slot.query = queryIndex;
    slot.definition = m_panel.series[std::size_t(queryIndex)];
    // In its drawing place (SeriesBinding's order: by query, then legend), not where it
    // arrived: the answers of a live poll come in any order, and a rebuild (a panel added
    // from Explore) binds them sorted -- the legends and colours of the other panels must
    // not change because one was added. The colours follow the places.
    const auto bindingOf = [](const Slot &s) { return SeriesBinding{0, s.query, s.key, s.name}; };
    const auto place = std::upper_bound(m_slots.begin(), m_slots.end(), slot, [&](const Slot &a, const Slot &b) {
        return bindingOf(a).drawsBefore(bindingOf(b));
    });
    m_slots.insert(place, slot);
    for (std::size_t i = 0; i < m_slots.size(); ++i)
        m_slots[i].color = Palette::resolve(m_slots[i].definition.color, int(i), themeBackground());
    std::vector<QString> keys;
    keys.reserve(m_slots.size());
    for (const Slot &shown : m_slots)
        keys.push_back(shown.key);
    m_renderer.setKeys(std::move(keys)); // and a render follows
}

void TimelineChart::setSeriesVisible(const QString &key, bool visible)
{
    for (std::size_t i = 0; i < m_slots.size(); ++i) {
        if (m_slots[i].key != key || m_slots[i].visible == visible)
            continue;
        m_slots[i].visible = visible;
        for (LegendEntry &entry : m_legend) {
            if (entry.key == key)
                entry.visible = visible;
        }
        // At once, from the points at hand; the value axes follow the visible series.
        if (!m_layer.setVisible(i, visible).isEmpty()) {
            if (updateScales())
                m_layer.update(m_layer.series(), layerView(m_layer.view().range));
            viewport()->update();
        }
        emit legendChanged();
    }
}

bool TimelineChart::isSeriesVisible(const QString &key) const
{
    for (const Slot &slot : m_slots) {
        if (slot.key == key)
            return slot.visible;
    }
    return false;
}

void TimelineChart::setLineWidth(double px)
{
    m_layer.setLineWidth(px);
    viewport()->update();
}

void TimelineChart::setAntialiasedLines(bool on)
{
    m_layer.setAntialiased(on);
    viewport()->update();
}

std::vector<QPolygonF> TimelineChart::drawnPolylines(const QString &key) const
{
    for (std::size_t i = 0; i < m_slots.size(); ++i) {
        if (m_slots[i].key == key)
            return i < m_layer.series().size() && m_layer.series()[i].visible ? m_layer.polylines(i)
                                                                              : std::vector<QPolygonF>{};
    }
    return {};
}

QValueAxis *TimelineChart::axisFor(AxisSide side)
{
    if (side == AxisSide::Left)
        return m_leftAxis;
    if (!m_rightAxis) {
        m_rightAxis = new QValueAxis;
        m_rightAxis->setLabelsFont(m_leftAxis->labelsFont());
        m_rightAxis->setLabelsVisible(false);
        m_rightAxis->setGridLineVisible(false);
        m_rightAxis->setLinePenColor(themeColors().grid);
        m_rightAxis->setTickCount(5);
        m_chart->addAxis(m_rightAxis, Qt::AlignRight);
    }
    return m_rightAxis;
}

bool TimelineChart::applyScale(double low, double high, int targetTicks, ValueScale *scale_out)
{
    // Ticks at multiples of a nice step (0, 50, 100 …), not at fifths of an odd span, by the
    // rule every export follows too (ValueScale).
    // Qt Charts' value axes are not told: the grid and the labels are drawn here from this
    // scale. Setting their range re-laid out every axis label (a text document each) and
    // the chart's scene: 10 ms a panel, all panels at once when a backfill changed scales.
    const ValueScale next = ValueScale::nice(low, high, targetTicks);
    if (next == *scale_out)
        return false;
    *scale_out = next;
    return true;
}

bool TimelineChart::usesRightAxis() const
{
    return std::any_of(m_slots.begin(), m_slots.end(),
                       [](const Slot &slot) { return slot.definition.axis == AxisSide::Right; });
}

void TimelineChart::keepPlotAtGutters(const QRectF &plot)
{
    // A new height may take another number of ticks; the layer follows the plot at the next
    // paint, with these scales.
    updateScales();
    const QSizeF size = m_chart->size();
    if (plot.width() <= 1 || plot.height() <= 1)
        return;
    // Whole pixels only, rounded towards zero: a half-pixel offset cannot be corrected with
    // integer margins, and chasing it would re-layout forever. Every panel has the same axes,
    // so any remainder is the same in all of them.
    auto extra = [](double actual, int wanted) { return int(std::trunc(actual - wanted)); };
    const int extraLeft = extra(plot.left(), kLeftGutter);
    const int extraRight = extra(size.width() - plot.right(), kRightGutter);
    const int extraTop = extra(plot.top(), kTopGutter);
    const int extraBottom = extra(size.height() - plot.bottom(), kBottomGutter);
    if (extraLeft == 0 && extraRight == 0 && extraTop == 0 && extraBottom == 0)
        return;
    const QMargins margins = m_chart->margins();
    const QMargins corrected(std::max(0, margins.left() - extraLeft), std::max(0, margins.top() - extraTop),
                             std::max(0, margins.right() - extraRight), std::max(0, margins.bottom() - extraBottom));
    if (corrected != margins)
        m_chart->setMargins(corrected);
}

void TimelineChart::setAnnotationModel(AnnotationModel *annotations)
{
    if (m_overlay.model())
        disconnect(m_overlay.model(), nullptr, viewport(), nullptr);
    m_overlay.setModel(annotations);
    if (m_editor && m_editor->model() != annotations)
        m_editor = nullptr; // another model: drawn, not edited
    if (annotations)
        connect(annotations, &AnnotationModel::annotationsChanged, viewport(), qOverload<>(&QWidget::update));
    viewport()->update();
}

void TimelineChart::setAnnotationScope(const AnnotationScope &scope, int panel)
{
    m_overlay.setScope(scope, panel);
    viewport()->update();
}

void TimelineChart::setAnnotationEditor(AnnotationEditor *editor)
{
    m_editor = editor; // none: the annotations stay drawn, only not editable here
    if (editor)
        setAnnotationModel(editor->model());
}

void TimelineChart::setTimeCursor(TimeCursor *cursor)
{
    if (m_crosshair.cursor())
        disconnect(m_crosshair.cursor(), nullptr, this, nullptr);
    m_crosshair.setCursor(cursor);
    if (cursor)
        connect(cursor, &TimeCursor::changed, this, &TimelineChart::onCursorChanged);
    viewport()->update();
}

void TimelineChart::setStatus(const PanelStatus &status)
{
    m_status = status;
    viewport()->update();
}

int TimelineChart::plotWidth() const
{
    const qreal laidOut = m_chart->plotArea().width();
    return laidOut > 1 ? int(laidOut) : qMax(1, width() - kLeftGutter - kRightGutter);
}

QRectF TimelineChart::plotRect() const
{
    return m_chart->plotArea();
}

int TimelineChart::drawnPointCount() const
{
    return m_layer.pointCount();
}

qint64 TimelineChart::timeAt(double x) const
{
    return axisMap().timeAt(x);
}

TimeAxisMap TimelineChart::axisMap() const
{
    return TimeAxisMap{m_window->range(), m_chart->plotArea()};
}

AnnotationOverlay::Context TimelineChart::overlayContext() const
{
    return AnnotationOverlay::Context{axisMap(), m_leftAxis->labelsFont(), m_gestures.moving(axisMap()),
                                      m_editor != nullptr};
}

void TimelineChart::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    emit plotWidthChanged(plotWidth());
    scheduleRender();
}

void TimelineChart::applyRender(ChartRenderOutput output)
{
    if (output.points.size() != m_slots.size()) {
        scheduleRender(); // a series was added while the job ran
        return;
    }
    // The time axis of Qt Charts is not moved: it maps nothing (the layer maps the points,
    // xFor() the rest), and moving it would re-lay out the chart and repaint every panel on
    // every tick.
    m_heatmap = std::move(output.heatmap);
    m_legend.clear();
    std::vector<SeriesLayer::Series> series;
    series.reserve(m_slots.size());
    for (std::size_t i = 0; i < m_slots.size(); ++i) {
        Slot &slot = m_slots[i];
        std::tie(slot.low, slot.high) = output.extents[i];
        m_legend.append(
            LegendEntry{slot.key, slot.name, slot.color, slot.definition.axis, output.stats[i], slot.visible});
        SeriesLayer::Series drawn;
        drawn.points = std::move(output.points[i]);
        drawn.color = slot.color;
        drawn.fill = slot.color;
        drawn.fill.setAlphaF(float(kAreaFillAlpha));
        drawn.style = slot.definition.style;
        drawn.axis = slot.definition.axis;
        drawn.dashed = !slot.definition.derive.isEmpty(); // computed here, not measured: dashed
        drawn.visible = slot.visible;
        series.push_back(std::move(drawn));
    }
    updateScales();
    // Only what changes by half a pixel is repainted: in an 8 h window a live tick moves the
    // plot by 1/44 of a pixel, and mostly changes nothing but the newest column.
    const SeriesLayer::Change change = m_layer.update(std::move(series), layerView(output.range));
    // A heatmap's cells are drawn from its grid at each paint, not by the layer.
    if (m_heatmap || change.full)
        viewport()->update();
    else if (!change.region.isEmpty())
        viewport()->update(change.region);
    emit legendChanged();
    emit rendered();
}

bool TimelineChart::updateScales()
{
    double leftMin = std::numeric_limits<double>::infinity();
    double leftMax = -leftMin;
    double rightMin = leftMin;
    double rightMax = leftMax;
    for (const Slot &slot : m_slots) {
        if (!slot.visible)
            continue;
        if (slot.definition.axis == AxisSide::Left) {
            leftMin = std::min(leftMin, slot.low);
            leftMax = std::max(leftMax, slot.high);
        } else {
            rightMin = std::min(rightMin, slot.low);
            rightMax = std::max(rightMax, slot.high);
        }
    }
    // A threshold is part of what the panel says: the axis reaches it once there is data.
    for (const Threshold &threshold : m_thresholds) {
        double &low = threshold.axis == AxisSide::Left ? leftMin : rightMin;
        double &high = threshold.axis == AxisSide::Left ? leftMax : rightMax;
        if (low > high)
            continue;
        low = std::min(low, threshold.value);
        high = std::max(high, threshold.value);
    }
    // One tick about every 70 px of the plot's height, as in an export of the same height.
    const int ticks = ValueScale::targetTicksFor(m_chart->plotArea().height());
    bool changed = applyScale(leftMin, leftMax, ticks, &m_leftScale);
    if (usesRightAxis())
        changed = applyScale(rightMin, rightMax, ticks, &m_rightScale) || changed;
    if (changed)
        viewport()->update(); // the value labels are drawn here, not by Qt Charts
    return changed;
}

SeriesLayer::View TimelineChart::layerView(const TimeRange &range) const
{
    SeriesLayer::View view;
    view.range = range;
    view.leftLow = m_leftScale.low;
    view.leftHigh = m_leftScale.high;
    view.rightLow = m_rightScale.low;
    view.rightHigh = m_rightScale.high;
    view.plot = m_chart->plotArea();
    return view;
}

TimeTicks::Ticks TimelineChart::timeTicks() const
{
    const TimeRange range = m_window->range();
    const qint64 offsetMs = qint64(QDateTime::fromMSecsSinceEpoch(range.startMs).offsetFromUtc()) * 1000;
    return TimeTicks::compute(range, plotWidth(), 90, offsetMs);
}

double TimelineChart::xFor(qint64 timeMs) const
{
    return axisMap().xFor(timeMs);
}

void TimelineChart::drawBackground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawBackground(painter, rect);
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setPen(QPen(themeColors().grid, 1));
    for (qint64 t : timeTicks().instantsMs) {
        const double x = std::round(xFor(t)) + 0.5;
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    // The value grid of the left scale, each line on one pixel row (where the series' values
    // land: SeriesGeometry's mapping).
    const ValueScale &scale = m_leftScale;
    if (scale.high > scale.low && !isHeatmap()) {
        const auto mapping = SeriesGeometry::Mapping::of(m_window->range(), scale.low, scale.high, plot);
        for (int i = 0; i < scale.count(); ++i) {
            const double y = std::floor(mapping.y(scale.tick(i))) + 0.5;
            painter->drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        }
    }
    painter->restore();
}

void TimelineChart::drawTimeLabels(QPainter *painter, const QRectF &plot)
{
    const TimeTicks::Ticks ticks = timeTicks();
    painter->save();
    QFont font = m_leftAxis->labelsFont();
    painter->setFont(font);
    painter->setPen(themeColors().axisText);
    const QFontMetricsF metrics(font);
    double lastRight = -1e9;
    const QList<QRectF> valueLabels = m_drawnAxisLabelBoxes; // drawn before
    for (qint64 t : ticks.instantsMs) {
        const QString label = QDateTime::fromMSecsSinceEpoch(t).toString(ticks.labelFormat);
        const double width = metrics.horizontalAdvance(label);
        const double left = xFor(t) - width / 2;
        if (left < lastRight + 6 || left < plot.left() - kLeftGutter / 2.0 ||
            left + width > plot.right() + kRightGutter / 2.0)
            continue; // never overlap, never run off the panel
        // Nor into the lowest value label of either axis, at the plot's bottom corners.
        const QRectF box(left, plot.bottom() + 4, width, metrics.height());
        if (std::any_of(valueLabels.begin(), valueLabels.end(),
                        [&](const QRectF &value) { return value.adjusted(-3, 0, 3, 0).intersects(box); }))
            continue;
        painter->drawText(QPointF(left, plot.bottom() + 4 + metrics.ascent()), label);
        m_drawnAxisLabelBoxes << box;
        lastRight = left + width;
    }
    painter->restore();
}

void TimelineChart::drawValueLabels(QPainter *painter, const QRectF &plot)
{
    painter->save();
    const QFont font = m_leftAxis->labelsFont();
    painter->setFont(font);
    painter->setPen(themeColors().axisText);
    const QFontMetricsF metrics(font);
    m_drawnValueLabels.clear();
    auto drawScale = [&](const ValueScale &scale, const QString &unit, bool left) {
        if (scale.high <= scale.low)
            return;
        // Axis labels carry the unit only where it changes the number's reading (ms, MiB, %);
        // "ops/s" is in the panel title.
        const bool spelled = unit == QLatin1String("s") || unit == QLatin1String("bytes") || unit == QLatin1String("%");
        const auto mapping = SeriesGeometry::Mapping::of(m_window->range(), scale.low, scale.high, plot);
        for (int i = 0; i < scale.count(); ++i) {
            const double value = scale.tick(i);
            const double y = std::floor(mapping.y(value)) + 0.5; // on its grid line
            const QString label = Format::value(value, spelled ? unit : QString());
            if (left)
                m_drawnValueLabels << label;
            const double width = metrics.horizontalAdvance(label);
            const double x = left ? plot.left() - 6 - width : plot.right() + 6;
            const double baseline = y + metrics.ascent() / 2 - 1;
            painter->drawText(QPointF(x, baseline), label);
            m_drawnAxisLabelBoxes << QRectF(x, baseline - metrics.ascent(), width, metrics.height());
        }
    };
    drawScale(m_leftScale, m_panel.unit, true);
    // The right axis says nothing while every series on it is hidden (a legend click).
    const bool rightShown = std::any_of(m_slots.begin(), m_slots.end(), [](const Slot &slot) {
        return slot.visible && slot.definition.axis == AxisSide::Right;
    });
    if (rightShown)
        drawScale(m_rightScale, m_panel.rightUnit.isEmpty() ? m_panel.unit : m_panel.rightUnit, false);
    painter->restore();
}

void TimelineChart::setThresholds(const std::vector<Threshold> &thresholds)
{
    if (thresholds == m_thresholds)
        return;
    m_thresholds = thresholds;
    if (updateScales() && m_layer.pointCount() > 0)
        m_layer.update(m_layer.series(), layerView(m_layer.view().range)); // the curves follow the new axis
    viewport()->update();
}

void TimelineChart::drawThresholds(QPainter *painter, const QRectF &plot)
{
    m_drawnThresholds.clear();
    if (m_thresholds.empty() || isHeatmap())
        return;
    painter->save();
    QFont font = m_leftAxis->labelsFont();
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    for (const Threshold &threshold : m_thresholds) {
        const ValueScale &scale = threshold.axis == AxisSide::Left ? m_leftScale : m_rightScale;
        if (scale.high <= scale.low || threshold.value < scale.low || threshold.value > scale.high)
            continue;
        const auto mapping = SeriesGeometry::Mapping::of(m_window->range(), scale.low, scale.high, plot);
        const double y = std::round(mapping.y(threshold.value)) + 0.5;
        const QColor colour = threshold.failed ? themeColors().error : themeColors().warning;
        QPen pen(colour, 1.5, Qt::DashLine);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        // The label sits on the line's right end, above it unless that leaves the plot.
        const double width = metrics.horizontalAdvance(threshold.label);
        const double top = y - metrics.height() - 2 < plot.top() ? y + 2 : y - metrics.height() - 2;
        const QRectF box(plot.right() - width - 10, top, width + 8, metrics.height());
        QColor background = themeColors().panel;
        background.setAlphaF(0.85);
        painter->fillRect(box, background);
        painter->setPen(colour);
        painter->drawText(box, Qt::AlignCenter, threshold.label);
        m_drawnThresholds.append({threshold.label, y});
    }
    painter->restore();
}

void TimelineChart::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    const QRectF plot = m_chart->plotArea();
    if (plot != m_layer.view().plot && m_layer.pointCount() > 0) // resized: draw at the new size
        m_layer.update(m_layer.series(), layerView(m_layer.view().range));
    // Over the grid (Qt Charts' items), under the labels, annotations and crosshair.
    m_layer.paint(painter, rect);
    m_drawnAxisLabelBoxes.clear();
    if (isHeatmap())
        drawHeatmap(painter, plot);
    else
        drawValueLabels(painter, plot);
    drawThresholds(painter, plot);
    drawTimeLabels(painter, plot);
    const ChartCrosshair::Context crosshair = crosshairContext();
    m_crosshair.paintLine(painter, crosshair); // under the annotations: hovering a marker must not hide it
    const AnnotationOverlay::Context overlay = overlayContext();
    m_overlay.paint(painter, overlay);
    if (const auto zoom = m_gestures.zoomBand()) {
        const auto [from, to] = *zoom;
        const QRectF band(QPointF(std::clamp(std::min(from, to), plot.left(), plot.right()), plot.top()),
                          QPointF(std::clamp(std::max(from, to), plot.left(), plot.right()), plot.bottom()));
        painter->fillRect(band, themeColors().zoomBand);
    }
    m_overlay.paintPreview(painter, overlay, m_gestures.annotateSpan());
    drawStatus(painter, plot);
    m_crosshair.paintMarks(painter, crosshair);
}

void TimelineChart::drawHeatmap(QPainter *painter, const QRectF &plot)
{
    m_drawnBucketLabels.clear();
    if (!m_heatmap || m_heatmap->rows() == 0)
        return;
    // The grid is of the range its render had; drawn against the window's range now, as the
    // layer's curves are until the next render.
    const HeatmapPaint paint(*m_heatmap, Heatmap::rowEdges(m_heatmap->upperBounds, m_panel.buckets == BucketScale::Log),
                             m_window->range(), plot,
                             HeatmapPaint::Look{m_leftAxis->labelsFont(), themeColors().axisText, themeColors().panel,
                                                UiTheme::instance()->isDark()});
    painter->save();
    painter->setClipRect(plot);
    paint.paintCells(painter);
    painter->restore();
    m_drawnBucketLabels = HeatmapPaint::textsOf(paint.paintBucketLabels(painter, plot.left() - 6, m_panel.unit));
    paint.paintScale(painter, QRectF(plot.right() + 8, plot.top(), kRightGutter - 10, plot.height()));
}

void TimelineChart::drawStatus(QPainter *painter, const QRectF &plot)
{
    QString text;
    QColor color = themeColors().axisText;
    const bool hasData = isHeatmap() ? m_heatmap && m_heatmap->hasData() : m_layer.pointCount() > 0;
    switch (m_status.state) {
    case PanelStatus::State::Loading:
        text = hasData ? QString() : tr("Loading…");
        break;
    case PanelStatus::State::Ok:
        if (isHeatmap() && !m_slots.empty() && m_heatmap && m_heatmap->rows() == 0)
            text = tr("A heatmap needs a histogram's bucket series, each with an `le` label: "
                      "sum by (le) (rate(…_bucket[$__rate_interval]))");
        else
            text = hasData ? QString() : tr("No samples in this time range");
        break;
    case PanelStatus::State::NoData:
        text = tr("No data: the queries returned no series");
        break;
    case PanelStatus::State::QueryError:
        text = tr("Query failed: %1").arg(m_status.message);
        color = themeColors().warning;
        break;
    case PanelStatus::State::SourceDown:
        text = hasData ? tr("Source down, showing data up to %1: %2")
                             .arg(QDateTime::fromMSecsSinceEpoch(m_status.newestSampleMs.value_or(0))
                                      .toString(QStringLiteral("HH:mm:ss")),
                                  m_status.message)
                       : tr("Source down: %1").arg(m_status.message);
        color = themeColors().error;
        break;
    }
    if (text.isEmpty())
        return;
    painter->save();
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 1.05);
    painter->setFont(font);
    const QRectF area = plot.adjusted(12, 8, -12, -8);
    QRectF box = painter->boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, text).adjusted(-10, -6, 10, 6);
    if (hasData) // keep the curves visible: the banner goes to the top of the plot
        box.moveTop(plot.top() + 6);
    painter->setPen(QPen(color, 1));
    painter->setBrush(withAlpha(themeColors().labelBackground, 0.9));
    painter->drawRoundedRect(box, 4, 4);
    painter->drawText(box, Qt::AlignCenter | Qt::TextWordWrap, text);
    painter->restore();
}

void TimelineChart::onCursorChanged()
{
    // Only the strips around the old and the new crosshair (and the read-out boxes) are
    // repainted: a hover never re-decimates, and never repaints a whole panel.
    const QRegion dirty = m_crosshair.dirtyRegion(crosshairContext());
    if (!dirty.isEmpty())
        viewport()->update(dirty);
}

ChartCrosshair::Context TimelineChart::crosshairContext() const
{
    ChartCrosshair::Context context;
    context.axis = axisMap();
    context.store = m_store;
    if (isHeatmap()) {
        context.heatmap = m_heatmap ? &*m_heatmap : nullptr;
        context.unit = m_panel.unit;
        context.dark = UiTheme::instance()->isDark();
    }
    context.series.reserve(m_slots.size());
    for (const Slot &slot : m_slots) {
        if (isHeatmap())
            break; // no curves to put dots on
        const QString &unit =
            slot.definition.axis == AxisSide::Right && !m_panel.rightUnit.isEmpty() ? m_panel.rightUnit : m_panel.unit;
        context.series.push_back({slot.key, slot.name, slot.color, slot.definition.axis, unit});
    }
    context.left = m_leftScale;
    context.right = m_rightScale;
    context.stepMs = m_status.stepMs;
    context.font = m_leftAxis->labelsFont();
    context.origin = this;
    context.height = height();
    return context;
}

void TimelineChart::updateHover(const QPointF &pos)
{
    const bool inPlot = m_chart->plotArea().contains(pos);
    m_crosshair.hover(pos, inPlot, timeAt(pos.x()), this);
    if (m_gestures.isPressed())
        return; // a drag in progress keeps its cursor shape and shows no tooltips
    if (AnnotationPrompt::isAnyOpen()) {
        m_overlay.endHover(); // no tooltip over the note being typed
        return;
    }
    m_overlay.hover(pos, inPlot, overlayContext(), viewport());
    // An annotation's tooltip and the read-out would open at the same spot by the mouse: the
    // tooltip says what the user points at, the read-out waits.
    if (m_overlay.showsToolTip() != m_crosshair.isReadoutHidden()) {
        m_crosshair.setReadoutHidden(m_overlay.showsToolTip());
        viewport()->update();
    }
}

void TimelineChart::openPrompt(const QPointF &at, qint64 timeMs, std::optional<qint64> endMs)
{
    if (!m_editor)
        return;
    const AnnotationOverlay::Mark mark(timeMs, endMs);
    m_overlay.setPendingMark(mark);
    viewport()->update();
    const QString when = endMs ? QStringLiteral("%1–%2").arg(timeText(timeMs), timeText(*endMs)) : timeText(timeMs);
    AnnotationPrompt *prompt = AnnotationPrompt::open(this, viewport()->mapTo(this, at.toPoint()),
                                                      tr("Note at %1 (Enter adds, Esc cancels)").arg(when));
    m_prompt = prompt;
    // A second Ctrl+click while this prompt is open cancels it: only its own preview goes.
    auto clearPreview = [this, mark] {
        m_overlay.clearPendingMark(mark);
        viewport()->update();
    };
    connect(prompt, &AnnotationPrompt::accepted, this, [this, timeMs, endMs, clearPreview](const QString &text) {
        clearPreview();
        if (!m_editor)
            return;
        m_editor->add(Annotation::note(timeMs, endMs, text));
    });
    connect(prompt, &AnnotationPrompt::cancelled, this, clearPreview);
}

// QChartView::mousePressEvent crashes on a press where no item is (QTBUG-118669, fixed in
// 6.6.1), so presses are handled here and never passed on.
void TimelineChart::mousePressEvent(QMouseEvent *event)
{
    event->accept();
    const QPointF pos = event->position();
    if (event->button() != Qt::LeftButton || !m_chart->plotArea().contains(pos))
        return;
    m_overlay.endHover();
    m_crosshair.setReadoutHidden(false);
    const AnnotationOverlay::Context overlay = overlayContext();
    const auto targetAt = [this, &overlay, pos] { return m_overlay.targetAt(pos, overlay); };
    apply(m_gestures.press(pos, event->modifiers(), axisMap(), m_editor != nullptr, targetAt));
}

void TimelineChart::mouseMoveEvent(QMouseEvent *event)
{
    event->accept();
    const QPointF pos = event->position();
    apply(m_gestures.move(pos, axisMap()));
    updateHover(pos);
}

void TimelineChart::mouseReleaseEvent(QMouseEvent *event)
{
    event->accept();
    if (!m_gestures.isPressed() || event->button() != Qt::LeftButton)
        return;
    apply(m_gestures.release(event->position(), event->button(), axisMap(), m_editor != nullptr));
    updateHover(event->position());
}

void TimelineChart::apply(const ChartGestures::Outcome &outcome)
{
    if (outcome.repaint)
        viewport()->update();
    if (outcome.cursor)
        viewport()->setCursor(*outcome.cursor);
    if (outcome.selectRange)
        emit rangeSelected(*outcome.selectRange);
    if (outcome.scroll)
        emit scrollRequested(*outcome.scroll);
    if (outcome.scrollFinished)
        emit scrollFinished();
    if (outcome.prompt)
        openPrompt(outcome.prompt->at, outcome.prompt->timeMs, outcome.prompt->endMs);
    if (outcome.move && m_editor) {
        // One call per drag, at the release: the drag is one undo step, and the next drag of
        // the same marker is another.
        m_editor->move(outcome.move->id, outcome.move->timeMs, outcome.move->endMs);
        m_editor->finishMove();
    }
    if (outcome.offerSuggestion)
        offerSuggestion(outcome.offerSuggestion->id, outcome.offerSuggestion->at);
    if (outcome.toggleCluster)
        m_overlay.toggleCluster(*outcome.toggleCluster);
    if (outcome.closeClusterList)
        m_overlay.closeClusterList();
}

void TimelineChart::offerSuggestion(quint64 id, const QPointF &at)
{
    // A popup, not exec(): the chart keeps repainting (live data) while the menu is open.
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("suggestionMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<AnnotationEditor> editor = m_editor;
    menu->addAction(tr("Accept suggestion"), this, [editor, id] {
        if (editor)
            editor->accept(id);
    });
    menu->addAction(tr("Dismiss suggestion"), this, [editor, id] {
        if (editor)
            editor->dismiss(id);
    });
    menu->popup(viewport()->mapToGlobal(at.toPoint()));
}

void TimelineChart::mouseDoubleClickEvent(QMouseEvent *event)
{
    emit resetRequested();
    event->accept();
}

void TimelineChart::wheelEvent(QWheelEvent *event)
{
    const ChartGestures::Outcome outcome =
        m_gestures.wheel(event->angleDelta(), event->modifiers(), event->position().x(), axisMap());
    if (!outcome.scroll) {
        event->ignore(); // to the page of panels, which scrolls
        return;
    }
    event->accept();
    emit scrollRequested(*outcome.scroll);
    m_scrollEnd.start();
}

void TimelineChart::leaveEvent(QEvent *event)
{
    m_crosshair.leave(this);
    m_overlay.endHover();
    m_crosshair.setReadoutHidden(false);
    QChartView::leaveEvent(event);
}
