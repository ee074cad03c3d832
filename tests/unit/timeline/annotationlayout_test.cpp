// SPDX-License-Identifier: GPL-3.0-or-later
// Where a chart puts its annotation markers: x from time, nothing outside the view, markers a
// few pixels apart collapsed into one "+N" badge, labels in rows without overlap, and what
// lies under the mouse.
#include "timeline/annotationlayout.h"

#include <gtest/gtest.h>

using namespace AnnotationLayout;

namespace {

// 1000 px for 100 s: 10 px per second, plot from x = 50.
Options options()
{
    Options o;
    o.range = {0, 100'000};
    o.plotLeft = 50;
    o.plotWidth = 1000;
    o.plotTop = 10;
    o.plotBottom = 310;
    o.clusterPx = 6;
    o.rows = 2;
    o.rowHeight = 16;
    o.rowGap = 4;
    o.badgeWidth = [](int) { return 20.0; };
    return o;
}

Item point(quint64 id, qint64 t, double labelWidth = 60)
{
    return {id, t, std::nullopt, labelWidth};
}

Item region(quint64 id, qint64 t, qint64 end, double labelWidth = 60)
{
    return {id, t, end, labelWidth};
}

// No two labels of a layout cover each other.
void expectNoLabelsOverlap(const Result &r)
{
    for (std::size_t a = 0; a < r.groups.size(); ++a)
        for (std::size_t b = a + 1; b < r.groups.size(); ++b)
            EXPECT_FALSE(r.groups[a].label.intersects(r.groups[b].label)) << a << " and " << b;
}

} // namespace

TEST(AnnotationLayout, MapsTimeToXAndDropsWhatIsOutOfView)
{
    const std::vector<Item> items{point(1, -5000), point(2, 20'000), region(3, -10'000, 30'000),
                                  region(4, 90'000, 120'000), point(5, 150'000)};
    const Result r = compute(items, options());
    ASSERT_EQ(r.markers.size(), 3u) << "the point before and the point after the view are not drawn";
    EXPECT_EQ(r.markers[0].item, 1);
    EXPECT_DOUBLE_EQ(r.markers[0].x, 250.0);
    EXPECT_TRUE(r.markers[0].startVisible);

    // A region reaching into the view from the left: its band and end edge show, its start not.
    EXPECT_EQ(r.markers[1].item, 2);
    EXPECT_FALSE(r.markers[1].startVisible);
    ASSERT_TRUE(r.markers[1].endX);
    EXPECT_DOUBLE_EQ(*r.markers[1].endX, 350.0);
    EXPECT_TRUE(r.markers[1].endVisible);
    EXPECT_GE(r.markers[1].group, 0) << "it keeps a label, at the left edge";

    EXPECT_EQ(r.markers[2].item, 3);
    EXPECT_TRUE(r.markers[2].startVisible);
    EXPECT_FALSE(r.markers[2].endVisible);
}

TEST(AnnotationLayout, MarkersAFewPixelsApartClusterIntoOneBadge)
{
    // 30.0 s, 30.3 s, 30.5 s are 3 and 5 px apart; 31.0 s is 10 px from the first.
    const std::vector<Item> items{point(1, 30'000), point(2, 30'300), point(3, 30'500), point(4, 31'000),
                                  point(5, 60'000)};
    const Result r = compute(items, options());
    ASSERT_EQ(r.groups.size(), 3u);
    EXPECT_TRUE(r.groups[0].isCluster());
    EXPECT_EQ(r.groups[0].markers.size(), 3u);
    EXPECT_DOUBLE_EQ(r.groups[0].x, 350.0);
    EXPECT_EQ(r.groups[0].label.width(), 20.0) << "a cluster shows a badge, not a label";
    EXPECT_FALSE(r.groups[1].isCluster());
    EXPECT_EQ(r.groups[1].markers, std::vector<int>{3});
    EXPECT_FALSE(r.groups[2].isCluster());
}

TEST(AnnotationLayout, AStreamOfMarkersDoesNotChainIntoOneCluster)
{
    std::vector<Item> items;
    for (int i = 0; i < 20; ++i)
        items.push_back(point(quint64(i + 1), 10'000 + i * 400)); // 4 px apart
    const Result r = compute(items, options());
    for (const Group &g : r.groups)
        EXPECT_LT(r.markers[std::size_t(g.markers.back())].x - g.x, 6.0)
            << "a group spans less than the cluster distance";
    EXPECT_EQ(r.groups.size(), 10u);
}

TEST(AnnotationLayout, LabelsTakeRowsAndNeverOverlap)
{
    // 100 px labels every 10 s (100 px): they alternate between the two rows, each whole and
    // right of its line.
    std::vector<Item> items;
    for (int i = 0; i < 6; ++i)
        items.push_back(point(quint64(i + 1), 10'000 + i * 10'000, 100));
    const Result r = compute(items, options());
    ASSERT_EQ(r.groups.size(), 6u);
    for (std::size_t g = 0; g + 1 < r.groups.size(); ++g)
        EXPECT_NE(r.groups[g].label.top(), r.groups[g + 1].label.top()) << "neighbours " << g << " take two rows";
    for (const Group &group : r.groups) {
        EXPECT_DOUBLE_EQ(group.label.width(), 100.0) << "room for all: nothing shortened";
        EXPECT_FALSE(group.leftOfLine);
        EXPECT_DOUBLE_EQ(group.label.left(), group.x + 3);
    }
    expectNoLabelsOverlap(r);
}

TEST(AnnotationLayout, WhenTheRowsAreFullTheNewestKeepsItsLabelWhole)
{
    // Six 100 px labels 50 px apart in two rows: the newest is whole right of its line, the
    // others take what is left beside their lines, and one has no room.
    std::vector<Item> items;
    for (int i = 0; i < 6; ++i)
        items.push_back(point(quint64(i + 1), 10'000 + i * 5000, 100));
    const Result r = compute(items, options());
    ASSERT_EQ(r.groups.size(), 6u);
    EXPECT_DOUBLE_EQ(r.groups[5].label.width(), 100.0) << "the newest is whole";
    EXPECT_DOUBLE_EQ(r.groups[5].label.left(), r.groups[5].x + 3);
    int placed = 0;
    for (const Group &group : r.groups) {
        if (group.label.isEmpty())
            continue;
        ++placed;
        EXPECT_GE(group.label.width(), options().minLabelWidth);
    }
    EXPECT_EQ(placed, 5);
    expectNoLabelsOverlap(r);
}

TEST(AnnotationLayout, ALabelIsNeverShortenedBelowItsMinimum)
{
    // Markers 3 s (30 px) apart near the left edge: the oldest has 56 px right of its line and
    // 47 px left of it, both below the minimum: the line alone marks it.
    std::vector<Item> items;
    for (int i = 0; i < 3; ++i)
        items.push_back(point(quint64(i + 1), 5000 + i * 3000, 100));
    const Result r = compute(items, options());
    ASSERT_EQ(r.groups.size(), 3u);
    EXPECT_DOUBLE_EQ(r.groups[2].label.width(), 100.0);
    EXPECT_DOUBLE_EQ(r.groups[1].label.width(), 100.0);
    EXPECT_TRUE(r.groups[0].label.isEmpty());
}

TEST(AnnotationLayout, ALabelNearTheRightEdgeGoesLeftOfItsLine)
{
    const Result r = compute({point(1, 99'000, 80)}, options());
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_DOUBLE_EQ(r.groups[0].label.right(), 1040.0 - 3.0) << "ends at its line";
    EXPECT_TRUE(r.groups[0].leftOfLine);
}

TEST(AnnotationLayout, NearTheRightEdgeTheNewestActionKeepsItsWholeLabelEndingAtItsLine)
{
    // The live edge of seed 000: a note, the rate change and a detector's suggestion a little
    // before the newest action, 80 px from the right edge, whose label is 200 px wide.
    const Result r = compute(
        {point(1, 80'000, 100), point(2, 82'000, 100), point(3, 84'000, 100), point(4, 92'000, 200)}, options());
    ASSERT_EQ(r.groups.size(), 4u);
    const Group &newest = r.groups[3];
    ASSERT_FALSE(newest.label.isEmpty()) << "the newest action has a label";
    EXPECT_DOUBLE_EQ(newest.label.width(), 200.0) << "whole";
    EXPECT_DOUBLE_EQ(newest.label.right(), 970.0 - 3.0) << "ending at its line";
    EXPECT_TRUE(newest.leftOfLine);
    expectNoLabelsOverlap(r);
}

TEST(AnnotationLayout, AnActionOutranksANewerNoteAndASuggestion)
{
    // One row, three labels at one spot: the note and the suggestion are newer, but the
    // action (the set-point change a reader looks for) gets the place.
    Options o = options();
    o.rows = 1;
    o.clusterPx = 0; // as in an export: every marker on its own
    Item action = point(1, 50'000, 300);
    action.priority = 3;
    Item note = point(2, 50'500, 300);
    note.priority = 2;
    Item suggestion = point(3, 51'000, 300);
    suggestion.priority = 0;
    const Result r = compute({action, note, suggestion}, o);
    ASSERT_EQ(r.groups.size(), 3u);
    EXPECT_DOUBLE_EQ(r.groups[0].label.width(), 300.0) << "the action: whole";
    EXPECT_TRUE(r.groups[1].label.isEmpty()) << "the note: no room beside its line";
    EXPECT_TRUE(r.groups[2].label.isEmpty()) << "the suggestion: no room";

    // Without the action, the note outranks the newer suggestion.
    const Result without = compute({note, suggestion}, o);
    EXPECT_DOUBLE_EQ(without.groups[0].label.width(), 300.0);
    EXPECT_TRUE(without.groups[1].label.isEmpty());
}

TEST(AnnotationLayout, LabelsWithoutRoomGetNumberedBoxesInTimeOrder)
{
    Options o = options();
    o.rows = 1;
    o.clusterPx = 0;
    o.extraNumberRows = 2;
    o.numberWidth = [](int) { return 16.0; };
    std::vector<Item> items;
    for (int i = 0; i < 4; ++i)
        items.push_back(point(quint64(i + 1), 50'000 + i * 500, 300));
    const Result r = compute(items, o);
    ASSERT_EQ(r.groups.size(), 4u);
    EXPECT_EQ(r.groups[3].number, 0) << "the newest is labelled, right of its line";
    EXPECT_EQ(r.groups[2].number, 0) << "the next, left of its line";
    EXPECT_EQ(r.groups[0].number, 1);
    EXPECT_EQ(r.groups[1].number, 2);
    for (const Group &group : r.groups) {
        ASSERT_FALSE(group.label.isEmpty());
        if (group.number > 0) {
            EXPECT_DOUBLE_EQ(group.label.width(), 16.0);
        }
    }
    expectNoLabelsOverlap(r);
}

TEST(AnnotationLayout, EveryLabelTouchesItsLine)
{
    // Many layouts of many markers: whatever place a label gets, it starts just right of its
    // line or ends just left of it, and none covers another.
    for (int seed = 1; seed <= 50; ++seed) {
        std::vector<Item> items;
        qint64 t = 0;
        quint64 state = quint64(seed) * 2654435761u;
        for (int i = 0; i < 25; ++i) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            t += qint64((state >> 33) % 9000);
            items.push_back(point(quint64(i + 1), t, 40 + double((state >> 20) % 200)));
            items.back().priority = int((state >> 40) % 4);
        }
        Options o = options();
        o.numberWidth = [](int) { return 14.0; };
        const Result r = compute(items, o);
        for (const Group &group : r.groups) {
            if (group.label.isEmpty())
                continue;
            const double anchor = group.leftOfLine ? group.label.right() + 3 : group.label.left() - 3;
            EXPECT_NEAR(anchor, group.x, 1.0) << "seed " << seed;
            EXPECT_GE(group.label.left(), 50.0);
            EXPECT_LE(group.label.right(), 1050.0);
        }
        expectNoLabelsOverlap(r);
    }
}

TEST(AnnotationLayout, AnExpandedClusterListsItsMembers)
{
    Options o = options();
    o.expandedId = 2;
    o.listRowHeight = 18;
    o.listWidth = 200;
    const std::vector<Item> items{point(1, 30'000), point(2, 30'300), point(3, 30'500)};
    const Result r = compute(items, o);
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_TRUE(r.groups[0].expanded);
    ASSERT_EQ(r.groups[0].listRows.size(), 3u);
    EXPECT_DOUBLE_EQ(r.groups[0].listRows[0].top(), r.groups[0].label.bottom() + 2);
    EXPECT_DOUBLE_EQ(r.groups[0].listRows[2].top(), r.groups[0].listRows[0].top() + 36);

    const Hit hit = hitTest(r, r.groups[0].listRows[1].center(), 4);
    EXPECT_EQ(hit.kind, HitKind::ListRow);
    EXPECT_EQ(hit.marker, 1);

    o.expandedId = 99;
    EXPECT_FALSE(compute(items, o).groups[0].expanded);
}

TEST(AnnotationLayout, HitTestFindsLinesEdgesLabelsAndBadges)
{
    const std::vector<Item> items{point(1, 20'000), region(2, 50'000, 70'000), point(3, 85'000), point(4, 85'300)};
    const Result r = compute(items, options());
    EXPECT_EQ(hitTest(r, {252, 200}, 4).kind, HitKind::Start);
    EXPECT_EQ(hitTest(r, {252, 200}, 4).marker, 0);
    EXPECT_EQ(hitTest(r, {260, 200}, 4).kind, HitKind::None);

    const Hit start = hitTest(r, {549, 200}, 4);
    EXPECT_EQ(start.kind, HitKind::Start);
    EXPECT_EQ(start.marker, 1);
    const Hit end = hitTest(r, {751, 200}, 4);
    EXPECT_EQ(end.kind, HitKind::End);
    EXPECT_EQ(end.marker, 1);
    EXPECT_EQ(hitTest(r, {650, 200}, 4).kind, HitKind::None) << "the inside of a band is not an edge";

    const Hit label = hitTest(r, r.groups[0].label.center(), 4);
    EXPECT_EQ(label.kind, HitKind::Label);
    EXPECT_EQ(label.marker, 0);

    // A line inside a cluster means the cluster.
    const Hit cluster = hitTest(r, {901, 200}, 4);
    EXPECT_EQ(cluster.kind, HitKind::Badge);
    EXPECT_EQ(cluster.group, 2);
    EXPECT_EQ(hitTest(r, r.groups[2].label.center(), 4).kind, HitKind::Badge);
}

TEST(AnnotationLayout, WithAKeyALabelCutToLittleOfItselfBecomesANumber)
{
    // One row; a newer label 400 px right of an older one takes the room right of it, so the
    // older keeps 300 px right of its line (and 100 px left) of its 500.
    const auto layout = [](bool key) {
        Options o = options();
        o.rows = 1;
        if (key)
            o.numberWidth = [](int) { return 16.0; };
        return compute({point(1, 10'000, 500), point(2, 40'000, 500)}, o);
    };
    const Result window = layout(false);
    ASSERT_EQ(window.groups.size(), 2u);
    EXPECT_GT(window.groups[0].label.width(), 250.0) << "the window shortens it: the dock lists it whole";
    EXPECT_LT(window.groups[0].label.width(), 500.0);
    EXPECT_EQ(window.groups[0].number, 0);
    const Result exported = layout(true);
    EXPECT_EQ(exported.groups[0].number, 1) << "60 % of itself is too little: the key gives it whole";
    EXPECT_DOUBLE_EQ(exported.groups[1].label.width(), 500.0);
}
