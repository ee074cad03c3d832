// SPDX-License-Identifier: GPL-3.0-or-later
// Which store series each panel draws, printed panel by panel in drawing order: queried
// series bound as their answers name them, load tester values and formulas with the
// dashboard, one load tester key in several panels.
#include "fetching/seriesbindings.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>
#include <ostream>

void PrintTo(const QString &text, std::ostream *out)
{
    *out << '"' << text.toStdString() << '"';
}

namespace {

using namespace Qt::StringLiterals;

QMap<QString, QString> pod(const QString &name)
{
    return {{QStringLiteral("pod"), name}};
}

QString podKey(int panel, int query, const QString &name)
{
    return SeriesKey::ofQuery(panel, query, {}, QStringLiteral("{pod=\"%1\"}").arg(name));
}

} // namespace

TEST(SeriesBindings, AQueriedSeriesIsBoundOnceWithItsLegend)
{
    SeriesBindings bindings;
    const std::optional<SeriesBinding> added =
        bindings.bindQueried(0, 0, podKey(0, 0, u"b"_s), u"sent {{pod}}"_s, pod(u"b"_s));
    ASSERT_TRUE(added);
    EXPECT_EQ(*added, (SeriesBinding{0, 0, u"p0/q0/{pod=\"b\"}"_s, u"sent b"_s}));
    EXPECT_TRUE(bindings.bindQueried(0, 0, podKey(0, 0, u"a"_s), u"sent {{pod}}"_s, pod(u"a"_s)));
    EXPECT_FALSE(bindings.bindQueried(0, 0, podKey(0, 0, u"b"_s), u"other {{pod}}"_s, pod(u"b"_s)))
        << "bound already: not new, and its legend stays";
    EXPECT_TRUE(bindings.contains(0, podKey(0, 0, u"b"_s)));
    EXPECT_FALSE(bindings.contains(1, podKey(0, 0, u"b"_s)));
    EXPECT_EQ(bindings.describe(),
              (QStringList{u"p0 q0 p0/q0/{pod=\"a\"} \"sent a\""_s, u"p0 q0 p0/q0/{pod=\"b\"} \"sent b\""_s}));
}

TEST(SeriesBindings, APanelDrawsByQueryThenLegend)
{
    SeriesBindings bindings;
    bindings.bindQueried(1, 2, podKey(1, 2, u"x"_s), u"{{pod}}"_s, pod(u"x"_s));
    bindings.bindQueried(1, 0, podKey(1, 0, u"z"_s), u"{{pod}}"_s, pod(u"z"_s));
    bindings.bindQueried(1, 0, podKey(1, 0, u"y"_s), u"{{pod}}"_s, pod(u"y"_s));
    bindings.bindUnqueried({1, 1, SeriesKey::derived(1, 1), u"wait"_s});
    bindings.bindQueried(0, 0, podKey(0, 0, u"a"_s), u"{{pod}}"_s, pod(u"a"_s));
    EXPECT_EQ(bindings.describe(), (QStringList{
                                       u"p0 q0 p0/q0/{pod=\"a\"} \"a\""_s,
                                       u"p1 q0 p1/q0/{pod=\"y\"} \"y\""_s,
                                       u"p1 q0 p1/q0/{pod=\"z\"} \"z\""_s,
                                       u"p1 q1 derived/p1/q1 \"wait\""_s,
                                       u"p1 q2 p1/q2/{pod=\"x\"} \"x\""_s,
                                   }));
    const std::vector<std::vector<SeriesBinding>> panels = bindings.byPanel(3);
    ASSERT_EQ(panels.size(), 3u);
    EXPECT_EQ(panels[0], bindings.ofPanel(0));
    EXPECT_EQ(panels[1], bindings.ofPanel(1));
    EXPECT_TRUE(panels[2].empty());
}

TEST(SeriesBindings, OneLoadTesterKeyIsDrawnInEveryPanelThatNamesIt)
{
    SeriesBindings bindings;
    const QString rate = SeriesKey::loadTester(u"rate"_s);
    bindings.bindUnqueried({0, 1, rate, u"rate set-point"_s});
    bindings.bindUnqueried({2, 0, rate, u"target"_s});
    EXPECT_EQ(bindings.describe(),
              (QStringList{u"p0 q1 loadtester/rate \"rate set-point\""_s, u"p2 q0 loadtester/rate \"target\""_s}));
    EXPECT_TRUE(bindings.contains(0, rate));
    EXPECT_TRUE(bindings.contains(2, rate));
    EXPECT_FALSE(bindings.contains(1, rate));
}

TEST(SeriesBindings, AQueryWhoseValueChangedLosesItsSeriesOnly)
{
    SeriesBindings bindings;
    bindings.bindQueried(0, 1, SeriesKey::ofQuery(0, 1, {{u"job"_s, u"a"_s}}, u"{}"_s), u"one"_s, {});
    bindings.bindQueried(0, 1, SeriesKey::ofQuery(0, 1, {{u"job"_s, u"a"_s}}, u"{s=\"2\"}"_s), u"two"_s, {});
    bindings.bindQueried(0, 10, SeriesKey::ofQuery(0, 10, {}, u"{}"_s), u"ten"_s, {});
    bindings.bindUnqueried({0, 2, SeriesKey::derived(0, 1), u"formula"_s});
    bindings.bindUnqueried({0, 3, SeriesKey::loadTester(u"rate"_s), u"rate"_s});
    bindings.bindQueried(1, 1, SeriesKey::ofQuery(1, 1, {}, u"{}"_s), u"other panel"_s, {});
    bindings.unbindQuery(0, 1);
    EXPECT_EQ(bindings.describe(), (QStringList{
                                       u"p0 q2 derived/p0/q1 \"formula\""_s,
                                       u"p0 q3 loadtester/rate \"rate\""_s,
                                       u"p0 q10 p0/q10/{} \"ten\""_s,
                                       u"p1 q1 p1/q1/{} \"other panel\""_s,
                                   }));
    bindings.clear();
    EXPECT_TRUE(bindings.describe().isEmpty());
}
