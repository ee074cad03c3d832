// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/serieslayer.h"

#include "chart/linestroke.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

// Less than this (px) is no visible change: a live tick in an 8 h window moves by 1/44 px.
constexpr double kHalfPixel = 0.5;
// Around a changed segment: the pen's half width and the antialiasing.
constexpr double kStripPadding = 3;
// A change wider than this share of the plot is repainted whole: one paint is cheaper.
constexpr double kFullRepaintShare = 0.5;

bool sameStyle(const SeriesLayer::Series &a, const SeriesLayer::Series &b)
{
    return a.color == b.color && a.fill == b.fill && a.style == b.style && a.axis == b.axis && a.dashed == b.dashed &&
           a.visible == b.visible;
}

} // namespace

SeriesGeometry::Mapping SeriesLayer::mappingFor(const View &view, AxisSide axis) const
{
    return axis == AxisSide::Right ? SeriesGeometry::Mapping::of(view.range, view.rightLow, view.rightHigh, view.plot)
                                   : SeriesGeometry::Mapping::of(view.range, view.leftLow, view.leftHigh, view.plot);
}

QRectF SeriesLayer::clipRect() const
{
    // The time edges cut exactly (lines run to the edge sample outside the range); a line at
    // the bottom or top of the scale keeps its whole width.
    return m_view.plot.adjusted(0, -m_lineWidth, 0, m_lineWidth);
}

int SeriesLayer::pointCount() const
{
    int n = 0;
    for (const Series &s : m_series)
        n += int(s.points.values.size());
    return n;
}

SeriesLayer::Change SeriesLayer::setVisible(std::size_t index, bool visible)
{
    if (index >= m_series.size() || m_series[index].visible == visible)
        return {};
    m_series[index].visible = visible;
    return {true, {}};
}

SeriesLayer::Change SeriesLayer::update(std::vector<Series> series, const View &view)
{
    const View &old = m_view;
    bool full = !m_valid || series.size() != m_series.size() || view.plot != old.plot ||
                view.range.length() != old.range.length() || view.leftLow != old.leftLow ||
                view.leftHigh != old.leftHigh || view.rightLow != old.rightLow || view.rightHigh != old.rightHigh;
    if (!full) {
        const double shiftPx = std::abs(double(view.range.startMs - old.range.startMs)) * view.plot.width() /
                               double(std::max<qint64>(1, view.range.length()));
        full = shiftPx >= kHalfPixel;
    }
    for (std::size_t i = 0; !full && i < series.size(); ++i)
        full = !sameStyle(series[i], m_series[i]);
    if (full) {
        m_series = std::move(series);
        m_view = view;
        m_valid = true;
        return {true, {}};
    }

    // The picture stays where it is; which columns do the new points change by half a pixel?
    std::vector<std::pair<double, double>> intervals;
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (!series[i].visible)
            continue;
        const auto changed = changedColumns(m_series[i], series[i], mappingFor(m_view, series[i].axis));
        intervals.insert(intervals.end(), changed.begin(), changed.end());
    }
    if (intervals.empty())
        return {}; // the old points stay: the next comparison is against what is on screen
    m_series = std::move(series);
    const QRectF &plot = m_view.plot;
    std::sort(intervals.begin(), intervals.end());
    QRegion region;
    double covered = 0;
    double left = intervals.front().first;
    double right = intervals.front().second;
    auto flush = [&] {
        const double l = std::max(plot.left(), left - kStripPadding);
        const double r = std::min(plot.right(), right + kStripPadding);
        if (r <= l)
            return;
        covered += r - l;
        region +=
            QRectF(QPointF(l, plot.top() - kStripPadding), QPointF(r, plot.bottom() + kStripPadding)).toAlignedRect();
    };
    for (const auto &[l, r] : intervals) {
        if (l > right + 2 * kStripPadding) {
            flush();
            left = l;
            right = r;
        } else {
            right = std::max(right, r);
        }
    }
    flush();
    if (covered > plot.width() * kFullRepaintShare)
        return {true, {}};
    return {false, region};
}

void SeriesLayer::addDirty(const Series &series, const SeriesGeometry::Mapping &mapping, std::size_t index,
                           std::vector<std::pair<double, double>> &intervals) const
{
    // The segments on either side of a point change with it.
    const auto &t = series.points.timestampsMs;
    const std::size_t before = index > 0 ? index - 1 : index;
    const std::size_t after = std::min(index + 1, t.size() - 1);
    intervals.emplace_back(mapping.x(t[before]), mapping.x(t[after]));
}

std::vector<std::pair<double, double>> SeriesLayer::changedColumns(const Series &before, const Series &after,
                                                                   const SeriesGeometry::Mapping &mapping) const
{
    // Walks both point lists in time order. Two points within half a pixel of each other (both
    // gaps, or both values) draw the same; any other point changes the segments around it,
    // unless it lies within half a pixel of a neighbour that is unchanged (a live sample that
    // starts a new column next to the last one adds a segment shorter than half a pixel).
    std::vector<std::pair<double, double>> intervals;
    const auto &t0 = before.points.timestampsMs;
    const auto &v0 = before.points.values;
    const auto &t1 = after.points.timestampsMs;
    const auto &v1 = after.points.values;
    const std::size_t n0 = v0.size();
    const std::size_t n1 = v1.size();
    auto near = [&](qint64 ta, double va, qint64 tb, double vb) {
        if (std::abs(mapping.x(ta) - mapping.x(tb)) >= kHalfPixel)
            return false;
        const bool finite = std::isfinite(va);
        if (finite != std::isfinite(vb))
            return false;
        return !finite || std::abs(mapping.y(va) - mapping.y(vb)) < kHalfPixel;
    };
    std::vector<char> matched0(n0, 0);
    std::vector<char> matched1(n1, 0);
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < n0 || j < n1) {
        if (i < n0 && j < n1 && near(t0[i], v0[i], t1[j], v1[j])) {
            matched0[i++] = 1;
            matched1[j++] = 1;
        } else if (j >= n1 || (i < n0 && t0[i] < t1[j])) {
            ++i;
        } else if (i >= n0 || t1[j] < t0[i]) {
            ++j;
        } else {
            ++i;
            ++j;
        }
    }
    auto collect = [&](const Series &series, const std::vector<char> &matched) {
        const auto &t = series.points.timestampsMs;
        const auto &v = series.points.values;
        for (std::size_t k = 0; k < matched.size(); ++k) {
            if (matched[k])
                continue;
            const bool besideKept =
                std::isfinite(v[k]) &&
                ((k > 0 && matched[k - 1] && std::isfinite(v[k - 1]) && near(t[k], v[k], t[k - 1], v[k - 1])) ||
                 (k + 1 < matched.size() && matched[k + 1] && std::isfinite(v[k + 1]) &&
                  near(t[k], v[k], t[k + 1], v[k + 1])));
            if (!besideKept)
                addDirty(series, mapping, k, intervals);
        }
    };
    collect(before, matched0);
    collect(after, matched1);
    return intervals;
}

std::vector<QPolygonF> SeriesLayer::polylines(std::size_t index) const
{
    if (index >= m_series.size() || !m_valid)
        return {};
    const Series &s = m_series[index];
    return SeriesGeometry::polylines(s.points.timestampsMs, s.points.values, mappingFor(m_view, s.axis),
                                     s.style == SeriesStyle::Step);
}

void SeriesLayer::paint(QPainter *painter, const QRectF &exposed) const
{
    if (!m_valid || m_view.plot.width() <= 1)
        return;
    const QRectF clip = clipRect();
    const QRectF area = clip.intersected(exposed.adjusted(-kStripPadding, 0, kStripPadding, 0));
    if (area.isEmpty())
        return;
    painter->save();
    painter->setClipRect(clip, Qt::IntersectClip);
    painter->setRenderHint(QPainter::Antialiasing, m_antialiased);
    for (const Series &s : m_series) {
        if (!s.visible || s.points.values.empty())
            continue;
        const SeriesGeometry::Mapping mapping = mappingFor(m_view, s.axis);
        // Only the points that reach into the exposed columns, and one more either side.
        const auto &t = s.points.timestampsMs;
        std::size_t first = 0;
        std::size_t last = t.size();
        // A dashed line is drawn whole, or its dashes would restart at the strip's edge.
        if (!s.dashed && (area.left() > clip.left() || area.right() < clip.right())) {
            const auto timeAt = [&](double x) {
                return m_view.range.startMs + qint64(std::floor((x - mapping.x0) / mapping.pxPerMs));
            };
            const qint64 from = timeAt(area.left());
            const qint64 to = timeAt(area.right()) + 1;
            first = std::size_t(std::lower_bound(t.begin(), t.end(), from) - t.begin());
            last = std::size_t(std::upper_bound(t.begin(), t.end(), to) - t.begin());
            first = first > 0 ? first - 1 : 0;
            last = std::min(last + 1, t.size());
            if (first >= last)
                continue;
        }
        const bool step = s.style == SeriesStyle::Step;
        const std::vector<QPolygonF> runs = SeriesGeometry::polylines(t, s.points.values, mapping, step, first, last);
        if (s.style == SeriesStyle::Area) {
            const bool right = s.axis == AxisSide::Right;
            const double low = right ? m_view.rightLow : m_view.leftLow;
            const double high = std::max(low, right ? m_view.rightHigh : m_view.leftHigh);
            const double base = mapping.y(std::clamp(0.0, low, high)); // filled down (or up) to zero
            painter->setPen(Qt::NoPen);
            painter->setBrush(s.fill);
            for (const QPolygonF &run : runs) {
                if (run.size() > 1)
                    painter->drawPolygon(SeriesGeometry::areaOf(run, base));
            }
        }
        // Cosmetic: the width is in device pixels whatever the transform.
        QPen pen(s.color, m_lineWidth, s.dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap, Qt::BevelJoin);
        pen.setCosmetic(true);
        painter->setBrush(Qt::NoBrush);
        for (const QPolygonF &run : runs)
            LineStroke::draw(painter, pen, run);
    }
    painter->restore();
}
