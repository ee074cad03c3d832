// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/chartgestures.h"

#include <algorithm>
#include <cmath>

using HitKind = AnnotationLayout::HitKind;

ChartGestures::Outcome ChartGestures::press(const QPointF &pos, Qt::KeyboardModifiers modifiers,
                                            const TimeAxisMap &axis, bool canEdit, const TargetAt &targetAt)
{
    Outcome out;
    Press press;
    press.start = pos;
    press.current = pos;
    press.rangeAtPress = axis.range;
    if (modifiers & Qt::ControlModifier) {
        if (!canEdit)
            return out; // nowhere to add an annotation to
        press.kind = Kind::Annotate;
    } else if (modifiers & Qt::ShiftModifier) {
        press.kind = Kind::Pan;
        out.cursor = Qt::ClosedHandCursor;
    } else {
        const Target target = targetAt();
        if (target.kind == HitKind::Badge) {
            press.kind = Kind::ClickCluster;
            press.cluster = target.cluster;
        } else if (target.kind == HitKind::ListRow) {
            press.kind = Kind::ClickCluster; // a click inside the list keeps it open
        } else if (canEdit &&
                   (target.kind == HitKind::Start || target.kind == HitKind::End || target.kind == HitKind::Label)) {
            press.kind = Kind::Move;
            press.mark = target.mark;
            press.part = target.kind;
        }
    }
    m_press = press;
    return out;
}

ChartGestures::Outcome ChartGestures::move(const QPointF &pos, const TimeAxisMap &axis)
{
    Outcome out;
    if (!m_press)
        return out;
    m_press->current = pos;
    if (m_press->kind == Kind::Pan) {
        // The range at the press, moved by the drag at the plot's current width: a pan never
        // accumulates the rounding of its steps.
        const TimeRange &from = m_press->rangeAtPress;
        const double perPixel = TimeAxisMap{from, axis.plot}.msPerPixel();
        const qint64 shift = -qint64(std::llround((pos.x() - m_press->start.x()) * perPixel));
        out.scroll = TimeRange{from.startMs + shift, from.endMs + shift};
    } else {
        out.repaint = true;
    }
    return out;
}

ChartGestures::Outcome ChartGestures::release(const QPointF &pos, Qt::MouseButton button, const TimeAxisMap &axis,
                                              bool canEdit)
{
    Outcome out;
    if (!m_press || button != Qt::LeftButton)
        return out;
    m_press->current = pos;
    const Press press = *m_press;
    m_press.reset();
    const double dx = press.current.x() - press.start.x();
    const bool dragged = std::abs(dx) >= kDragThresholdPx;
    out.repaint = true;
    out.cursor = Qt::CrossCursor;
    switch (press.kind) {
    case Kind::Zoom:
        if (dragged) {
            const qint64 a = axis.timeAt(press.start.x());
            const qint64 b = axis.timeAt(press.current.x());
            out.selectRange = TimeRange{std::min(a, b), std::max(a, b)};
        } else {
            out.closeClusterList = true;
        }
        break;
    case Kind::Pan:
        out.scrollFinished = true;
        break;
    case Kind::Annotate:
        if (dragged) {
            const qint64 a = axis.timeAt(press.start.x());
            const qint64 b = axis.timeAt(press.current.x());
            out.prompt = Prompt{press.current, std::min(a, b), std::max(a, b)};
        } else {
            out.prompt = Prompt{press.start, axis.timeAt(press.start.x()), std::nullopt};
        }
        break;
    case Kind::Move: {
        const bool moved = std::abs(dx) >= kMoveThresholdPx;
        // One move per drag, at the release: the drag is one undo step.
        if (moved && canEdit)
            out.move = movedTimes(press, axis);
        else if (!moved && canEdit && press.mark.suggested)
            out.offerSuggestion = Offer{press.mark.id, press.start};
        break;
    }
    case Kind::ClickCluster:
        out.toggleCluster = press.cluster;
        break;
    }
    return out;
}

ChartGestures::Outcome ChartGestures::wheel(const QPoint &angleDelta, Qt::KeyboardModifiers modifiers, double x,
                                            const TimeAxisMap &axis) const
{
    Outcome out;
    const int raw = angleDelta.y() != 0 ? angleDelta.y() : angleDelta.x();
    const bool sideways = angleDelta.y() == 0 && angleDelta.x() != 0;
    if (raw == 0 || !(modifiers & (Qt::ControlModifier | Qt::ShiftModifier) || sideways))
        return out; // the plain wheel scrolls the page
    const double notches = raw / 120.0;
    const TimeRange range = axis.range;
    TimeRange next;
    if (modifiers & Qt::ControlModifier) {
        // Zoom around the instant under the mouse: it stays where it is on screen.
        const double length =
            std::max<double>(kMinimumRangeMs, double(range.length()) * std::pow(kWheelZoomFactor, notches));
        const qint64 anchor = axis.timeAt(x);
        const double fraction = double(anchor - range.startMs) / double(std::max<qint64>(1, range.length()));
        next.startMs = anchor - qint64(std::llround(fraction * length));
        next.endMs = next.startMs + qint64(std::llround(length));
    } else {
        // Forward (up, or left on a touchpad) goes back in time, like scrolling up a log.
        const qint64 shift = -qint64(std::llround(notches * kWheelPanFraction * double(range.length())));
        next = {range.startMs + shift, range.endMs + shift};
    }
    out.scroll = next;
    return out;
}

std::optional<ChartGestures::Kind> ChartGestures::kind() const
{
    if (!m_press)
        return std::nullopt;
    return m_press->kind;
}

std::optional<std::pair<double, double>> ChartGestures::zoomBand() const
{
    if (!m_press || m_press->kind != Kind::Zoom ||
        std::abs(m_press->current.x() - m_press->start.x()) < kDragThresholdPx)
        return std::nullopt;
    return std::make_pair(m_press->start.x(), m_press->current.x());
}

std::optional<std::pair<double, std::optional<double>>> ChartGestures::annotateSpan() const
{
    if (!m_press || m_press->kind != Kind::Annotate)
        return std::nullopt;
    std::optional<double> end;
    if (std::abs(m_press->current.x() - m_press->start.x()) >= kDragThresholdPx)
        end = m_press->current.x();
    return std::make_pair(m_press->start.x(), end);
}

std::optional<ChartGestures::Moved> ChartGestures::moving(const TimeAxisMap &axis) const
{
    if (!m_press || m_press->kind != Kind::Move)
        return std::nullopt;
    return movedTimes(*m_press, axis);
}

ChartGestures::Moved ChartGestures::movedTimes(const Press &press, const TimeAxisMap &axis)
{
    const Mark &a = press.mark;
    const qint64 delta = qint64(std::llround((press.current.x() - press.start.x()) * axis.msPerPixel()));
    switch (press.part) {
    case HitKind::End:
        return {a.id, a.timeMs, a.endMs ? std::optional<qint64>(*a.endMs + delta) : std::nullopt};
    case HitKind::Label: // the label carries the whole annotation
        return {a.id, a.timeMs + delta, a.endMs ? std::optional<qint64>(*a.endMs + delta) : std::nullopt};
    default: // Start: a point, or a region's start edge
        return {a.id, a.timeMs + delta, a.endMs};
    }
}
