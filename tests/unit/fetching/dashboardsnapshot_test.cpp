// SPDX-License-Identifier: GPL-3.0-or-later
// A view's copy of what the dashboard shows, kept current from the poller's signals alone:
// after the same changes it holds what the poller would hand out, in the same order.
#include "fetching/dashboardsnapshot.h"
#include "fetching/seriesbindings.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>

namespace {

using namespace Qt::StringLiterals;

QMap<QString, QString> pod(const QString &name)
{
    return {{u"pod"_s, name}};
}

} // namespace

TEST(DashboardSnapshot, SeriesAddedOneByOneLandInTheOrderThePollerGives)
{
    SeriesBindings bindings;
    DashboardSnapshot copy;
    copy.series.resize(2);
    const auto bind = [&](int panel, int query, const QString &name) {
        const QString key = SeriesKey::ofQuery(panel, query, {}, u"{pod=\"%1\"}"_s.arg(name));
        if (const std::optional<SeriesBinding> added = bindings.bindQueried(panel, query, key, u"{{pod}}"_s, pod(name)))
            copy.add(*added); // what the view does with seriesAdded
    };
    bind(0, 1, u"c"_s);
    bind(0, 0, u"b"_s);
    bind(1, 0, u"x"_s);
    bind(0, 0, u"a"_s);
    bind(0, 1, u"a"_s);
    bind(3, 0, u"late"_s); // a panel the copy did not know yet
    EXPECT_EQ(copy.series, bindings.byPanel(4));
    EXPECT_TRUE(copy.seriesOf(2).empty());
    EXPECT_TRUE(copy.seriesOf(-1).empty());

    // The same binding again replaces itself rather than drawing twice.
    copy.add(SeriesBinding{0, 0, SeriesKey::ofQuery(0, 0, {}, u"{pod=\"a\"}"_s), u"a"_s});
    EXPECT_EQ(copy.series, bindings.byPanel(4));
}

TEST(DashboardSnapshot, StatusAndVariablesFollowTheirSignals)
{
    DashboardSnapshot copy;
    copy.dashboard.variableDefinitions.push_back(VariableDefinition{});
    copy.dashboard.variableDefinitions.back().name = u"job"_s;
    copy.dashboard.variableDefinitions.back().value = u"a"_s;
    PanelStatus down;
    down.state = PanelStatus::State::SourceDown;
    copy.setStatus(2, down);
    ASSERT_EQ(copy.status.size(), 3u);
    EXPECT_EQ(copy.statusOf(2), down);
    EXPECT_EQ(copy.statusOf(0), PanelStatus{});
    EXPECT_EQ(copy.statusOf(7), PanelStatus{});
    copy.setVariable(u"job"_s, u"b"_s);
    copy.setVariable(u"unknown"_s, u"c"_s);
    EXPECT_EQ(copy.dashboard.variableDefinitions.front().value, u"b"_s);
}
