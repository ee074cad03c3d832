// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "timeline/annotationlayout.h"
#include "timeline/timeaxismap.h"

#include <QPoint>
#include <QPointF>
#include <QtGlobal>
#include <functional>
#include <optional>
#include <utility>

// What the mouse does on a chart's plot, as a state machine without a widget: one
// press-drag-release of the left button (its meaning decided at the press) and the wheel.
//   drag: zoom to the dragged range; Shift+drag: pan; Ctrl+click / Ctrl+drag: annotate a
//   point / a region (with an editor only; Ctrl wins over Shift); drag a marker, a band edge
//   or a label: move it (with an editor); click a "+N" badge: list or unlist the cluster; click
//   a suggestion: offer to accept or dismiss it; Shift+wheel or a sideways wheel: pan by a
//   tenth; Ctrl+wheel: zoom by a fifth around the mouse; the plain wheel is not the chart's
//   (it scrolls the page of panels: a page scrolled over a chart once panned time instead).
// Each event returns what the chart is to do; the chart does it (signals, prompt, menu).
class ChartGestures
{
public:
    // A press that moves less than this is a click (a point annotation, a badge toggle), more
    // is a drag (a region, a zoom).
    static constexpr double kDragThresholdPx = 6;
    // A marker moves once dragged this far: a smaller slip is a click on it.
    static constexpr double kMoveThresholdPx = 3;
    // One wheel notch pans a tenth of the window; Ctrl+wheel zooms by a fifth.
    static constexpr double kWheelPanFraction = 0.1;
    static constexpr double kWheelZoomFactor = 0.8;
    static constexpr qint64 kMinimumRangeMs = 1000;

    enum class Kind
    {
        Zoom,
        Pan,
        Annotate,
        Move,
        ClickCluster
    };

    // An annotation as a gesture needs it: which one, where, and whether it is a suggestion.
    struct Mark
    {
        quint64 id = 0;
        qint64 timeMs = 0;
        std::optional<qint64> endMs;
        bool suggested = false;
    };

    // What lies under a press without modifiers (the annotation overlay's hit test).
    struct Target
    {
        AnnotationLayout::HitKind kind = AnnotationLayout::HitKind::None;
        Mark mark;                      // Start, End, Label
        std::optional<quint64> cluster; // Badge: an annotation id of the cluster
    };
    using TargetAt = std::function<Target()>;

    struct Prompt
    {
        QPointF at; // where the prompt opens
        qint64 timeMs = 0;
        std::optional<qint64> endMs;
    };
    // Where a moved annotation lands. A dragged start may pass its end: the times are as
    // dragged, not swapped (the editor and the overlay order them).
    struct Moved
    {
        quint64 id = 0;
        qint64 timeMs = 0;
        std::optional<qint64> endMs;
    };
    struct Offer
    {
        quint64 id = 0;
        QPointF at;
    };

    // What the chart is to do after an event; all empty: nothing.
    struct Outcome
    {
        std::optional<TimeRange> selectRange; // zoom to it
        std::optional<TimeRange> scroll;      // one step of a pan or wheel zoom
        bool scrollFinished = false;          // the pan is over
        std::optional<Prompt> prompt;         // ask for an annotation's text
        std::optional<Moved> move;            // one undo step
        std::optional<Offer> offerSuggestion; // accept or dismiss it
        std::optional<quint64> toggleCluster; // list or unlist the cluster of this id
        bool closeClusterList = false;        // a click on the plot closes an open list
        bool repaint = false;
        std::optional<Qt::CursorShape> cursor;
    };

    // A left-button press on the plot. targetAt is asked only for a press without modifiers.
    Outcome press(const QPointF &pos, Qt::KeyboardModifiers modifiers, const TimeAxisMap &axis, bool canEdit,
                  const TargetAt &targetAt);
    Outcome move(const QPointF &pos, const TimeAxisMap &axis);
    Outcome release(const QPointF &pos, Qt::MouseButton button, const TimeAxisMap &axis, bool canEdit);
    // angleDelta in eighths of a degree (120 a notch); a horizontal one when there is no vertical.
    Outcome wheel(const QPoint &angleDelta, Qt::KeyboardModifiers modifiers, double x, const TimeAxisMap &axis) const;

    // For painting what a gesture in progress would do.
    bool isPressed() const { return m_press.has_value(); }
    std::optional<Kind> kind() const;
    // A zoom drag: the x of its two ends, once it is a drag.
    std::optional<std::pair<double, double>> zoomBand() const;
    // An annotation being made: the x of its start, and of its end once it is a drag.
    std::optional<std::pair<double, std::optional<double>>> annotateSpan() const;
    // The annotation being dragged, where it would land now.
    std::optional<Moved> moving(const TimeAxisMap &axis) const;

private:
    struct Press
    {
        Kind kind = Kind::Zoom;
        QPointF start;
        QPointF current;
        TimeRange rangeAtPress;
        Mark mark;                                                        // Move
        AnnotationLayout::HitKind part = AnnotationLayout::HitKind::None; // Move: which part of it
        std::optional<quint64> cluster;                                   // ClickCluster
    };
    static Moved movedTimes(const Press &press, const TimeAxisMap &axis);

    std::optional<Press> m_press;
};
