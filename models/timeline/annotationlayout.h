// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QRectF>
#include <QtGlobal>
#include <functional>
#include <optional>
#include <vector>

// Where a chart draws the annotations of its visible range, in pixels: the x of each marker
// (and region end), which markers lie so close together that they become one "+N" badge, and
// where the labels and badges go in a few rows at the top of the plot. Also answers what is
// under the mouse. Pure geometry, so that it is tested without a widget; the chart and the
// exported figure measure the text and paint.
//
// A label always touches its line: it starts just right of it, or ends just left of it (its
// `side`), whole or shortened; one that has no such place in any row gets none (the window:
// the line alone, the dock lists it) or, when asked, a small numbered box the picture's key
// explains. Places are handed out by importance (actions before notes before a detector's
// suggestions), the newest first among equals: the newest action is the one to read.
namespace AnnotationLayout {

struct Item
{
    quint64 id = 0;
    qint64 timeMs = 0;
    std::optional<qint64> endMs; // set for a region
    double labelWidth = 0;       // of the label box, measured by the caller
    int priority = 0;            // higher gets a place first (Annotation::labelPriority)
};

struct Options
{
    TimeRange range; // the visible time range
    double plotLeft = 0;
    double plotWidth = 1;
    double plotTop = 0;
    double plotBottom = 1;
    double clusterPx = 6; // markers closer than this (to the first of a group) cluster
    int rows = 3;         // label rows at the top of the plot; beyond them a line alone
    double rowHeight = 16;
    double rowGap = 4;
    double labelGap = 3;     // between a line and its label
    double labelSpacing = 4; // between two labels in a row
    // A label that finds no room whole is shortened (elided) to the room beside its line, if
    // that keeps at least this width.
    double minLabelWidth = 60;
    // With numbered boxes (a picture with a key), a label is shortened only as long as it
    // keeps this fraction of its width; "extract-data-from…" tells less than a number whose
    // key gives the whole "extract-data-from-document replicas 1 → 0".
    double minShownFraction = 0.7;
    // Labels that found no place get a numbered box of this width ("3"), in the rows or in up
    // to extraNumberRows more below them; 0: they get none (the window).
    std::function<double(int number)> numberWidth;
    int extraNumberRows = 2;
    // The width of a cluster badge for n markers ("+n"), measured by the caller.
    std::function<double(int n)> badgeWidth = [](int) { return 24.0; };
    // The cluster holding this annotation is shown expanded: a list of its members.
    std::optional<quint64> expandedId;
    double listRowHeight = 18;
    double listWidth = 220;
};

struct Marker
{
    int item = -1; // index into the items
    double x = 0;  // of the start; may lie outside the plot for a region
    std::optional<double> endX;
    bool startVisible = false;
    bool endVisible = false;
    int group = -1; // the group drawing its start line and label; -1 when off-view
};

struct Group
{
    std::vector<int> markers;     // indices into Result::markers, in time order
    double x = 0;                 // where the group sits (its first marker)
    QRectF label;                 // label (one marker) or "+N" badge (a cluster); empty: no room
    bool leftOfLine = false;      // the label ends at the line instead of starting there
    int number = 0;               // > 0: no room for the text; `label` is the numbered box
    bool expanded = false;        // a cluster shown as a list
    std::vector<QRectF> listRows; // expanded: one row per marker, below the badge

    bool isCluster() const { return markers.size() > 1; }
};

struct Result
{
    std::vector<Marker> markers; // one per item that touches the visible range
    std::vector<Group> groups;
};

// Items must be in time order (as AnnotationModel keeps them).
Result compute(const std::vector<Item> &items, const Options &options);

enum class HitKind
{
    None,
    Start,   // a point's line or a region's start edge
    End,     // a region's end edge
    Label,   // the label of a single marker
    Badge,   // a cluster's badge, or a line inside a cluster
    ListRow, // one member in an expanded cluster
};

struct Hit
{
    HitKind kind = HitKind::None;
    int marker = -1; // Start, End, Label, ListRow
    int group = -1;  // Badge (and the group of the others)
};

// What is under a point: list rows and labels first (they are drawn on top), then the nearest
// line or region edge within tolerancePx.
Hit hitTest(const Result &layout, const QPointF &pos, double tolerancePx);

} // namespace AnnotationLayout
