// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/annotationlayout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace AnnotationLayout {

namespace {

double xOf(qint64 timeMs, const Options &options)
{
    const double span = double(std::max<qint64>(1, options.range.length()));
    return options.plotLeft + options.plotWidth * double(timeMs - options.range.startMs) / span;
}

bool inPlot(double x, const Options &options)
{
    // Half a pixel of slack: an instant at the range's end maps to the plot's right edge.
    return x >= options.plotLeft - 0.5 && x <= options.plotLeft + options.plotWidth + 0.5;
}

} // namespace

Result compute(const std::vector<Item> &items, const Options &options)
{
    Result result;
    const double right = options.plotLeft + options.plotWidth;
    for (int i = 0; i < int(items.size()); ++i) {
        const Item &item = items[std::size_t(i)];
        const qint64 endMs = item.endMs.value_or(item.timeMs);
        if (endMs < options.range.startMs || item.timeMs > options.range.endMs)
            continue; // outside the view: not drawn
        Marker marker;
        marker.item = i;
        marker.x = xOf(item.timeMs, options);
        marker.startVisible = inPlot(marker.x, options);
        if (item.endMs) {
            marker.endX = xOf(*item.endMs, options);
            marker.endVisible = inPlot(*marker.endX, options);
        }
        result.markers.push_back(marker);
    }

    // Groups: a marker within clusterPx of the first marker of the open group joins it.
    // Measured from the first (not the previous) so that a steady stream of markers a few
    // pixels apart does not chain into one badge across the whole plot.
    for (int m = 0; m < int(result.markers.size()); ++m) {
        Marker &marker = result.markers[std::size_t(m)];
        double anchor = marker.x;
        if (!marker.startVisible) {
            // A region starting before the view still gets a label, at the plot's left edge.
            if (marker.x >= options.plotLeft)
                continue;
            anchor = options.plotLeft;
        }
        if (!result.groups.empty()) {
            Group &open = result.groups.back();
            if (anchor - open.x < options.clusterPx) {
                open.markers.push_back(m);
                marker.group = int(result.groups.size()) - 1;
                continue;
            }
        }
        Group group;
        group.x = anchor;
        group.markers.push_back(m);
        result.groups.push_back(group);
        marker.group = int(result.groups.size()) - 1;
    }

    // Labels and badges in rows: a box that does not fit after the previous one in a row drops
    // to the next row; beyond the last row the line alone marks the spot (the annotation dock
    // lists them all).
    std::vector<double> rowEnds(std::size_t(std::max(0, options.rows)), -std::numeric_limits<double>::infinity());
    std::vector<Group *> rowLast(rowEnds.size(), nullptr); // the label that ends each row
    for (Group &group : result.groups) {
        double width = 0;
        if (group.isCluster()) {
            width = options.badgeWidth(int(group.markers.size()));
            if (options.expandedId) {
                for (int m : group.markers) {
                    if (items[std::size_t(result.markers[std::size_t(m)].item)].id == *options.expandedId)
                        group.expanded = true;
                }
            }
        } else {
            width = items[std::size_t(result.markers[std::size_t(group.markers.front())].item)].labelWidth;
        }
        const auto freeRow = [&](double at) -> std::optional<std::size_t> {
            for (std::size_t row = 0; row < rowEnds.size(); ++row) {
                if (at >= rowEnds[row] + options.labelSpacing)
                    return row;
            }
            return std::nullopt;
        };
        double left = group.x + options.labelGap;
        if (left + width > right) {
            // Near the right edge: left of the line, where the earlier labels are. If that
            // place is taken, a label that can stay right of its line shortened does so
            // (the newest marker of a live view sits here, and it is the one to read).
            const double flipped = std::max(group.x - options.labelGap - width, options.plotLeft);
            if (group.isCluster() || right - left < options.minLabelWidth || freeRow(flipped))
                left = flipped;
            else
                width = right - left;
        }
        left = std::max(left, options.plotLeft);
        const auto place = [&](std::size_t row) {
            group.label = QRectF(left, options.plotTop + 2 + double(row) * (options.rowHeight + options.rowGap), width,
                                 options.rowHeight);
            rowEnds[row] = group.label.right();
            rowLast[row] = &group;
        };
        std::optional<std::size_t> free = freeRow(left);
        if (!free) {
            // Every row is taken here: shorten the row's last label that keeps the most of
            // itself when it ends before this one. Badges keep their size.
            double bestKept = options.minLabelWidth;
            for (std::size_t row = 0; row < rowLast.size(); ++row) {
                Group *last = rowLast[row];
                if (!last || last->isCluster())
                    continue;
                const double kept = left - options.labelSpacing - last->label.left();
                if (kept >= bestKept) {
                    bestKept = kept;
                    free = row;
                }
            }
            if (free)
                rowLast[*free]->label.setRight(left - options.labelSpacing);
        }
        if (free)
            place(*free);
        if (group.expanded) {
            // The list hangs below the badge (or from the top row when the badge found no
            // room), kept inside the plot horizontally.
            const double top = group.label.isEmpty() ? options.plotTop + 2 : group.label.bottom() + 2;
            double listLeft = std::min(group.label.isEmpty() ? left : group.label.left(), right - options.listWidth);
            listLeft = std::max(listLeft, options.plotLeft);
            for (std::size_t k = 0; k < group.markers.size(); ++k) {
                group.listRows.emplace_back(listLeft, top + double(k) * options.listRowHeight, options.listWidth,
                                            options.listRowHeight);
            }
        }
    }
    return result;
}

Hit hitTest(const Result &layout, const QPointF &pos, double tolerancePx)
{
    for (int g = 0; g < int(layout.groups.size()); ++g) {
        const Group &group = layout.groups[std::size_t(g)];
        for (std::size_t k = 0; k < group.listRows.size(); ++k) {
            if (group.listRows[k].contains(pos))
                return {HitKind::ListRow, group.markers[k], g};
        }
    }
    for (int g = 0; g < int(layout.groups.size()); ++g) {
        const Group &group = layout.groups[std::size_t(g)];
        if (!group.label.isEmpty() && group.label.contains(pos)) {
            if (group.isCluster())
                return {HitKind::Badge, -1, g};
            return {HitKind::Label, group.markers.front(), g};
        }
    }
    Hit best;
    double bestDistance = tolerancePx;
    auto consider = [&](double x, HitKind kind, int marker) {
        const double distance = std::abs(pos.x() - x);
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = {kind, marker, layout.markers[std::size_t(marker)].group};
        }
    };
    for (int m = 0; m < int(layout.markers.size()); ++m) {
        const Marker &marker = layout.markers[std::size_t(m)];
        if (marker.startVisible)
            consider(marker.x, HitKind::Start, m);
        if (marker.endX && marker.endVisible)
            consider(*marker.endX, HitKind::End, m);
    }
    // A line inside a cluster stands for the whole cluster: which of the few-pixels-apart
    // lines the mouse meant cannot be told.
    if (best.kind == HitKind::Start && best.group >= 0 && layout.groups[std::size_t(best.group)].isCluster())
        best = {HitKind::Badge, -1, best.group};
    return best;
}

} // namespace AnnotationLayout
