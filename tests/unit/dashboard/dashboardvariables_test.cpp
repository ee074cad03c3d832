// SPDX-License-Identifier: GPL-3.0-or-later
// Dashboard variables: how a file declares them (both syntaxes), what is wrong with a
// declaration or a query that uses an undeclared one, and what a query becomes.
#include "dashboard/dashboardvariables.h"
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "fetching/variablevaluesloader.h"

#include <gtest/gtest.h>

namespace {

QStringList messages(const DashboardLoader::LoadResult &result)
{
    QStringList out;
    for (const DashboardIssue &issue : result.issues)
        out.append(issue.toString());
    return out;
}

std::string describe(const DashboardLoader::LoadResult &result)
{
    return messages(result).join(QLatin1Char('\n')).toStdString();
}

bool hasIssueStartingWith(const DashboardLoader::LoadResult &result, const QString &prefix)
{
    const QStringList all = messages(result);
    return std::any_of(all.begin(), all.end(), [&](const QString &m) { return m.startsWith(prefix); });
}

VariableDefinition fixed(const QString &name, const QString &value)
{
    VariableDefinition variable;
    variable.name = name;
    variable.value = value;
    return variable;
}

} // namespace

TEST(DashboardVariables, ReadsTheOldAndTheNewSyntax)
{
    const auto result = DashboardLoader::fromJson(R"json({
        "variables": {
          "job": "starter",
          "namespace": { "title": "Namespace", "labelValues": { "label": "namespace", "match": "zeebe_broker_info" },
                         "default": "camunda" },
          "partition": { "values": ["1", "2", "3"], "default": "1", "includeAll": true }
        },
        "panels": [{"series": [{"query": "up{job=\"$job\", namespace=\"${namespace}\", partition=~\"[[partition]]\"}"}]}]
    })json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const auto &variables = result.dashboard.variableDefinitions;
    ASSERT_EQ(variables.size(), 3u);
    // An object's keys come back sorted by name.
    EXPECT_EQ(variables[0].name, QStringLiteral("job"));
    EXPECT_EQ(variables[0].value, QStringLiteral("starter"));
    EXPECT_FALSE(variables[0].isChoosable());
    EXPECT_EQ(variables[1].name, QStringLiteral("namespace"));
    EXPECT_EQ(variables[1].title, QStringLiteral("Namespace"));
    EXPECT_EQ(variables[1].labelName, QStringLiteral("namespace"));
    EXPECT_EQ(variables[1].labelMatch, QStringLiteral("zeebe_broker_info"));
    EXPECT_EQ(variables[1].value, QStringLiteral("camunda"));
    EXPECT_TRUE(variables[1].isChoosable());
    EXPECT_EQ(variables[2].choices, (QStringList{"1", "2", "3"}));
    EXPECT_EQ(variables[2].value, QStringLiteral("1"));
    EXPECT_TRUE(variables[2].includeAll);
}

TEST(DashboardVariables, TheArrayFormKeepsTheFileOrder)
{
    const auto result = DashboardLoader::fromJson(R"json({
        "variables": [
          { "name": "zone", "values": ["a", "b"] },
          { "name": "app", "default": "web" }
        ],
        "panels": [{"series": [{"query": "up{zone=\"$zone\", app=\"$app\"}"}]}]
    })json");
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const auto &variables = result.dashboard.variableDefinitions;
    ASSERT_EQ(variables.size(), 2u);
    EXPECT_EQ(variables[0].name, QStringLiteral("zone"));
    EXPECT_EQ(variables[0].value, QStringLiteral("a")) << "no default: the first value";
    EXPECT_EQ(variables[1].name, QStringLiteral("app"));
    EXPECT_EQ(variables[1].value, QStringLiteral("web"));
}

TEST(DashboardVariables, MistakesNameTheirPath)
{
    const auto result = DashboardLoader::fromJson(R"json({
        "variables": {
          "namespace": { "labelValues": { "match": "up" }, "default": "x" },
          "pod": { "labelValues": { "label": "pod-name" } },
          "zone": { "values": "a", "default": "a", "colour": 1 },
          "empty": { "title": "nothing to choose" },
          "all": { "values": ["a"], "includeAll": "yes" },
          "__interval": "1m"
        },
        "panels": [{"series": [{"query": "up"}]}]
    })json");
    ASSERT_TRUE(result.usable);
    for (const char *expected :
         {"variables.namespace.labelValues.label: missing",
          "variables.pod.labelValues.label: \"pod-name\" is not a label name",
          "variables.zone.values: must be an array of strings", "variables.zone.colour: unknown key",
          "variables.empty: needs \"default\", \"values\" or \"labelValues\"",
          "variables.all.includeAll: must be true or false", "variables.__interval: is not a variable name"}) {
        EXPECT_TRUE(hasIssueStartingWith(result, QString::fromUtf8(expected))) << expected << "\nin:\n"
                                                                               << describe(result);
    }
    const auto arrayWithoutName =
        DashboardLoader::fromJson(R"json({"variables": [{"default": "x"}], "panels": []})json");
    EXPECT_TRUE(hasIssueStartingWith(arrayWithoutName, QStringLiteral("variables[0].name: missing")))
        << describe(arrayWithoutName);
}

TEST(DashboardVariables, AnUndeclaredVariableIsReportedWhereItIsUsed)
{
    const auto result = DashboardLoader::fromJson(R"json({
        "variables": { "job": "starter" },
        "panels": [
          {"series": [{"query": "up{job=\"$job\"}"}]},
          {"series": [{"query": "up"}, {"query": "rate(x{ns=\"${nmespace}\"}[$__rate_interval]) * [[zone]]"}]}
        ]
    })json");
    EXPECT_EQ(messages(result), QStringList{QStringLiteral(
                                    "panels[1].series[1].query: uses $nmespace, $zone, not declared in \"variables\" "
                                    "(declared: job)")})
        << describe(result);
}

TEST(DashboardVariables, BuiltinsAndCaptureGroupsNeedNoDeclaration)
{
    const auto result = DashboardLoader::fromJson(R"json({
        "panels": [{"series": [
          {"query": "sum(rate(x[$__rate_interval])) + sum(rate(y[${__interval}]))"},
          {"query": "label_replace(up, \"host\", \"$1\", \"instance\", \"(.*):.*\")"},
          {"query": "up{price=\"$ 5\"}"}
        ]}]
    })json");
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
}

TEST(DashboardVariables, SubstitutesEveryForm)
{
    std::vector<VariableDefinition> variables{fixed(QStringLiteral("namespace"), QStringLiteral("prod")),
                                              fixed(QStringLiteral("namespace_prefix"), QStringLiteral("pre"))};
    EXPECT_EQ(DashboardVariables::substitute(
                  QStringLiteral(R"(a{ns="$namespace", x="${namespace}", y="[[namespace]]", z="$namespace_prefix"})"),
                  variables),
              QStringLiteral(R"(a{ns="prod", x="prod", y="prod", z="pre"})"));
    // Not variables: a capture group, an undeclared name, a lone $.
    EXPECT_EQ(DashboardVariables::substitute(QStringLiteral(R"q(label_replace(up, "h", "$1", "i", "(.*)") $other $)q"),
                                             variables),
              QStringLiteral(R"q(label_replace(up, "h", "$1", "i", "(.*)") $other $)q"));
}

TEST(DashboardVariables, AllStandsForEveryValue)
{
    VariableDefinition partition;
    partition.name = QStringLiteral("partition");
    partition.choices = {QStringLiteral("1"), QStringLiteral("2")};
    partition.includeAll = true;
    partition.value = DashboardVariables::kAllValue;
    EXPECT_EQ(DashboardVariables::substitute(QStringLiteral(R"(up{partition=~"$partition"})"), {partition}),
              QStringLiteral(R"(up{partition=~".*"})"));
    // "$__all" (Grafana's spelling) in a file means the same.
    const auto result = DashboardLoader::fromJson(R"json({
        "variables": {"partition": {"values": ["1"], "includeAll": true, "default": "$__all"},
                      "zone": {"values": ["a"], "includeAll": true}},
        "panels": []})json");
    ASSERT_EQ(result.dashboard.variableDefinitions.size(), 2u);
    EXPECT_EQ(result.dashboard.variableDefinitions[0].value, QStringLiteral(".*"));
    EXPECT_EQ(result.dashboard.variableDefinitions[1].value, QStringLiteral(".*"))
        << "All is the default of includeAll";
}

TEST(DashboardVariables, BuiltinsFollowTheStepOfTheRequest)
{
    const QString query = QStringLiteral("rate(x[$__rate_interval]) / rate(y[${__interval}]) + z[[__interval]]");
    // Step 15 s, scrape 1 s: step + scrape = 16 s beats 4 × scrape = 4 s.
    EXPECT_EQ(DashboardVariables::substituteBuiltins(query, {15'000, 1000}),
              QStringLiteral("rate(x[16s]) / rate(y[15s]) + z15s"));
    // Step 1 s, scrape 15 s: 4 × 15 s = 1 min.
    EXPECT_EQ(DashboardVariables::substituteBuiltins(QStringLiteral("rate(x[$__rate_interval])"), {1000, 15'000}),
              QStringLiteral("rate(x[1m])"));
    EXPECT_EQ(DashboardVariables::substituteBuiltins(QStringLiteral("x[$__interval]"), {90'000, 1000}),
              QStringLiteral("x[1m30s]"));
}

TEST(DashboardVariables, KeySegmentNamesTheChoosableValuesAQueryUses)
{
    VariableDefinition ns = fixed(QStringLiteral("namespace"), QStringLiteral("prod"));
    ns.labelName = QStringLiteral("namespace");
    const std::vector<VariableDefinition> variables{ns, fixed(QStringLiteral("job"), QStringLiteral("starter"))};
    EXPECT_EQ(DashboardVariables::keySegment(QStringLiteral("up{ns=\"$namespace\",job=\"$job\"}"), variables),
              QStringLiteral("$namespace=prod/"));
    EXPECT_EQ(DashboardVariables::keySegment(QStringLiteral("up{job=\"$job\"}"), variables), QString())
        << "a fixed value never changes: keys stay as they were";
}

TEST(DashboardVariables, TheCurrentValueIsKeptFirstWhenPrometheusDoesNotList)
{
    EXPECT_EQ(DashboardVariables::choicesWithCurrent({"a", "b"}, QStringLiteral("b")), (QStringList{"a", "b"}));
    EXPECT_EQ(DashboardVariables::choicesWithCurrent({"a", "b"}, QStringLiteral("gone")),
              (QStringList{"gone", "a", "b"}));
    EXPECT_EQ(DashboardVariables::choicesWithCurrent({"a"}, QStringLiteral(".*")), (QStringList{"a"}))
        << "All is its own item";
}

TEST(DashboardVariables, WriterWritesTheNewFormAndReadsBack)
{
    const auto loaded = DashboardLoader::fromJson(R"json({
        "variables": {
          "job": "starter",
          "namespace": { "title": "Namespace", "labelValues": { "label": "namespace", "match": "zeebe_broker_info" },
                         "default": "camunda" },
          "partition": { "values": ["1", "2"], "default": "2", "includeAll": true }
        },
        "panels": []})json");
    DashboardDefinition chosen = loaded.dashboard;
    chosen.variableDefinitions[1].value = QStringLiteral("other"); // chosen in the toolbar
    const QJsonObject written = DashboardWriter::toJsonObject(chosen).value(QStringLiteral("variables")).toObject();
    EXPECT_EQ(written.value(QStringLiteral("job")).toString(), QStringLiteral("starter"))
        << "a fixed value stays a string";
    const QJsonObject ns = written.value(QStringLiteral("namespace")).toObject();
    EXPECT_EQ(ns.value(QStringLiteral("default")).toString(), QStringLiteral("other"))
        << "the value chosen is the new default";
    EXPECT_EQ(ns.value(QStringLiteral("labelValues")).toObject().value(QStringLiteral("match")).toString(),
              QStringLiteral("zeebe_broker_info"));
    const auto back = DashboardLoader::fromJson(DashboardWriter::toJson(chosen));
    EXPECT_TRUE(back.issues.isEmpty()) << describe(back);
    ASSERT_EQ(back.dashboard.variableDefinitions.size(), 3u);
    EXPECT_EQ(back.dashboard.variableDefinitions[1].value, QStringLiteral("other"));
    EXPECT_EQ(back.dashboard.variableDefinitions[2].choices, (QStringList{"1", "2"}));
    EXPECT_TRUE(back.dashboard.variableDefinitions[2].includeAll);
}

TEST(VariableValuesLoader, ParsesPrometheusLabelValues)
{
    const auto values =
        VariableValuesLoader::parseLabelValues(R"({"status":"success","data":["a","b"]})", QStringLiteral("ns"));
    ASSERT_TRUE(values);
    EXPECT_EQ(values.value(), (QStringList{"a", "b"}));
    const auto refused = VariableValuesLoader::parseLabelValues(
        R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"match[]\""})", QStringLiteral("ns"));
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("invalid parameter")))
        << refused.error().message.toStdString();
    const auto notJson = VariableValuesLoader::parseLabelValues("<html>", QStringLiteral("ns"));
    ASSERT_FALSE(notJson);
    EXPECT_TRUE(notJson.error().message.contains(QStringLiteral("not JSON")));
    EXPECT_FALSE(VariableValuesLoader::parseLabelValues(R"({"status":"success","data":{}})", QStringLiteral("ns")));
}
