// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinechart.h"

#include "annotationmodel.h"
#include "decimator.h"
#include "palette.h"
#include "samplestore.h"
#include "timeticks.h"
#include "timewindow.h"
#include "unitformatter.h"
#include "whenfinished.h"

#include <QAreaSeries>
#include <QGraphicsLayout>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QMouseEvent>
#include <QFontMetricsF>
#include <QPainter>
#include <QValueAxis>
#include <QtConcurrent>

#include <array>
#include <cmath>
#include <limits>

namespace {

// Several store changes within one frame cause one render (PlotJuggler coalesces the same way).
constexpr int kRenderDelayMs = 40;

const QColor kGridColor(0xE4, 0xE7, 0xEB);
const QColor kAxisLabelColor(0x55, 0x5B, 0x66);

// Rounds an axis span out to "nice" numbers (1, 2, 2.5, 5 × 10^n), starting at 0 for data
// that never goes negative, so a panel never exaggerates small wiggles.
struct AxisScale
{
    double low = 0;
    double high = 1;
    double tick = 0.25;
};

AxisScale niceRange(double low, double high)
{
    if (!std::isfinite(low) || !std::isfinite(high))
        return {};
    if (low >= 0)
        low = 0;
    if (high <= low)
        high = low + (low == 0 ? 1 : std::abs(low) * 0.1);
    const double span = high - low;
    const double rough = span / 4;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = magnitude;
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        step = factor * magnitude;
        if (step >= rough)
            break;
    }
    return {std::floor(low / step) * step, std::ceil(high / step) * step, step};
}

} // namespace

struct TimelineChart::RenderInput
{
    struct Series
    {
        std::vector<qint64> timestampsMs;
        std::vector<double> values;
        SeriesStyle style = SeriesStyle::Line;
        AxisSide axis = AxisSide::Left;
    };
    TimeRange range;
    qint64 columnMs = 1;
    qint64 gapMs = 0;
    std::vector<Series> series;
};

struct TimelineChart::RenderOutput
{
    TimeRange range;
    std::vector<QList<QPointF>> points;
    std::vector<SeriesStatistics> stats;
    double leftMin = std::numeric_limits<double>::infinity();
    double leftMax = -std::numeric_limits<double>::infinity();
    double rightMin = std::numeric_limits<double>::infinity();
    double rightMax = -std::numeric_limits<double>::infinity();
    int totalPoints = 0;
};

namespace {

// Runs on a worker thread: decimate, build the point lists, compute legend statistics and
// the y extent. Touches nothing but its input.
TimelineChart::RenderOutput renderOffThread(const TimelineChart::RenderInput &input)
{
    TimelineChart::RenderOutput out;
    out.range = input.range;
    for (const auto &series : input.series) {
        const Decimator::Points decimated = Decimator::m4(series.timestampsMs, series.values,
                                                          input.range, input.columnMs, input.gapMs);
        QList<QPointF> points;
        points.reserve(qsizetype(decimated.values.size() * (series.style == SeriesStyle::Step ? 2 : 1)));
        double low = std::numeric_limits<double>::infinity();
        double high = -low;
        for (std::size_t i = 0; i < decimated.values.size(); ++i) {
            const double x = double(decimated.timestampsMs[i]);
            const double y = decimated.values[i];
            if (series.style == SeriesStyle::Step && !points.isEmpty() && std::isfinite(y)
                && std::isfinite(points.constLast().y())) {
                points.append(QPointF(x, points.constLast().y()));
            }
            points.append(QPointF(x, y));
            if (std::isfinite(y) && input.range.contains(decimated.timestampsMs[i])) {
                low = std::min(low, y);
                high = std::max(high, y);
            }
        }
        if (series.axis == AxisSide::Left) {
            out.leftMin = std::min(out.leftMin, low);
            out.leftMax = std::max(out.leftMax, high);
        } else {
            out.rightMin = std::min(out.rightMin, low);
            out.rightMax = std::max(out.rightMax, high);
        }
        out.totalPoints += int(points.size());
        out.points.push_back(std::move(points));
        out.stats.push_back(SeriesStatistics::compute(series.timestampsMs, series.values, input.range));
    }
    return out;
}

} // namespace

TimelineChart::TimelineChart(const PanelDefinition &panel, SampleStore *store, TimeWindow *window,
                             QWidget *parent)
    // The chart is handed to the base constructor: QChartView(QWidget*) would create a default
    // chart that setChart() later replaces without deleting.
    : QChartView(new QChart, parent), m_panel(panel), m_store(store), m_window(window), m_chart(chart()),
      m_timeAxis(new QDateTimeAxis), m_leftAxis(new QValueAxis)
{
    // OpenGL series stay off: they break SVG export and offscreen rendering.
    m_chart->legend()->hide(); // the panel draws its own legend, with statistics
    m_chart->setBackgroundVisible(false); // the panel frame is the background
    setBackgroundBrush(Qt::white);
    // Fixed gutters as chart margins, and no axis labels for Qt Charts to measure: every panel
    // then gets a plot area at the same offsets, so the time axes line up. (A fixed
    // setPlotArea() is not an option in 6.4: after a resize the axes and the series disagree
    // about where it is.) Labels are drawn here instead.
    m_chart->setMargins(QMargins(kLeftGutter, kTopGutter, kRightGutter, kBottomGutter));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    setMinimumHeight(120);

    QFont axisFont = font();
    axisFont.setPointSizeF(axisFont.pointSizeF() * 0.85);
    for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(m_timeAxis), static_cast<QAbstractAxis *>(m_leftAxis)}) {
        axis->setLabelsFont(axisFont);
        axis->setGridLineColor(kGridColor);
        axis->setLinePenColor(kGridColor);
    }
    m_leftAxis->setLabelsVisible(false);
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

    m_renderDelay.setSingleShot(true);
    m_renderDelay.setInterval(kRenderDelayMs);
    connect(&m_renderDelay, &QTimer::timeout, this, &TimelineChart::startRender);
    connect(m_store, &SampleStore::samplesChanged, this, [this](const QString &key, const TimeRange &span) {
        const TimeRange visible = m_window->range();
        if (span.endMs < visible.startMs || span.startMs > visible.endMs + 60'000)
            return; // nothing visible changed
        for (const Slot &slot : m_slots) {
            if (slot.key == key) {
                scheduleRender();
                return;
            }
        }
    });
    connect(m_window, &TimeWindow::rangeChanged, this, &TimelineChart::scheduleRender);
    scheduleRender();
}

TimelineChart::~TimelineChart() = default;

void TimelineChart::addSeries(const QString &key, const QString &name, int queryIndex)
{
    if (queryIndex < 0 || queryIndex >= int(m_panel.series.size()))
        return;
    Slot slot;
    slot.key = key;
    slot.name = name;
    slot.definition = m_panel.series[std::size_t(queryIndex)];
    slot.color = Palette::resolve(slot.definition.color, int(m_slots.size()));
    slot.line = new QLineSeries;
    slot.line->setName(name);
    QAbstractSeries *shown = slot.line;
    if (slot.definition.style == SeriesStyle::Area) {
        slot.area = new QAreaSeries(slot.line);
        slot.line->setParent(slot.area); // QAreaSeries does not own its boundary series
        slot.area->setName(name);
        shown = slot.area;
    }
    m_chart->addSeries(shown);
    shown->attachAxis(m_timeAxis);
    shown->attachAxis(axisFor(slot.definition.axis));
    // Pens and brushes after addSeries(): adding a series applies the chart theme's colours.
    QPen pen(slot.color);
    pen.setWidthF(1.6);
    slot.line->setPen(pen);
    if (slot.area) {
        QColor fill = slot.color;
        fill.setAlphaF(0.25);
        slot.area->setBrush(fill);
        slot.area->setPen(pen);
    }
    m_slots.push_back(slot);
    scheduleRender();
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
        m_rightAxis->setLinePenColor(kGridColor);
        m_rightAxis->setTickCount(5);
        m_chart->addAxis(m_rightAxis, Qt::AlignRight);
    }
    return m_rightAxis;
}

void TimelineChart::applyScale(QValueAxis *axis, double low, double high, ValueScale *scale_out)
{
    // Ticks at multiples of a nice step (0, 50, 100 …), not at fifths of an odd span. The
    // range is a whole number of steps, so fixed ticks land on them (Qt 6.4's dynamic ticks
    // misplace labels against the series after a range change).
    const AxisScale scale = niceRange(low, high);
    axis->setRange(scale.low, scale.high);
    axis->setTickCount(int(std::lround((scale.high - scale.low) / scale.tick)) + 1);
    *scale_out = {scale.low, scale.high, scale.tick};
}

void TimelineChart::setAnnotationModel(AnnotationModel *annotations)
{
    if (m_annotations)
        disconnect(m_annotations, nullptr, this, nullptr);
    m_annotations = annotations;
    if (m_annotations) {
        connect(m_annotations, &AnnotationModel::annotationsChanged, viewport(),
                qOverload<>(&QWidget::update));
    }
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
    return m_drawnPoints;
}

qint64 TimelineChart::timeAt(double x) const
{
    const QRectF plot = m_chart->plotArea();
    const TimeRange range = m_window->range();
    const double fraction = std::clamp((x - plot.left()) / std::max(1.0, plot.width()), 0.0, 1.0);
    return range.startMs + qint64(fraction * double(range.length()));
}

void TimelineChart::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    emit plotWidthChanged(plotWidth());
    scheduleRender();
}

void TimelineChart::scheduleRender()
{
    if (!m_renderDelay.isActive())
        m_renderDelay.start();
}

void TimelineChart::startRender()
{
    if (m_renderRunning) {
        m_renderAgain = true; // the running job is superseded by the next one
        return;
    }
    RenderInput input;
    input.range = m_window->range();
    input.columnMs = Decimator::columnMsFor(input.range, plotWidth());
    const qint64 step = m_status.stepMs > 0 ? m_status.stepMs : 1000;
    input.gapMs = std::max<qint64>(step * 5 / 2, input.columnMs * 2);
    for (const Slot &slot : m_slots) {
        RenderInput::Series series;
        series.style = slot.definition.style;
        series.axis = slot.definition.axis;
        if (const SampleStore::Series *stored = m_store->series(slot.key)) {
            // Copy the visible slice plus one sample either side, so lines reach the edges.
            auto [first, last] = stored->indexRange(input.range);
            first = first > 0 ? first - 1 : first;
            last = std::min(last + 1, stored->size());
            const auto timestamps = stored->timestampsMs().subspan(first, last - first);
            const auto values = stored->values().subspan(first, last - first);
            series.timestampsMs.assign(timestamps.begin(), timestamps.end());
            series.values.assign(values.begin(), values.end());
        }
        input.series.push_back(std::move(series));
    }
    m_renderRunning = true;
    whenFinished(QtConcurrent::run(renderOffThread, std::move(input)), this, [this](const RenderOutput &output) {
        m_renderRunning = false;
        applyRender(output);
        if (m_renderAgain) {
            m_renderAgain = false;
            scheduleRender();
        }
    });
}

void TimelineChart::applyRender(const RenderOutput &output)
{
    if (output.points.size() != m_slots.size()) {
        scheduleRender(); // a series was added while the job ran
        return;
    }
    m_timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(output.range.startMs),
                         QDateTime::fromMSecsSinceEpoch(output.range.endMs));
    applyScale(m_leftAxis, output.leftMin, output.leftMax, &m_leftScale);
    if (m_rightAxis)
        applyScale(m_rightAxis, output.rightMin, output.rightMax, &m_rightScale);
    m_legend.clear();
    for (std::size_t i = 0; i < m_slots.size(); ++i) {
        m_slots[i].line->replace(output.points[i]);
        m_legend.append(LegendEntry{m_slots[i].key, m_slots[i].name, m_slots[i].color,
                                    m_slots[i].definition.axis, output.stats[i]});
    }
    m_drawnPoints = output.totalPoints;
    emit legendChanged();
    emit rendered();
}

TimeTicks::Ticks TimelineChart::timeTicks() const
{
    const TimeRange range = m_window->range();
    const qint64 offsetMs = qint64(QDateTime::fromMSecsSinceEpoch(range.startMs).offsetFromUtc()) * 1000;
    return TimeTicks::compute(range, plotWidth(), 90, offsetMs);
}

double TimelineChart::xFor(qint64 timeMs) const
{
    const QRectF plot = m_chart->plotArea();
    const TimeRange range = m_window->range();
    return plot.left() + plot.width() * double(timeMs - range.startMs) / double(std::max<qint64>(1, range.length()));
}

void TimelineChart::drawBackground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawBackground(painter, rect);
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setPen(QPen(kGridColor, 1));
    for (qint64 t : timeTicks().instantsMs) {
        const double x = std::round(xFor(t)) + 0.5;
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    painter->restore();
}

void TimelineChart::drawTimeLabels(QPainter *painter, const QRectF &plot)
{
    const TimeTicks::Ticks ticks = timeTicks();
    painter->save();
    QFont font = m_leftAxis->labelsFont();
    painter->setFont(font);
    painter->setPen(kAxisLabelColor);
    const QFontMetricsF metrics(font);
    double lastRight = -1e9;
    for (qint64 t : ticks.instantsMs) {
        const QString label = QDateTime::fromMSecsSinceEpoch(t).toString(ticks.labelFormat);
        const double width = metrics.horizontalAdvance(label);
        const double left = xFor(t) - width / 2;
        if (left < lastRight + 6 || left < plot.left() - kLeftGutter / 2.0 || left + width > plot.right() + kRightGutter / 2.0)
            continue; // never overlap, never run off the panel
        painter->drawText(QPointF(left, plot.bottom() + 4 + metrics.ascent()), label);
        lastRight = left + width;
    }
    painter->restore();
}

void TimelineChart::drawValueLabels(QPainter *painter, const QRectF &plot)
{
    painter->save();
    const QFont font = m_leftAxis->labelsFont();
    painter->setFont(font);
    painter->setPen(kAxisLabelColor);
    const QFontMetricsF metrics(font);
    auto drawScale = [&](const ValueScale &scale, const QString &unit, bool left) {
        if (scale.tick <= 0 || scale.high <= scale.low)
            return;
        // Axis labels carry the unit only where it changes the number's reading (ms, MiB, %);
        // "ops/s" is in the panel title.
        const bool spelled = unit == QLatin1String("s") || unit == QLatin1String("bytes") || unit == QLatin1String("%");
        const int count = int(std::lround((scale.high - scale.low) / scale.tick));
        for (int i = 0; i <= count; ++i) {
            const double value = scale.low + i * scale.tick;
            const double y = plot.bottom() - plot.height() * (value - scale.low) / (scale.high - scale.low);
            const QString label = UnitFormatter::format(std::abs(value) < scale.tick * 1e-9 ? 0.0 : value,
                                                        spelled ? unit : QString());
            const double width = metrics.horizontalAdvance(label);
            const double x = left ? plot.left() - 6 - width : plot.right() + 6;
            painter->drawText(QPointF(x, y + metrics.ascent() / 2 - 1), label);
        }
    };
    drawScale(m_leftScale, m_panel.unit, true);
    if (m_rightAxis)
        drawScale(m_rightScale, m_panel.rightUnit.isEmpty() ? m_panel.unit : m_panel.rightUnit, false);
    painter->restore();
}

void TimelineChart::drawForeground(QPainter *painter, const QRectF &rect)
{
    QChartView::drawForeground(painter, rect);
    const QRectF plot = m_chart->plotArea();
    drawValueLabels(painter, plot);
    drawTimeLabels(painter, plot);
    drawAnnotations(painter, plot);
    if (m_dragStart) {
        const QRectF band(QPointF(std::clamp(std::min(m_dragStart->x(), m_dragCurrent.x()), plot.left(), plot.right()), plot.top()),
                          QPointF(std::clamp(std::max(m_dragStart->x(), m_dragCurrent.x()), plot.left(), plot.right()), plot.bottom()));
        painter->fillRect(band, QColor(0, 114, 178, 40));
    }
    drawStatus(painter, plot);
}

namespace {

QColor annotationColor(const Annotation &annotation)
{
    if (annotation.failed)
        return QColor(0xB0, 0x00, 0x20);
    switch (annotation.source) {
    case Annotation::Source::Action: return QColor(0xD5, 0x5E, 0x00);
    case Annotation::Source::Scenario: return QColor(0x88, 0x3D, 0x8F);
    case Annotation::Source::Detector: return QColor(0x00, 0x9E, 0x73);
    case Annotation::Source::Manual: break;
    }
    return QColor(0x33, 0x33, 0x33);
}

} // namespace

void TimelineChart::drawAnnotations(QPainter *painter, const QRectF &plot)
{
    if (!m_annotations)
        return;
    const TimeRange range = m_window->range();
    painter->save();
    painter->setClipRect(plot.adjusted(0, 0, 1, 1));
    QFont font = m_leftAxis->labelsFont();
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    // Labels go in up to three rows at the top of the plot: a label that does not fit after the
    // previous one in a row drops to the next row; beyond that the line alone marks the spot
    // (the annotation dock lists them all).
    constexpr int kRows = 3;
    std::array<double, kRows> rowEnds;
    rowEnds.fill(-1e9);
    for (const Annotation &a : m_annotations->inRange(range)) {
        const QColor color = annotationColor(a);
        const double x = std::round(xFor(a.timeMs)) + 0.5;
        if (a.endMs) {
            QColor band = color;
            band.setAlphaF(0.10);
            painter->fillRect(QRectF(QPointF(x, plot.top()), QPointF(xFor(*a.endMs), plot.bottom())), band);
        }
        QPen pen(color, 1.2, a.failed ? Qt::DotLine : Qt::DashLine);
        painter->setPen(pen);
        painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const QString label = metrics.elidedText(a.text, Qt::ElideRight, std::min(260.0, plot.width() * 0.45));
        const double width = metrics.horizontalAdvance(label) + 8;
        double left = x + 3;
        if (left + width > plot.right())
            left = x - 3 - width; // near the right edge the label goes left of its line
        for (int row = 0; row < kRows; ++row) {
            if (left < rowEnds[std::size_t(row)] + 4)
                continue;
            const QRectF box(left, plot.top() + 2 + row * (metrics.height() + 4), width, metrics.height() + 2);
            painter->fillRect(box, QColor(255, 255, 255, 225));
            painter->setPen(color);
            painter->drawText(box, Qt::AlignCenter, label);
            rowEnds[std::size_t(row)] = box.right();
            break;
        }
    }
    painter->restore();
}

void TimelineChart::drawStatus(QPainter *painter, const QRectF &plot)
{
    QString text;
    QColor color(0x55, 0x5B, 0x66);
    const bool hasData = m_drawnPoints > 0;
    switch (m_status.state) {
    case PanelStatus::State::Loading:
        text = hasData ? QString() : tr("Loading…");
        break;
    case PanelStatus::State::Ok:
        text = hasData ? QString() : tr("No samples in this time range");
        break;
    case PanelStatus::State::NoData:
        text = tr("No data: the queries returned no series");
        break;
    case PanelStatus::State::QueryError:
        text = tr("Query failed: %1").arg(m_status.message);
        color = QColor(0xB0, 0x3A, 0x00);
        break;
    case PanelStatus::State::SourceDown:
        text = hasData ? tr("Source down, showing data up to %1: %2")
                             .arg(QDateTime::fromMSecsSinceEpoch(m_status.newestSampleMs.value_or(0))
                                      .toString(QStringLiteral("HH:mm:ss")),
                                  m_status.message)
                       : tr("Source down: %1").arg(m_status.message);
        color = QColor(0xB0, 0x00, 0x20);
        break;
    }
    if (text.isEmpty())
        return;
    painter->save();
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 1.05);
    painter->setFont(font);
    const QRectF area = plot.adjusted(12, 8, -12, -8);
    QRectF box = painter->boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, text)
                     .adjusted(-10, -6, 10, 6);
    if (hasData) // keep the curves visible: the banner goes to the top of the plot
        box.moveTop(plot.top() + 6);
    painter->setPen(QPen(color, 1));
    painter->setBrush(QColor(255, 255, 255, 230));
    painter->drawRoundedRect(box, 4, 4);
    painter->drawText(box, Qt::AlignCenter | Qt::TextWordWrap, text);
    painter->restore();
}

// QChartView::mousePressEvent crashes on a press where no item is (QTBUG-118669, fixed in
// 6.6.1), so presses are handled here and never passed on.
void TimelineChart::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_chart->plotArea().contains(event->position())) {
        m_dragStart = event->position();
        m_dragCurrent = event->position();
    }
    event->accept();
}

void TimelineChart::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragStart) {
        m_dragCurrent = event->position();
        viewport()->update();
    }
    event->accept();
}

void TimelineChart::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragStart && event->button() == Qt::LeftButton) {
        const QPointF start = *m_dragStart;
        m_dragStart.reset();
        viewport()->update();
        if (std::abs(event->position().x() - start.x()) >= 6) {
            const qint64 a = timeAt(start.x());
            const qint64 b = timeAt(event->position().x());
            emit rangeSelected({std::min(a, b), std::max(a, b)});
        }
    }
    event->accept();
}

void TimelineChart::mouseDoubleClickEvent(QMouseEvent *event)
{
    emit resetRequested();
    event->accept();
}
