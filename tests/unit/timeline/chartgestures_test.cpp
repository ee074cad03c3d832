// SPDX-License-Identifier: GPL-3.0-or-later
// What the mouse does on a chart's plot, without a widget: press, drag and release (zoom,
// pan, annotate, move a marker, click a badge or a suggestion) and the wheel.
#include "timeline/chartgestures.h"

#include <gtest/gtest.h>

namespace {

using Kind = ChartGestures::Kind;
using HitKind = AnnotationLayout::HitKind;

// 10 minutes over a 600 px plot at x 64: one second a pixel.
constexpr qint64 kStart = 1'800'000'000'000;
const TimeAxisMap kAxis{{kStart, kStart + 600'000}, QRectF(64, 10, 600, 200)};

QPointF at(double x)
{
    return QPointF(x, 100);
}

ChartGestures::Target nothing()
{
    return {};
}

// A press with no target under it; counts the hit tests.
struct Probe
{
    int asked = 0;
    ChartGestures::Target target;
    ChartGestures::TargetAt fn()
    {
        return [this] {
            ++asked;
            return target;
        };
    }
};

ChartGestures::Target mark(HitKind part, qint64 timeMs, std::optional<qint64> endMs = std::nullopt,
                           bool suggested = false)
{
    ChartGestures::Target target;
    target.kind = part;
    target.mark = {7, timeMs, endMs, suggested};
    return target;
}

} // namespace

TEST(ChartGestures, ADragZoomsToTheDraggedRangeAndAClickClosesAClusterList)
{
    ChartGestures gestures;
    EXPECT_FALSE(gestures.press(at(164), {}, kAxis, false, nothing).cursor);
    EXPECT_EQ(gestures.kind(), Kind::Zoom);
    EXPECT_FALSE(gestures.zoomBand()) << "not yet a drag";
    EXPECT_TRUE(gestures.move(at(169), kAxis).repaint);
    EXPECT_FALSE(gestures.zoomBand()) << "5 px is not a drag";
    gestures.move(at(464), kAxis);
    ASSERT_TRUE(gestures.zoomBand());
    EXPECT_EQ(*gestures.zoomBand(), std::make_pair(164.0, 464.0));

    // Released to the left of the press: the range is ordered.
    const ChartGestures::Outcome out = gestures.release(at(114), Qt::LeftButton, kAxis, false);
    EXPECT_FALSE(gestures.isPressed());
    ASSERT_TRUE(out.selectRange);
    EXPECT_EQ(*out.selectRange, (TimeRange{kStart + 50'000, kStart + 100'000}));
    EXPECT_TRUE(out.repaint);
    EXPECT_EQ(out.cursor, Qt::CrossCursor);
    EXPECT_FALSE(out.closeClusterList);

    gestures.press(at(164), {}, kAxis, false, nothing);
    const ChartGestures::Outcome click = gestures.release(at(169), Qt::LeftButton, kAxis, false);
    EXPECT_FALSE(click.selectRange) << "less than 6 px is a click";
    EXPECT_TRUE(click.closeClusterList);
}

TEST(ChartGestures, OnlyTheLeftButtonsReleaseEndsAGesture)
{
    ChartGestures gestures;
    gestures.press(at(164), {}, kAxis, false, nothing);
    const ChartGestures::Outcome right = gestures.release(at(464), Qt::RightButton, kAxis, false);
    EXPECT_FALSE(right.selectRange);
    EXPECT_FALSE(right.repaint);
    EXPECT_TRUE(gestures.isPressed());
    EXPECT_TRUE(gestures.release(at(464), Qt::LeftButton, kAxis, false).selectRange);
    EXPECT_FALSE(gestures.release(at(464), Qt::LeftButton, kAxis, false).repaint) << "no press, nothing to end";
    EXPECT_FALSE(gestures.move(at(500), kAxis).repaint);
}

TEST(ChartGestures, ShiftDragPansFromTheRangeAtThePressAtTheCurrentPlotWidth)
{
    ChartGestures gestures;
    Probe probe;
    EXPECT_EQ(gestures.press(at(300), Qt::ShiftModifier, kAxis, true, probe.fn()).cursor, Qt::ClosedHandCursor);
    EXPECT_EQ(gestures.kind(), Kind::Pan);
    EXPECT_EQ(probe.asked, 0) << "no hit test with a modifier";

    // The window follows the pan; each step still counts from the range at the press.
    ChartGestures::Outcome out = gestures.move(at(350), kAxis);
    ASSERT_TRUE(out.scroll);
    EXPECT_EQ(*out.scroll, (TimeRange{kStart - 50'000, kStart + 550'000})) << "dragging right shows earlier time";
    EXPECT_FALSE(out.repaint);
    const TimeAxisMap moved{*out.scroll, kAxis.plot};
    out = gestures.move(at(400), moved);
    EXPECT_EQ(*out.scroll, (TimeRange{kStart - 100'000, kStart + 500'000}));
    // The panel was resized meanwhile: 300 px for the range at the press.
    const TimeAxisMap narrower{*out.scroll, QRectF(64, 10, 300, 200)};
    out = gestures.move(at(400), narrower);
    EXPECT_EQ(*out.scroll, (TimeRange{kStart - 200'000, kStart + 400'000}));

    out = gestures.release(at(400), Qt::LeftButton, narrower, true);
    EXPECT_TRUE(out.scrollFinished);
    EXPECT_FALSE(out.scroll);
    EXPECT_EQ(out.cursor, Qt::CrossCursor);
}

TEST(ChartGestures, CtrlAnnotatesWithAnEditorOnlyAndWinsOverShift)
{
    ChartGestures gestures;
    Probe probe;
    const ChartGestures::Outcome none = gestures.press(at(164), Qt::ControlModifier, kAxis, false, probe.fn());
    EXPECT_FALSE(gestures.isPressed()) << "nowhere to add an annotation to";
    EXPECT_FALSE(none.cursor);
    EXPECT_FALSE(gestures.release(at(164), Qt::LeftButton, kAxis, false).prompt);

    gestures.press(at(164), Qt::ControlModifier | Qt::ShiftModifier, kAxis, true, probe.fn());
    EXPECT_EQ(gestures.kind(), Kind::Annotate) << "Ctrl wins over Shift";
    EXPECT_EQ(probe.asked, 0);
    ASSERT_TRUE(gestures.annotateSpan());
    EXPECT_EQ(gestures.annotateSpan()->first, 164.0);
    EXPECT_FALSE(gestures.annotateSpan()->second) << "a point until dragged";
    ChartGestures::Outcome out = gestures.release(at(166), Qt::LeftButton, kAxis, true);
    ASSERT_TRUE(out.prompt);
    EXPECT_EQ(out.prompt->at, at(164)) << "a point's prompt opens where it was pressed";
    EXPECT_EQ(out.prompt->timeMs, kStart + 100'000);
    EXPECT_FALSE(out.prompt->endMs);

    // A drag to the left: a region, ordered, its prompt at the release.
    gestures.press(at(464), Qt::ControlModifier, kAxis, true, probe.fn());
    gestures.move(at(264), kAxis);
    EXPECT_EQ(gestures.annotateSpan()->second, 264.0);
    out = gestures.release(at(264), Qt::LeftButton, kAxis, true);
    ASSERT_TRUE(out.prompt);
    EXPECT_EQ(out.prompt->at, at(264));
    EXPECT_EQ(out.prompt->timeMs, kStart + 200'000);
    EXPECT_EQ(out.prompt->endMs, kStart + 400'000);
    EXPECT_FALSE(out.selectRange) << "an annotation does not zoom";
}

TEST(ChartGestures, DraggingAMarkerMovesItFromThreePixelsOnWithTheTimesAsDragged)
{
    ChartGestures gestures;
    Probe probe;
    probe.target = mark(HitKind::Start, kStart + 100'000, kStart + 150'000);
    gestures.press(at(164), {}, kAxis, true, probe.fn());
    EXPECT_EQ(probe.asked, 1);
    EXPECT_EQ(gestures.kind(), Kind::Move);
    // The start dragged past the end: the times stay as dragged (the overlay orders them).
    gestures.move(at(264), kAxis);
    ASSERT_TRUE(gestures.moving(kAxis));
    EXPECT_EQ(gestures.moving(kAxis)->timeMs, kStart + 200'000);
    EXPECT_EQ(gestures.moving(kAxis)->endMs, kStart + 150'000);
    ChartGestures::Outcome out = gestures.release(at(264), Qt::LeftButton, kAxis, true);
    ASSERT_TRUE(out.move);
    EXPECT_EQ(out.move->id, 7u);
    EXPECT_EQ(out.move->timeMs, kStart + 200'000);
    EXPECT_EQ(out.move->endMs, kStart + 150'000);
    EXPECT_FALSE(gestures.moving(kAxis));

    // A slip of 3 px moves it (the drag threshold is 6 px), 2 px does not.
    gestures.press(at(164), {}, kAxis, true, probe.fn());
    EXPECT_EQ(gestures.release(at(167), Qt::LeftButton, kAxis, true).move->timeMs, kStart + 103'000);
    gestures.press(at(164), {}, kAxis, true, probe.fn());
    EXPECT_FALSE(gestures.release(at(166), Qt::LeftButton, kAxis, true).move);

    // An end edge moves the end only, a label the whole region.
    probe.target = mark(HitKind::End, kStart + 100'000, kStart + 150'000);
    gestures.press(at(214), {}, kAxis, true, probe.fn());
    out = gestures.release(at(234), Qt::LeftButton, kAxis, true);
    EXPECT_EQ(out.move->timeMs, kStart + 100'000);
    EXPECT_EQ(out.move->endMs, kStart + 170'000);
    probe.target = mark(HitKind::Label, kStart + 100'000, kStart + 150'000);
    gestures.press(at(200), {}, kAxis, true, probe.fn());
    out = gestures.release(at(190), Qt::LeftButton, kAxis, true);
    EXPECT_EQ(out.move->timeMs, kStart + 90'000);
    EXPECT_EQ(out.move->endMs, kStart + 140'000);

    // The editor went during the drag: nothing is moved.
    gestures.press(at(200), {}, kAxis, true, probe.fn());
    EXPECT_FALSE(gestures.release(at(250), Qt::LeftButton, kAxis, false).move);
}

TEST(ChartGestures, WithoutAnEditorAMarkerIsNoHandleAndAModifierSkipsTheHitTest)
{
    ChartGestures gestures;
    Probe probe;
    probe.target = mark(HitKind::Start, kStart + 100'000);
    gestures.press(at(164), {}, kAxis, false, probe.fn());
    EXPECT_EQ(gestures.kind(), Kind::Zoom) << "a drag over a marker zooms when it cannot be moved";
    gestures.press(at(164), Qt::ShiftModifier, kAxis, true, probe.fn());
    EXPECT_EQ(gestures.kind(), Kind::Pan);
    EXPECT_EQ(probe.asked, 1);
}

TEST(ChartGestures, AClickOnASuggestionOffersItAndOnABadgeTogglesItsList)
{
    ChartGestures gestures;
    Probe probe;
    probe.target = mark(HitKind::Start, kStart + 100'000, std::nullopt, true);
    gestures.press(at(164), {}, kAxis, true, probe.fn());
    ChartGestures::Outcome out = gestures.release(at(165), Qt::LeftButton, kAxis, true);
    EXPECT_FALSE(out.move);
    ASSERT_TRUE(out.offerSuggestion);
    EXPECT_EQ(out.offerSuggestion->id, 7u);
    EXPECT_EQ(out.offerSuggestion->at, at(164));
    // An accepted mark offers nothing; a suggestion without an editor neither.
    probe.target.mark.suggested = false;
    gestures.press(at(164), {}, kAxis, true, probe.fn());
    EXPECT_FALSE(gestures.release(at(164), Qt::LeftButton, kAxis, true).offerSuggestion);
    probe.target.mark.suggested = true;
    gestures.press(at(164), {}, kAxis, true, probe.fn());
    EXPECT_FALSE(gestures.release(at(164), Qt::LeftButton, kAxis, false).offerSuggestion);

    probe.target = {};
    probe.target.kind = HitKind::Badge;
    probe.target.cluster = 42;
    gestures.press(at(300), {}, kAxis, false, probe.fn());
    EXPECT_EQ(gestures.kind(), Kind::ClickCluster);
    out = gestures.release(at(320), Qt::LeftButton, kAxis, false);
    EXPECT_EQ(out.toggleCluster, 42u);
    EXPECT_FALSE(out.selectRange) << "a drag from a badge does not zoom";
    // A click inside the open list keeps it open.
    probe.target = {};
    probe.target.kind = HitKind::ListRow;
    gestures.press(at(300), {}, kAxis, false, probe.fn());
    out = gestures.release(at(300), Qt::LeftButton, kAxis, false);
    EXPECT_FALSE(out.toggleCluster);
    EXPECT_FALSE(out.closeClusterList);
}

TEST(ChartGestures, TheWheelPansATenthAndCtrlWheelZoomsAroundTheMouse)
{
    const ChartGestures gestures;
    // The plain wheel is the page's: it scrolls the panels, never time.
    EXPECT_FALSE(gestures.wheel(QPoint(0, 120), {}, 300, kAxis).scroll);
    ChartGestures::Outcome out = gestures.wheel(QPoint(0, 120), Qt::ShiftModifier, 300, kAxis);
    ASSERT_TRUE(out.scroll);
    EXPECT_EQ(*out.scroll, (TimeRange{kStart - 60'000, kStart + 540'000})) << "forward goes back in time";
    out = gestures.wheel(QPoint(-240, 0), {}, 300, kAxis);
    EXPECT_EQ(*out.scroll, (TimeRange{kStart + 120'000, kStart + 720'000})) << "a horizontal wheel without a vertical";
    EXPECT_FALSE(gestures.wheel(QPoint(0, 0), {}, 300, kAxis).scroll);

    // Ctrl: 0.8 of the length, the instant under the mouse stays at its fraction of the plot.
    out = gestures.wheel(QPoint(0, 120), Qt::ControlModifier, 214, kAxis);
    ASSERT_TRUE(out.scroll);
    EXPECT_EQ(out.scroll->length(), 480'000);
    EXPECT_EQ(out.scroll->startMs, kStart + 150'000 - 120'000);
    // Zoomed in as far as it goes: a second.
    const TimeAxisMap tiny{{kStart, kStart + 1100}, kAxis.plot};
    out = gestures.wheel(QPoint(0, 1200), Qt::ControlModifier, 64, tiny);
    EXPECT_EQ(out.scroll->length(), ChartGestures::kMinimumRangeMs);
}
