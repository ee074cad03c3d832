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

// The boxes already placed in one row, as x intervals.
class Row
{
public:
    bool isFree(double left, double right, double spacing) const
    {
        return std::none_of(m_taken.begin(), m_taken.end(), [&](const std::pair<double, double> &box) {
            return left < box.second + spacing && right > box.first - spacing;
        });
    }
    // How far a box may reach from `x` to the right (or to the left) before it meets another
    // box or `limit`.
    double roomRight(double x, double limit, double spacing) const
    {
        double end = limit;
        for (const auto &[l, r] : m_taken) {
            if (r + spacing > x && l - spacing < end)
                end = l - spacing < x ? x : l - spacing;
        }
        return end - x;
    }
    double roomLeft(double x, double limit, double spacing) const
    {
        double start = limit;
        for (const auto &[l, r] : m_taken) {
            if (l - spacing < x && r + spacing > start)
                start = r + spacing > x ? x : r + spacing;
        }
        return x - start;
    }
    void take(double left, double right) { m_taken.emplace_back(left, right); }

private:
    std::vector<std::pair<double, double>> m_taken;
};

double rowTop(const Options &options, std::size_t row)
{
    return options.plotTop + 2 + double(row) * (options.rowHeight + options.rowGap);
}

// Puts a box of `width` beside the group's line in the first row with room: right of the line,
// else left of it, else (when `shorten`) in the widest room of at least minWidth on either side.
bool placeBeside(Group &group, double width, std::vector<Row> &rows, const Options &options, bool shorten,
                 double minWidth)
{
    const double plotRight = options.plotLeft + options.plotWidth;
    const double rightStart = group.x + options.labelGap;
    const double leftEnd = group.x - options.labelGap;
    const auto put = [&](std::size_t row, double left, double boxWidth, bool leftOfLine) {
        group.label = QRectF(left, rowTop(options, row), boxWidth, options.rowHeight);
        group.leftOfLine = leftOfLine;
        rows[row].take(left, left + boxWidth);
        return true;
    };
    // Rows that would reach below the plot are not used: a short plot has fewer.
    std::size_t usable = 0;
    while (usable < rows.size() && rowTop(options, usable) + options.rowHeight <= options.plotBottom)
        ++usable;
    for (std::size_t row = 0; row < usable; ++row) {
        if (rightStart + width <= plotRight && rows[row].isFree(rightStart, rightStart + width, options.labelSpacing))
            return put(row, rightStart, width, false);
    }
    for (std::size_t row = 0; row < usable; ++row) {
        if (leftEnd - width >= options.plotLeft && rows[row].isFree(leftEnd - width, leftEnd, options.labelSpacing))
            return put(row, leftEnd - width, width, true);
    }
    if (!shorten)
        return false;
    double best = minWidth;
    std::optional<std::pair<std::size_t, bool>> where;
    for (std::size_t row = 0; row < usable; ++row) {
        const double right = std::min(width, rows[row].roomRight(rightStart, plotRight, options.labelSpacing));
        const double left = std::min(width, rows[row].roomLeft(leftEnd, options.plotLeft, options.labelSpacing));
        if (right >= best) {
            best = right;
            where = std::make_pair(row, false);
        }
        if (left > best) {
            best = left;
            where = std::make_pair(row, true);
        }
    }
    if (!where)
        return false;
    return where->second ? put(where->first, leftEnd - best, best, true) : put(where->first, rightStart, best, false);
}

// Hands out the places: the most important first, the newest first among equals.
void placeLabels(const std::vector<Item> &items, const Options &options, Result &result)
{
    const auto itemOf = [&](const Group &group, int k) -> const Item & {
        return items[std::size_t(result.markers[std::size_t(group.markers[std::size_t(k)])].item)];
    };
    std::vector<int> order(result.groups.size());
    std::vector<int> priority(result.groups.size(), 0);
    for (std::size_t g = 0; g < result.groups.size(); ++g) {
        order[g] = int(g);
        Group &group = result.groups[g];
        for (int k = 0; k < int(group.markers.size()); ++k) {
            priority[g] = std::max(priority[g], itemOf(group, k).priority);
            if (options.expandedId && itemOf(group, k).id == *options.expandedId && group.isCluster())
                group.expanded = true;
        }
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (priority[std::size_t(a)] != priority[std::size_t(b)])
            return priority[std::size_t(a)] > priority[std::size_t(b)];
        return result.groups[std::size_t(a)].x > result.groups[std::size_t(b)].x;
    });

    std::vector<Row> rows(std::size_t(std::max(0, options.rows)));
    std::vector<int> unplaced;
    for (int g : order) {
        Group &group = result.groups[std::size_t(g)];
        const bool cluster = group.isCluster();
        const double width = cluster ? options.badgeWidth(int(group.markers.size())) : itemOf(group, 0).labelWidth;
        // A badge keeps its size; a label may be shortened to the room beside its line.
        // Shortened below minShownFraction of itself, a label says too little to be worth
        // its room: where a key explains numbers, it gets a number instead.
        const double minWidth = options.numberWidth ? std::max(options.minLabelWidth, width * options.minShownFraction)
                                                    : options.minLabelWidth;
        if (!placeBeside(group, width, rows, options, !cluster, std::min(width, minWidth)))
            unplaced.push_back(g);
    }
    if (!options.numberWidth || unplaced.empty())
        return;
    // Numbered boxes, in time order so that the key reads left to right; they may use rows
    // below the label rows.
    std::sort(unplaced.begin(), unplaced.end());
    rows.resize(rows.size() + std::size_t(std::max(0, options.extraNumberRows)));
    int number = 0;
    for (int g : unplaced) {
        Group &group = result.groups[std::size_t(g)];
        group.number = ++number;
        const double width = options.numberWidth(group.number);
        placeBeside(group, width, rows, options, false, width);
    }
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

    placeLabels(items, options, result);
    for (Group &group : result.groups) {
        if (!group.expanded)
            continue;
        // The list hangs below the badge (or from the top row when the badge found no room),
        // kept inside the plot horizontally.
        const double top = group.label.isEmpty() ? options.plotTop + 2 : group.label.bottom() + 2;
        double listLeft = std::min(group.label.isEmpty() ? group.x : group.label.left(), right - options.listWidth);
        listLeft = std::max(listLeft, options.plotLeft);
        for (std::size_t k = 0; k < group.markers.size(); ++k) {
            group.listRows.emplace_back(listLeft, top + double(k) * options.listRowHeight, options.listWidth,
                                        options.listRowHeight);
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
