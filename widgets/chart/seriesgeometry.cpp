// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart/seriesgeometry.h"

#include <algorithm>
#include <cmath>

namespace SeriesGeometry {

namespace {

// A joint closer than this to the straight line through its neighbours is no bend.
constexpr double kStraightPx = 0.05;

} // namespace

Mapping Mapping::of(const TimeRange &range, double low, double high, const QRectF &plot)
{
    Mapping m;
    m.startMs = range.startMs;
    m.x0 = plot.left();
    m.pxPerMs = plot.width() / double(std::max<qint64>(1, range.length()));
    // The scale's ends land on the centres of the plot's first and last pixel rows, so a
    // 1 px line at the bottom or top of the scale (a pool at 0, a limit at its maximum)
    // covers one row fully instead of half of two rows, where it would be faint and a line
    // under it would show through in a mixed colour.
    m.low = low;
    m.y0 = plot.bottom() - 0.5;
    m.pxPerUnit = high > low ? std::max(0.0, plot.height() - 1) / (high - low) : 0;
    return m;
}

std::vector<QPolygonF> polylines(std::span<const qint64> timestampsMs, std::span<const double> values,
                                 const Mapping &mapping, bool step, std::size_t first, std::size_t last)
{
    std::vector<QPolygonF> runs;
    last = std::min(last, std::min(values.size(), timestampsMs.size()));
    QPolygonF run;
    auto flush = [&] {
        if (!run.isEmpty())
            runs.push_back(std::move(run));
        run = QPolygonF();
    };
    for (std::size_t i = first; i < last; ++i) {
        const double v = values[i];
        if (!std::isfinite(v)) {
            flush();
            continue;
        }
        if (run.isEmpty())
            run.reserve(qsizetype(std::min<std::size_t>(last - i, 4096)) * (step ? 2 : 1));
        const QPointF p(mapping.x(timestampsMs[i]), mapping.y(v));
        if (step && !run.isEmpty())
            run.append(QPointF(p.x(), run.constLast().y()));
        run.append(p);
    }
    flush();
    return runs;
}

std::vector<QLineF> columnStrokes(const QPolygonF &run)
{
    std::vector<QLineF> lines;
    const qsizetype n = run.size();
    if (n < 2)
        return lines;
    lines.reserve(std::size_t(std::min<qsizetype>(n, 8192)));
    // A line that goes straight on from the last one lengthens it: two antialiased lines
    // meeting end to end leave a light seam at the joint, a dotted look on a flat series (a
    // set-point, a pool's size) that one line does not have.
    const auto append = [&lines](const QLineF &line) {
        if (line.p1() == line.p2())
            return;
        if (!lines.empty() && lines.back().p2() == line.p1()) {
            const QLineF joined(lines.back().p1(), line.p2());
            const QPointF d = joined.p2() - joined.p1();
            const QPointF j = line.p1() - joined.p1();
            const double length = std::hypot(d.x(), d.y());
            const double off = length > 0 ? std::abs(d.x() * j.y() - d.y() * j.x()) / length : 0;
            const bool ahead = QPointF::dotProduct(lines.back().p2() - lines.back().p1(), line.p2() - line.p1()) > 0;
            if (ahead && off < kStraightPx) {
                lines.back() = joined;
                return;
            }
        }
        lines.push_back(line);
    };
    qsizetype i = 0;
    while (i < n) {
        // The points from i to j share a column.
        const double column = std::floor(run[i].x());
        qsizetype j = i;
        double low = run[i].y();
        double high = low;
        while (j + 1 < n && std::floor(run[j + 1].x()) == column) {
            ++j;
            low = std::min(low, run[j].y());
            high = std::max(high, run[j].y());
        }
        if (i > 0)
            append(QLineF(run[i - 1], run[i])); // from the previous column
        if (j > i) {
            if (high - low >= 1) {
                const double x = (run[i].x() + run[j].x()) / 2;
                append(QLineF(QPointF(x, low), QPointF(x, high)));
            } else {
                append(QLineF(run[i], run[j]));
            }
        }
        i = j + 1;
    }
    return lines;
}

QPolygonF areaOf(const QPolygonF &run, double baseY)
{
    QPolygonF area;
    if (run.isEmpty())
        return area;
    area.reserve(run.size() + 2);
    area.append(QPointF(run.constFirst().x(), baseY));
    area.append(run);
    area.append(QPointF(run.constLast().x(), baseY));
    return area;
}

} // namespace SeriesGeometry
