// SPDX-License-Identifier: GPL-3.0-or-later
// Store keys are written and read in one place. Each case below is a key as text and what
// SeriesKey reads from it, printed: the rules that were once spread over the poller, the
// formulas, the detectors and the session replay, with their disagreements settled.
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <gtest/gtest.h>

namespace {

using Variables = SeriesKey::Variables;

// "p0 q1 $env=prod $job=a/b {}" or "not a query's series".
QString read(const QString &key)
{
    const std::optional<SeriesKey::Parsed> parsed = SeriesKey::parse(key);
    if (!parsed)
        return QStringLiteral("not a query's series");
    QStringList words{QStringLiteral("p%1").arg(parsed->panel), QStringLiteral("q%1").arg(parsed->query)};
    for (const SeriesKey::Variable &variable : parsed->variables)
        words << QStringLiteral("$%1=%2").arg(variable.name, variable.value);
    words << parsed->labels;
    return words.join(QLatin1Char(' '));
}

void merge(SampleStore &store, const QString &key)
{
    store.merge(key, {}, std::vector<qint64>{1000}, std::vector<double>{1});
}

} // namespace

TEST(SeriesKey, BuildsEveryKindOfKey)
{
    EXPECT_EQ(SeriesKey::ofQuery(0, 1, {}, QStringLiteral("{job=\"api\"}")), QStringLiteral("p0/q1/{job=\"api\"}"));
    EXPECT_EQ(SeriesKey::ofQuery(
                  2, 0,
                  {{QStringLiteral("job"), QStringLiteral("api")}, {QStringLiteral("env"), QStringLiteral("prod")}},
                  QStringLiteral("{}")),
              QStringLiteral("p2/q0/$env=prod,$job=api/{}"))
        << "values sorted by name";
    EXPECT_EQ(SeriesKey::panelPrefix(3), QStringLiteral("p3/"));
    EXPECT_EQ(SeriesKey::queryPrefix(3, 4), QStringLiteral("p3/q4/"));
    EXPECT_EQ(SeriesKey::derived(2, 1), QStringLiteral("derived/p2/q1"));
    EXPECT_EQ(SeriesKey::loadTester(QStringLiteral("rate")), QStringLiteral("loadtester/rate"));
    EXPECT_EQ(SeriesKey::valuesSegment({}), QString());
    EXPECT_EQ(SeriesKey::valuesSegment({{QStringLiteral("namespace"), QStringLiteral("prod")}}),
              QStringLiteral("$namespace=prod/"));
}

TEST(SeriesKey, ReadsWhatItWrites)
{
    const std::vector<Variables> values{
        {},
        {{QStringLiteral("job"), QStringLiteral("api")}},
        {{QStringLiteral("env"), QStringLiteral("x,$job=y")}},
        {{QStringLiteral("job"), QStringLiteral("a/b")}, {QStringLiteral("env"), QStringLiteral("c\\d")}},
        {{QStringLiteral("path"), QStringLiteral("/{odd}/")}},
        {{QStringLiteral("re"), QStringLiteral("a\\.b|.*\\\\")}},
    };
    const QStringList labels{QStringLiteral("{}"), QStringLiteral("{a=\"1\\\", b=\\\"2\"}"),
                             QStringLiteral("{path=\"/x/{y}\"}")};
    for (const Variables &variables : values) {
        for (const QString &labelKey : labels) {
            const QString key = SeriesKey::ofQuery(7, 12, variables, labelKey);
            const std::optional<SeriesKey::Parsed> parsed = SeriesKey::parse(key);
            ASSERT_TRUE(parsed) << key.toStdString();
            Variables sorted = variables;
            std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
            EXPECT_EQ(*parsed, (SeriesKey::Parsed{7, 12, sorted, labelKey})) << key.toStdString();
            EXPECT_TRUE(SeriesKey::isAskedWith(key, 7, 12, variables)) << key.toStdString();
        }
    }
}

TEST(SeriesKey, ParsesOnlyAQuerysSeries)
{
    EXPECT_EQ(read(QStringLiteral("p0/q1/{job=\"api\"}")), QStringLiteral("p0 q1 {job=\"api\"}"));
    EXPECT_EQ(read(QStringLiteral("p3/q0/$namespace=blue/{}")), QStringLiteral("p3 q0 $namespace=blue {}"));
    EXPECT_EQ(read(QStringLiteral("p0/q0/$a=1,$b=2/{}")), QStringLiteral("p0 q0 $a=1 $b=2 {}"));
    for (const char *key :
         {"derived/p0/q2", "loadtester/rate", "x0/y1/{}", "p0/x1/{}", "p/q1/{}", "p-1/q0/{}", "p01/q0/{}", "p0/q0",
          "p0/q0/", "p0/q0/labels", "p0/q0/$n=1", "p0/q0/$=1/{}", "p99999999999/q0/{}", "p0/q0/{"}) {
        EXPECT_EQ(read(QString::fromUtf8(key)), QStringLiteral("not a query's series")) << key;
    }
}

TEST(SeriesKey, EscapedValuesNoLongerCollide)
{
    // $job="a/b" used to be "p0/q0/$job=a/b/{…}", which starts with the key of $job="a".
    const QString slash =
        SeriesKey::ofQuery(0, 0, {{QStringLiteral("job"), QStringLiteral("a/b")}}, QStringLiteral("{}"));
    EXPECT_EQ(slash, QStringLiteral("p0/q0/$job=a\\/b/{}"));
    EXPECT_FALSE(SeriesKey::isAskedWith(slash, 0, 0, {{QStringLiteral("job"), QStringLiteral("a")}}));
    EXPECT_FALSE(slash.startsWith(SeriesKey::queryPrefix(0, 0) +
                                  SeriesKey::valuesSegment({{QStringLiteral("job"), QStringLiteral("a")}})));

    // One variable whose value looks like two used to be spelt as the two.
    const QString one =
        SeriesKey::ofQuery(0, 0, {{QStringLiteral("env"), QStringLiteral("x,$job=y")}}, QStringLiteral("{}"));
    const QString two = SeriesKey::ofQuery(
        0, 0, {{QStringLiteral("env"), QStringLiteral("x")}, {QStringLiteral("job"), QStringLiteral("y")}},
        QStringLiteral("{}"));
    EXPECT_NE(one, two);
    EXPECT_EQ(read(one), QStringLiteral("p0 q0 $env=x,$job=y {}"));
    EXPECT_EQ(read(two), QStringLiteral("p0 q0 $env=x $job=y {}"));
    EXPECT_FALSE(SeriesKey::isAskedWith(
        one, 0, 0, {{QStringLiteral("env"), QStringLiteral("x")}, {QStringLiteral("job"), QStringLiteral("y")}}));
    EXPECT_FALSE(SeriesKey::isAskedWith(two, 0, 0, {{QStringLiteral("env"), QStringLiteral("x,$job=y")}}));

    // A backslash is escaped too, so a value ending in one cannot swallow the separator.
    EXPECT_EQ(SeriesKey::valuesSegment({{QStringLiteral("re"), QStringLiteral("a\\")}}), QStringLiteral("$re=a\\\\/"));
}

TEST(SeriesKey, KeysOfOlderRecordingsStillRead)
{
    // Written before values were escaped: a '/' inside a value ends nothing until the labels.
    EXPECT_EQ(read(QStringLiteral("p0/q0/$job=a/b/{s=\"1\"}")), QStringLiteral("p0 q0 $job=a/b {s=\"1\"}"));
    EXPECT_EQ(read(QStringLiteral("p1/q0/$re=a\\.b/{}")), QStringLiteral("p1 q0 $re=a\\.b {}"))
        << "a backslash that escapes nothing is itself";
    EXPECT_EQ(read(QStringLiteral("p0/q0/$env=x,y/{}")), QStringLiteral("p0 q0 $env=x,y {}"));
    // And they are still taken for the values they were asked with, and only for those.
    const QString old = QStringLiteral("p0/q0/$job=a/b/{}");
    EXPECT_TRUE(SeriesKey::isAskedWith(old, 0, 0, {{QStringLiteral("job"), QStringLiteral("a/b")}}));
    EXPECT_FALSE(SeriesKey::isAskedWith(old, 0, 0, {{QStringLiteral("job"), QStringLiteral("a")}}))
        << "the old startsWith took it for $job=a";
    const QString regex = QStringLiteral("p0/q0/$re=a\\\\b/{}"); // the value a\\b, unescaped
    EXPECT_TRUE(SeriesKey::isAskedWith(regex, 0, 0, {{QStringLiteral("re"), QStringLiteral("a\\\\b")}}));
    EXPECT_TRUE(SeriesKey::isAskedWith(QStringLiteral("p0/q0/{}"), 0, 0, {}));
    EXPECT_FALSE(SeriesKey::isAskedWith(QStringLiteral("p0/q0/$job=a/{}"), 0, 0, {}));
    EXPECT_FALSE(SeriesKey::isAskedWith(QStringLiteral("p0/q1/$job=a/{}"), 0, 0,
                                        {{QStringLiteral("job"), QStringLiteral("a")}}));
}

TEST(SeriesKey, AReferenceIsAKeyOrEverySeriesOfAQuery)
{
    SampleStore store;
    for (const char *key : {"p0/q1/{s=\"b\"}", "p0/q1/{s=\"a\"}", "p0/q10/{}", "loadtester/rate", "derived/p0/q2"})
        merge(store, QString::fromUtf8(key));

    const QString query = SeriesKey::queryPrefix(0, 1);
    EXPECT_TRUE(SeriesKey::isPrefix(query));
    EXPECT_TRUE(SeriesKey::matches(query, QStringLiteral("p0/q1/{s=\"z\"}")));
    EXPECT_FALSE(SeriesKey::matches(query, QStringLiteral("p0/q10/{}")));
    EXPECT_TRUE(SeriesKey::matches(QStringLiteral("loadtester/rate"), QStringLiteral("loadtester/rate")));
    EXPECT_FALSE(SeriesKey::matches(QStringLiteral("loadtester/rate"), QStringLiteral("loadtester/rate2")));
    EXPECT_FALSE(SeriesKey::matches(QString(), QString()));

    // Every series, in key order; the first of them where one value is read.
    EXPECT_EQ(SeriesKey::resolveAll(store, query), (QStringList{"p0/q1/{s=\"a\"}", "p0/q1/{s=\"b\"}"}));
    EXPECT_EQ(SeriesKey::resolveFirst(store, query), QStringLiteral("p0/q1/{s=\"a\"}"));
    EXPECT_EQ(SeriesKey::resolveAll(store, QStringLiteral("loadtester/rate")), QStringList{"loadtester/rate"});
    // A key that is not in the store names nothing, for formulas and detectors alike.
    EXPECT_TRUE(SeriesKey::resolveAll(store, QStringLiteral("loadtester/paused")).isEmpty());
    EXPECT_EQ(SeriesKey::resolveFirst(store, QStringLiteral("loadtester/paused")), QString());
    EXPECT_EQ(SeriesKey::resolveFirst(store, SeriesKey::queryPrefix(1, 0)), QString());
}
