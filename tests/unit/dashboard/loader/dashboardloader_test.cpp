// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/dashboardvariables.h"
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"

#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <gtest/gtest.h>

using namespace DashboardLoader;

namespace {

QStringList messages(const LoadResult &result)
{
    QStringList out;
    for (const DashboardIssue &issue : result.issues)
        out.append(issue.toString());
    return out;
}

// Prints the issues when an expectation fails.
std::string describe(const LoadResult &result)
{
    return messages(result).join(QLatin1Char('\n')).toStdString();
}

bool hasIssue(const LoadResult &result, const QString &text)
{
    return messages(result).contains(text);
}

bool hasIssueStartingWith(const LoadResult &result, const QString &prefix)
{
    const QStringList all = messages(result);
    return std::any_of(all.begin(), all.end(), [&](const QString &m) { return m.startsWith(prefix); });
}

QString variableValue(const DashboardDefinition &dashboard, const QString &name)
{
    const VariableDefinition *variable = DashboardVariables::find(dashboard.variableDefinitions, name);
    return variable ? variable->value : QStringLiteral("<not declared>");
}

} // namespace

TEST(DashboardLoader, ReadsEveryField)
{
    const auto result = fromJson(R"json({
        "title": "Testbed", "refresh": "10s", "window": "1h30m", "columns": 3,
        "variables": {"namespace": "chaos", "pod_regex": "starter-.*"},
        "panels": [
          {"title": "Throughput", "unit": "ops/s", "rightUnit": "%",
           "series": [
             {"query": "sum(rate(sent_total[1m]))", "legend": "{{pod}} sent/s",
              "axis": "right", "style": "step", "color": "#0072b2"},
             {"query": "  up  "}
           ]}
        ]})json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const DashboardDefinition &d = result.dashboard;
    EXPECT_EQ(d.title, QStringLiteral("Testbed"));
    EXPECT_EQ(d.refreshSeconds, 10);
    EXPECT_EQ(d.windowMs, 90 * 60 * 1000);
    EXPECT_EQ(d.columns, 3);
    EXPECT_EQ(variableValue(d, QStringLiteral("namespace")), QStringLiteral("chaos"));
    EXPECT_EQ(variableValue(d, QStringLiteral("pod_regex")), QStringLiteral("starter-.*"));
    ASSERT_EQ(d.panels.size(), 1u);
    const PanelDefinition &panel = d.panels[0];
    EXPECT_EQ(panel.title, QStringLiteral("Throughput"));
    EXPECT_EQ(panel.unit, QStringLiteral("ops/s"));
    EXPECT_EQ(panel.rightUnit, QStringLiteral("%"));
    ASSERT_EQ(panel.series.size(), 2u);
    EXPECT_EQ(panel.series[0].query, QStringLiteral("sum(rate(sent_total[1m]))"));
    EXPECT_EQ(panel.series[0].legend, QStringLiteral("{{pod}} sent/s"));
    EXPECT_EQ(panel.series[0].axis, AxisSide::Right);
    EXPECT_EQ(panel.series[0].style, SeriesStyle::Step);
    EXPECT_EQ(panel.series[0].color, QStringLiteral("#0072B2"));
    // Defaults.
    EXPECT_EQ(panel.series[1].query, QStringLiteral("up"));
    EXPECT_TRUE(panel.series[1].legend.isEmpty());
    EXPECT_EQ(panel.series[1].axis, AxisSide::Left);
    EXPECT_EQ(panel.series[1].style, SeriesStyle::Line);
    EXPECT_TRUE(panel.series[1].color.isEmpty());
}

TEST(DashboardLoader, DefaultsWhenOptionalKeysAreAbsent)
{
    const auto result = fromJson(R"json({"panels": []})json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const DashboardDefinition defaults;
    EXPECT_EQ(result.dashboard.refreshSeconds, defaults.refreshSeconds);
    EXPECT_EQ(result.dashboard.windowMs, defaults.windowMs);
    EXPECT_EQ(result.dashboard.columns, defaults.columns);
    EXPECT_TRUE(result.dashboard.panels.empty());
}

TEST(DashboardLoader, MissingQueryDropsTheSeriesAndNamesIt)
{
    const auto result = fromJson(R"json({"panels": [
        {"series": [{"query": "a"}]},
        {"series": [{"query": "b"}]},
        {"title": "Third", "series": [{"legend": "x"}, {"query": "c"}]}
    ]})json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[2].series[0].query: missing"))) << describe(result);
    ASSERT_EQ(result.dashboard.panels.size(), 3u);
    ASSERT_EQ(result.dashboard.panels[2].series.size(), 1u);
    EXPECT_EQ(result.dashboard.panels[2].series[0].query, QStringLiteral("c"));
    EXPECT_EQ(result.issues.size(), 1) << describe(result);
}

TEST(DashboardLoader, BadQueryValues)
{
    const auto result = fromJson(R"json({"panels": [{"series": [{"query": 5}, {"query": "   "}]}]})json");
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[0].query: must be a string"))) << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[1].query: is empty"))) << describe(result);
}

TEST(DashboardLoader, PanelWithoutUsableSeriesIsKeptEmpty)
{
    const auto result = fromJson(R"json({"panels": [
        {"title": "Broken", "series": [{"legend": "no query"}]},
        {"title": "No series key"},
        {"title": "Empty list", "series": []},
        {"title": "Not a list", "series": {"query": "up"}}
    ]})json");
    ASSERT_TRUE(result.usable);
    ASSERT_EQ(result.dashboard.panels.size(), 4u);
    for (const PanelDefinition &panel : result.dashboard.panels)
        EXPECT_TRUE(panel.series.empty());
    EXPECT_EQ(result.dashboard.panels[0].title, QStringLiteral("Broken"));
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[0].query: missing")));
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series: no usable series; the panel stays empty")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[1].series: missing; the panel stays empty")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[2].series: is empty; the panel stays empty")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[3].series: must be an array; the panel stays empty")))
        << describe(result);
}

TEST(DashboardLoader, ElementsOfTheWrongKindAreDropped)
{
    const auto result = fromJson(R"json({"panels": [
        "not a panel",
        {"series": [42, {"query": "up"}]}
    ]})json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0]: must be an object; panel dropped"))) << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[1].series[0]: must be an object; series dropped")))
        << describe(result);
    ASSERT_EQ(result.dashboard.panels.size(), 1u);
    ASSERT_EQ(result.dashboard.panels[0].series.size(), 1u);
}

TEST(DashboardLoader, DurationErrorsNameTheValue)
{
    auto result = fromJson(R"json({"refresh": "5x", "window": "soon", "panels": []})json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("refresh: \"5x\" is not a duration"))) << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("window: \"soon\" is not a duration"))) << describe(result);
    EXPECT_EQ(result.dashboard.refreshSeconds, DashboardDefinition{}.refreshSeconds);
    EXPECT_EQ(result.dashboard.windowMs, DashboardDefinition{}.windowMs);

    result = fromJson(R"json({"refresh": -3, "window": true, "panels": []})json");
    EXPECT_TRUE(hasIssue(result, QStringLiteral("refresh: -3 is not a duration"))) << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("window: must be a duration such as \"30s\" or \"5m\"")))
        << describe(result);

    // Numbers are seconds.
    result = fromJson(R"json({"refresh": 3, "window": 600, "panels": []})json");
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    EXPECT_EQ(result.dashboard.refreshSeconds, 3);
    EXPECT_EQ(result.dashboard.windowMs, 600'000);

    // Below the minimum refresh: raised, and said so. Zero window: refused.
    result = fromJson(R"json({"refresh": "500ms", "window": "0s", "panels": []})json");
    EXPECT_EQ(result.dashboard.refreshSeconds, 1);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("refresh: \"500ms\" is shorter than the minimum of 1s; using 1s")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("window: must be longer than zero"))) << describe(result);
    EXPECT_EQ(result.dashboard.windowMs, DashboardDefinition{}.windowMs);

    // Fractions of a second round up.
    result = fromJson(R"json({"refresh": "1500ms", "panels": []})json");
    EXPECT_EQ(result.dashboard.refreshSeconds, 2);
}

TEST(DashboardLoader, EnumErrorsSayWhatIsAllowed)
{
    const auto result = fromJson(R"json({"panels": [{"series": [
        {"query": "a", "axis": "LEFT", "style": "Area"},
        {"query": "b", "axis": "middle", "style": "dots", "color": "red"}
    ]}]})json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[1].axis: must be \"left\" or \"right\"")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[1].style: must be \"line\", "
                                                "\"step\" or \"area\"")))
        << describe(result);
    EXPECT_TRUE(hasIssueStartingWith(result, QStringLiteral("panels[0].series[1].color: \"red\" must be \"#RRGGBB\"")))
        << describe(result);
    // Kept with defaults; case-insensitive values accepted.
    const auto &series = result.dashboard.panels.at(0).series;
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].axis, AxisSide::Left);
    EXPECT_EQ(series[0].style, SeriesStyle::Area);
    EXPECT_EQ(series[1].axis, AxisSide::Left);
    EXPECT_EQ(series[1].style, SeriesStyle::Line);
    EXPECT_TRUE(series[1].color.isEmpty());
    EXPECT_EQ(result.issues.size(), 3) << describe(result);
}

TEST(DashboardLoader, UnknownKeysAreReportedButKept)
{
    const auto result = fromJson(R"json({
        "title": "T", "refersh": "5s", "colour": 1,
        "panels": [{"titel": "P", "series": [{"query": "up", "lgend": "{{pod}}"}]}]
    })json");
    ASSERT_TRUE(result.usable);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("refersh: unknown key, ignored (did you mean "
                                                "\"refresh\"?)")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].titel: unknown key, ignored (did you "
                                                "mean \"title\"?)")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[0].lgend: unknown key, ignored "
                                                "(did you mean \"legend\"?)")))
        << describe(result);
    // Far from every known key: the known keys are listed instead.
    EXPECT_TRUE(hasIssue(
        result,
        QStringLiteral(
            "colour: unknown key, ignored (known keys: title, "
            "refresh, window, columns, variables, panels, loadTester, kubernetes, annotations, detectors, checks)")))
        << describe(result);
    // The elements holding the typos are kept.
    ASSERT_EQ(result.dashboard.panels.size(), 1u);
    ASSERT_EQ(result.dashboard.panels[0].series.size(), 1u);
    EXPECT_EQ(result.dashboard.panels[0].series[0].query, QStringLiteral("up"));
    EXPECT_EQ(result.issues.size(), 4) << describe(result);
}

TEST(DashboardLoader, TypoedQueryKeyExplainsTheMissingQuery)
{
    const auto result = fromJson(R"json({"panels": [{"series": [{"qeury": "up"}]}]})json");
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[0].qeury: unknown key, ignored "
                                                "(did you mean \"query\"?)")))
        << describe(result);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels[0].series[0].query: missing")));
}

TEST(DashboardLoader, TypeErrorsOnOtherFields)
{
    const auto result = fromJson(R"json({
        "title": 7, "columns": 2.5,
        "variables": {"ok": "v", "1bad": "x", "num": 3},
        "panels": [{"title": ["x"], "unit": 1, "rightUnit": null,
                    "series": [{"query": "up", "legend": false}]}]
    })json");
    ASSERT_TRUE(result.usable);
    for (const char *expected :
         {"title: must be a string", "columns: must be a whole number from 1 to 12",
          "panels[0].title: must be a string", "panels[0].unit: must be a string",
          "panels[0].rightUnit: must be a string", "panels[0].series[0].legend: must be a string"}) {
        EXPECT_TRUE(hasIssue(result, QString::fromUtf8(expected))) << expected << "\nin:\n" << describe(result);
    }
    EXPECT_TRUE(hasIssueStartingWith(result, QStringLiteral("variables.1bad: is not a variable name")))
        << describe(result);
    EXPECT_TRUE(hasIssueStartingWith(result, QStringLiteral("variables.num: must be a string"))) << describe(result);
    EXPECT_EQ(result.dashboard.variableDefinitions.size(), 1u);
    EXPECT_EQ(result.dashboard.columns, 2);

    const auto notObject = fromJson(R"json({"variables": 3, "panels": {}})json");
    EXPECT_TRUE(hasIssueStartingWith(notObject, QStringLiteral("variables: must be an object"))) << describe(notObject);
    EXPECT_TRUE(hasIssue(notObject, QStringLiteral("panels: must be an array"))) << describe(notObject);
    EXPECT_TRUE(fromJson(R"json({"columns": 0, "panels": []})json").issues.size() == 1);
    EXPECT_TRUE(fromJson(R"json({"columns": 13, "panels": []})json").issues.size() == 1);
}

TEST(DashboardLoader, MissingPanelsIsAnIssue)
{
    const auto result = fromJson(R"json({"title": "nothing"})json");
    EXPECT_TRUE(result.usable);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("panels: missing; the dashboard has no panels"))) << describe(result);
}

TEST(DashboardLoader, NotJsonGivesLineAndColumn)
{
    // The error is on line 3: a missing comma between two members.
    const QByteArray json = "{\n  \"title\": \"x\",\n  \"a\": 1 \"b\": 2\n}\n";
    const auto result = fromJson(json);
    EXPECT_FALSE(result.usable);
    ASSERT_EQ(result.issues.size(), 1);
    const QString message = result.issues[0].toString();
    EXPECT_TRUE(message.startsWith(QStringLiteral("not valid JSON: "))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("line 3, column "))) << message.toStdString();

    // Columns count characters, not UTF-8 bytes.
    const auto utf8 = fromJson(QByteArray("{\"t\": \"\xc3\xa4\xc3\xa4\" x}"));
    const auto ascii = fromJson(QByteArray("{\"t\": \"aa\" x}"));
    ASSERT_EQ(utf8.issues.size(), 1);
    ASSERT_EQ(ascii.issues.size(), 1);
    EXPECT_EQ(utf8.issues[0].message, ascii.issues[0].message);

    EXPECT_FALSE(fromJson("").usable);
    EXPECT_FALSE(fromJson("{\"panels\": [").usable);
}

TEST(DashboardLoader, NotAnObjectIsUnusable)
{
    const auto result = fromJson("[1, 2]");
    EXPECT_FALSE(result.usable);
    ASSERT_EQ(result.issues.size(), 1);
    EXPECT_TRUE(result.issues[0].message.contains(QStringLiteral("must be a JSON object")));
}

TEST(DashboardLoader, EveryBuiltinParsesWithoutIssues)
{
    const QStringList names = builtinNames();
    ASSERT_TRUE(names.contains(QStringLiteral("prometheus-self"))) << names.join(", ").toStdString();
    for (const QString &name : names) {
        const auto result = fromBuiltin(name);
        EXPECT_TRUE(result.usable) << name.toStdString();
        EXPECT_TRUE(result.issues.isEmpty()) << name.toStdString() << ":\n" << describe(result);
        EXPECT_FALSE(result.dashboard.title.isEmpty()) << name.toStdString();
        EXPECT_FALSE(result.dashboard.panels.empty()) << name.toStdString();
        for (const PanelDefinition &panel : result.dashboard.panels)
            EXPECT_FALSE(panel.series.empty()) << name.toStdString() << ": " << panel.title.toStdString();
    }
}

TEST(DashboardLoader, CamundaPresetHasTheMetricsMdQueriesAndDerivedSeries)
{
    const auto result = fromBuiltin(QStringLiteral("camunda"));
    ASSERT_TRUE(result.usable);
    ASSERT_TRUE(result.issues.isEmpty()) << describe(result);
    QStringList queries;
    QStringList derived;
    for (const PanelDefinition &panel : result.dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            queries.append(series.query);
            if (!series.derive.isEmpty())
                derived.append(series.derive);
        }
    }
    const QString all = queries.join(QLatin1Char('\n'));
    for (const char *metric :
         {"zeebe_element_instance_events_total", "zeebe_exporter_events_total",
          "zeebe_log_appender_last_committed_position", "COMMAND_REJECTION", "zeebe_job_events_total",
          "camunda_client_worker_job_activated_total", "httpcomponents_httpclient_pool_total_pending",
          "starter_data_availability_latency_seconds_bucket", "container_cpu_cfs_throttled_periods_total",
          "kubelet_volume_stats_used_bytes"}) // seed 003: the disk the backlog fills
        EXPECT_TRUE(all.contains(QLatin1String(metric))) << metric;
    // Seed 003 reasons per partition ("only partition one made progress"): the backlog of each.
    EXPECT_TRUE(std::any_of(queries.begin(), queries.end(), [](const QString &query) {
        return query.startsWith(QLatin1String("max by(partition)(zeebe_log_appender_last_committed_position"));
    })) << "the backlog per partition";
    EXPECT_TRUE(derived.contains(QStringLiteral("backlog / rate"))) << "export delay";
    EXPECT_TRUE(derived.contains(QStringLiteral("sent - accepted"))) << "sent − created gap";
    EXPECT_EQ(variableValue(result.dashboard, QStringLiteral("namespace")), QStringLiteral("default"));
}

TEST(DashboardLoader, PrometheusSelfDashboard)
{
    const auto result = fromBuiltin(QStringLiteral("Prometheus-Self")); // case-insensitive
    ASSERT_TRUE(result.usable) << describe(result);
    const DashboardDefinition &d = result.dashboard;
    EXPECT_EQ(d.title, QStringLiteral("Prometheus self"));
    EXPECT_EQ(d.refreshSeconds, 2);
    EXPECT_EQ(d.windowMs, 15 * 60 * 1000);
    QStringList queries;
    bool rightAxis = false;
    for (const PanelDefinition &panel : d.panels) {
        for (const SeriesDefinition &series : panel.series) {
            queries.append(series.query);
            rightAxis = rightAxis || series.axis == AxisSide::Right;
            EXPECT_TRUE(series.query.contains(QStringLiteral("job=\"prometheus\""))) << series.query.toStdString();
        }
    }
    const QString all = queries.join(QLatin1Char('\n'));
    EXPECT_TRUE(all.contains(QStringLiteral("rate(prometheus_tsdb_head_samples_appended_total")));
    EXPECT_TRUE(all.contains(QStringLiteral("prometheus_tsdb_head_series")));
    EXPECT_TRUE(all.contains(QStringLiteral("scrape_duration_seconds")));
    EXPECT_TRUE(all.contains(QStringLiteral("prometheus_http_requests_total")));
    EXPECT_TRUE(rightAxis);
}

TEST(DashboardLoader, UnknownBuiltinListsTheAvailableOnes)
{
    const auto result = fromBuiltin(QStringLiteral("nope"));
    EXPECT_FALSE(result.usable);
    ASSERT_EQ(result.issues.size(), 1);
    const QString message = result.issues[0].toString();
    EXPECT_TRUE(message.startsWith(QStringLiteral("unknown built-in dashboard \"nope\"; available: ")))
        << message.toStdString();
    for (const QString &name : builtinNames())
        EXPECT_TRUE(message.contains(name)) << message.toStdString();
}

TEST(DashboardLoader, FilesAndLoad)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(R"json({"title": "Mine", "panels": [{"series": [{"query": "up"}]}]})json");
    }
    auto result = fromFile(path);
    ASSERT_TRUE(result.usable) << describe(result);
    EXPECT_EQ(result.dashboard.title, QStringLiteral("Mine"));

    result = load(path);
    EXPECT_EQ(result.dashboard.title, QStringLiteral("Mine"));
    result = load(QStringLiteral("PROMETHEUS-SELF"));
    EXPECT_EQ(result.dashboard.title, QStringLiteral("Prometheus self"));

    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    result = load(missing);
    EXPECT_FALSE(result.usable);
    ASSERT_EQ(result.issues.size(), 1);
    EXPECT_EQ(result.issues[0].path, missing);
    EXPECT_TRUE(result.issues[0].message.startsWith(QStringLiteral("cannot be read: "))) << describe(result);
}

TEST(DashboardLoader, AKubernetesSeriesIsAWorkloadsReplicasDrawnAsSteps)
{
    const auto result = fromJson(R"({"title": "t", "panels": [{"title": "replicas", "series": [
        {"kubernetes": "desired", "workload": "worker"},
        {"kubernetes": "ready", "workload": "worker", "style": "line", "legend": "ready"}]}]})");
    ASSERT_TRUE(result.usable) << describe(result);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const auto &series = result.dashboard.panels.at(0).series;
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].kubernetes, QStringLiteral("desired"));
    EXPECT_EQ(series[0].workload, QStringLiteral("worker"));
    EXPECT_EQ(series[0].style, SeriesStyle::Step);
    EXPECT_TRUE(series[0].query.isEmpty());
    EXPECT_EQ(series[1].style, SeriesStyle::Line);

    const auto wrong = fromJson(R"({"title": "t", "panels": [{"title": "replicas", "series": [
        {"kubernetes": "wanted", "workload": "worker"}, {"kubernetes": "ready"},
        {"query": "up", "workload": "worker"}]}]})");
    QStringList texts;
    for (const auto &issue : wrong.issues)
        texts << issue.toString();
    const QString all = texts.join(QLatin1Char('\n'));
    EXPECT_TRUE(
        all.contains(QStringLiteral("panels[0].series[0].kubernetes: \"wanted\" must be \"desired\" or \"ready\"")))
        << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("panels[0].series[1].workload: missing"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("panels[0].series[2].workload: ignored without"))) << all.toStdString();
}

TEST(DashboardLoader, AKubernetesEnvSeriesIsAKnobsValueWithItsOwnStoreField)
{
    const auto result = fromJson(R"({"title": "t", "panels": [{"title": "knobs", "series": [
        {"kubernetes": "env", "workload": "starter", "env": "RATE"}]}]})");
    ASSERT_TRUE(result.usable) << describe(result);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const SeriesDefinition &series = result.dashboard.panels.at(0).series.at(0);
    EXPECT_EQ(series.env, QStringLiteral("RATE"));
    EXPECT_EQ(series.style, SeriesStyle::Step);
    EXPECT_EQ(series.kubernetesField(), QStringLiteral("env/RATE"));

    const auto wrong = fromJson(R"({"title": "t", "panels": [{"title": "knobs", "series": [
        {"kubernetes": "env", "workload": "starter"},
        {"kubernetes": "ready", "workload": "starter", "env": "RATE"}]}]})");
    const QString all = QString::fromStdString(describe(wrong));
    EXPECT_TRUE(all.contains(QStringLiteral("panels[0].series[0].env: missing"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("panels[0].series[1].env: ignored without \"kubernetes\": \"env\"")))
        << all.toStdString();
}

TEST(DashboardLoader, TheKubernetesSectionNamesANamespaceByVariableTheWorkloadsThatMatterAndKnobs)
{
    const auto result = fromJson(R"({"title": "t",
        "variables": {"namespace": {"values": ["a", "b"], "default": "a"}},
        "kubernetes": {"context": "chaos-day", "namespace": "$namespace", "workloads": ["starter", "worker"],
                       "knobs": [{"workload": "starter", "env": "RATE", "title": "rate"},
                                 {"workload": "worker", "env": "CAPACITY"}]},
        "panels": []})");
    ASSERT_TRUE(result.usable) << describe(result);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const KubernetesDefinition &k = result.dashboard.kubernetes;
    EXPECT_EQ(k.context, QStringLiteral("chaos-day"));
    EXPECT_EQ(k.namespaceName, QStringLiteral("$namespace"));
    EXPECT_EQ(k.workloads, (QStringList{QStringLiteral("starter"), QStringLiteral("worker")}));
    ASSERT_EQ(k.knobs.size(), 2u);
    EXPECT_EQ(k.knobs[0].shownTitle(), QStringLiteral("rate"));
    EXPECT_EQ(k.knobs[1].shownTitle(), QStringLiteral("CAPACITY"));
    EXPECT_EQ(DashboardVariables::substitute(k.namespaceName, result.dashboard.variableDefinitions),
              QStringLiteral("a"));
}

TEST(DashboardLoader, AKubernetesSectionWithAMistakeSaysWhereAndRefusesACredential)
{
    const auto result = fromJson(R"({"title": "t",
        "kubernetes": {"namespace": "$ns", "token": "abc", "workloads": ["Worker"],
                       "knobs": [{"workload": "starter"}, {"env": "RATE", "workload": "starter"},
                                 {"env": "RATE", "workload": "starter"}, {"workload": "x", "env": "1RATE"}],
                       "contxt": "a"},
        "panels": []})");
    const QString all = QString::fromStdString(describe(result));
    for (const char *expected :
         {"kubernetes.namespace: uses $ns, not declared", "kubernetes.token: a credential never belongs",
          "kubernetes.workloads[0]: \"Worker\" is not a workload name", "kubernetes.knobs[0].env: missing",
          "kubernetes.knobs[2]: RATE of starter is a knob already",
          "kubernetes.knobs[3].env: \"1RATE\" is not an env var name", "contxt"}) {
        EXPECT_TRUE(all.contains(QLatin1String(expected))) << expected << "\n" << all.toStdString();
    }
    EXPECT_EQ(result.dashboard.kubernetes.knobs.size(), 1u) << all.toStdString();
    EXPECT_TRUE(result.dashboard.kubernetes.workloads.isEmpty());
}

TEST(DashboardLoader, AnnotationQueriesAreReadWithTheirModeTemplatesTagsAndStep)
{
    const auto result = fromJson(R"({"title": "t", "variables": {"namespace": "chaos"},
        "annotations": [
          {"name": "restarts", "query": "increase(kube_pod_container_status_restarts_total{namespace=\"$namespace\"}[2m]) > 0",
           "title": "{{pod}} restarted", "tags": ["pod"], "step": "15s"},
          {"name": "replicas", "query": "kube_deployment_spec_replicas", "mode": "changes", "title": "{{deployment}} replicas"},
          {"name": "unready", "query": "1 - kube_pod_container_status_ready", "mode": "regions", "text": "{{pod}}"}],
        "panels": []})");
    ASSERT_TRUE(result.usable) << describe(result);
    EXPECT_TRUE(result.issues.isEmpty()) << describe(result);
    const auto &queries = result.dashboard.annotationQueries;
    ASSERT_EQ(queries.size(), 3u);
    EXPECT_EQ(queries[0].mode, AnnotationQueryDefinition::Mode::Points);
    EXPECT_EQ(queries[0].stepMs, 15'000);
    EXPECT_EQ(queries[0].tagLabels, QStringList{QStringLiteral("pod")});
    EXPECT_EQ(queries[1].mode, AnnotationQueryDefinition::Mode::Changes);
    EXPECT_EQ(queries[2].mode, AnnotationQueryDefinition::Mode::Regions);
    EXPECT_EQ(queries[2].text, QStringLiteral("{{pod}}"));
}

TEST(DashboardLoader, AnAnnotationQueryWithAMistakeSaysWhere)
{
    const auto result = fromJson(R"({"title": "t",
        "annotations": [{"query": "up"}, {"name": "a", "query": "up{job=\"$job\"}", "mode": "bars", "step": "10ms"},
                        {"name": "a", "query": "up"}, {"name": "b"}, {"name": "c", "query": "up", "tags": [1]}],
        "panels": []})");
    const QString all = QString::fromStdString(describe(result));
    for (const char *expected :
         {"annotations[0].name: missing", "annotations[1].query: uses $job, not declared",
          "annotations[1].mode: \"bars\" must be \"points\", \"regions\" or \"changes\"",
          "annotations[1].step: must be 1s or longer", "annotations[2].name: \"a\" names another annotation query",
          "annotations[3].query: missing",
          "annotations[4].tags[0]: 1 is not one of the label names whose values become tags"}) {
        EXPECT_TRUE(all.contains(QLatin1String(expected))) << expected << "\n" << all.toStdString();
    }
}

TEST(DashboardLoader, AnnotationsAreScopedToPanelsByTitleOrByTheTagsAPanelDeclares)
{
    const auto result = fromJson(R"({"title": "t",
        "annotations": [{"name": "restarts", "query": "up", "panels": ["Pods"], "hidden": true},
                        {"name": "lag", "query": "up", "panels": ["Nope"], "hidden": "yes"}],
        "panels": [{"title": "Pods", "annotationTags": ["kafka", " db "], "series": [{"query": "up"}]},
                   {"title": "Bad", "annotationTags": "kafka", "series": [{"query": "up"}]}]})");
    ASSERT_TRUE(result.usable) << describe(result);
    const DashboardDefinition &dashboard = result.dashboard;
    ASSERT_EQ(dashboard.annotationQueries.size(), 2U);
    EXPECT_EQ(dashboard.annotationQueries[0].panels, QStringList{QStringLiteral("Pods")});
    EXPECT_TRUE(dashboard.annotationQueries[0].hidden);
    EXPECT_FALSE(dashboard.annotationQueries[1].hidden);
    EXPECT_EQ(dashboard.panels[0].annotationTags, (QStringList{QStringLiteral("kafka"), QStringLiteral("db")}));
    EXPECT_TRUE(dashboard.panels[1].annotationTags.isEmpty());
    const QString all = QString::fromStdString(describe(result));
    for (const char *expected :
         {"annotations[1].panels: no panel is titled \"Nope\"",
          "annotations[1].hidden: must be true (switched off at start) or false",
          "panels[1].annotationTags: must be an array of tags whose annotations are drawn on this panel"}) {
        EXPECT_TRUE(all.contains(QLatin1String(expected))) << expected << "\n" << all.toStdString();
    }
}

TEST(DashboardLoader, AStatPanelWithItsThresholdStepsAndEachMistakeInThem)
{
    const auto result = fromJson(R"({"title": "t", "panels": [
        {"title": "Drops", "type": "stat", "unit": "%", "series": [{"query": "drop_ratio * 100"}],
         "thresholds": [{"color": "#73bf69"}, {"value": 5, "color": "#FF9830"}, {"value": 20, "color": "#F2495C"},
                        {"value": 10, "color": "#000000"}, {"value": 30, "color": "red"}, {"color": "#FFFFFF"},
                        {"value": "high", "color": "#FFFFFF"}, 7]},
        {"title": "Lines", "type": "gauge", "series": [{"query": "up"}], "thresholds": {"value": 1}}]})");
    ASSERT_TRUE(result.usable) << describe(result);
    const PanelDefinition &drops = result.dashboard.panels.at(0);
    EXPECT_EQ(drops.kind, PanelKind::Stat);
    ASSERT_EQ(drops.thresholds.size(), 3U);
    EXPECT_EQ(drops.thresholds[0].color, QStringLiteral("#73BF69"));
    EXPECT_EQ(ThresholdSteps::colorFor(drops.thresholds, 4.9), QStringLiteral("#73BF69"));
    EXPECT_EQ(ThresholdSteps::colorFor(drops.thresholds, 5), QStringLiteral("#FF9830"));
    EXPECT_EQ(ThresholdSteps::colorFor(drops.thresholds, 1e9), QStringLiteral("#F2495C"));
    EXPECT_EQ(result.dashboard.panels.at(1).kind, PanelKind::Lines);
    const QString all = QString::fromStdString(describe(result));
    for (const char *expected :
         {"panels[0].thresholds[3].value: must be above the step before it; step dropped",
          "panels[0].thresholds[4].color: must be \"#RRGGBB\"; step dropped",
          "panels[0].thresholds[5].value: missing: only the first step is the base; step dropped",
          "panels[0].thresholds[6].value: must be a number; step dropped",
          "panels[0].thresholds[7]: must be an object; step dropped",
          "panels[1].type: must be \"lines\", \"stat\" or \"heatmap\"; drawn as lines",
          "panels[1].thresholds: must be an array of {\"value\", \"color\"}"}) {
        EXPECT_TRUE(all.contains(QLatin1String(expected))) << expected << "\n" << all.toStdString();
    }
}

TEST(DashboardLoader, AHeatmapPanelWithItsRowSpacingSurvivesTheWriter)
{
    const auto result = fromJson(R"json({"title": "t", "panels": [
        {"title": "Duration", "type": "heatmap", "unit": "s", "buckets": "linear",
         "series": [{"query": "sum by (le) (rate(x_bucket[1m]))"}]},
        {"title": "Default", "type": "heatmap", "series": [{"query": "sum by (le) (rate(x_bucket[1m]))"}]},
        {"title": "Odd", "type": "heatmap", "buckets": "squared", "series": [{"query": "up"}]}]})json");
    ASSERT_TRUE(result.usable) << describe(result);
    const auto &panels = result.dashboard.panels;
    ASSERT_EQ(panels.size(), 3U);
    EXPECT_EQ(panels[0].kind, PanelKind::Heatmap);
    EXPECT_EQ(panels[0].buckets, BucketScale::Linear);
    EXPECT_EQ(panels[1].buckets, BucketScale::Log) << "latency buckets grow by factors";
    EXPECT_EQ(panels[2].buckets, BucketScale::Log);
    EXPECT_TRUE(
        hasIssue(result, QStringLiteral("panels[2].buckets: must be \"log\" or \"linear\"; rows spaced by log")))
        << describe(result);

    const auto back = DashboardLoader::fromJson(DashboardWriter::toJson(result.dashboard));
    ASSERT_TRUE(back.usable);
    EXPECT_EQ(back.dashboard.panels[0].kind, PanelKind::Heatmap);
    EXPECT_EQ(back.dashboard.panels[0].buckets, BucketScale::Linear);
    EXPECT_EQ(back.dashboard.panels[1].buckets, BucketScale::Log);
}

TEST(DashboardLoader, ChecksOnASeriesOrAQueryAreReadAndWrittenBack)
{
    const auto result = DashboardLoader::fromJson(R"json({"panels": [
        {"title": "Pool", "series": [{"query": "sum(pending)", "id": "pending"},
                                     {"id": "ratio", "derive": "pending / 2"}]}],
      "checks": [{"name": "backlog", "series": "pending", "holds": "< 5000", "for": "10s", "during": ["overload"]},
                 {"query": "sum(rate(timeouts[1m]))", "holds": "<= 0", "severity": "warning", "after": "30s"},
                 {"series": "ratio", "holds": ">= 1.5", "unit": "%"},
                 {"series": "pendnig", "holds": "< 1"},
                 {"series": "pending", "query": "x", "holds": "< 1"},
                 {"series": "pending", "holds": "small"}]})json");
    ASSERT_TRUE(result.usable) << describe(result);
    const std::vector<Check> &checks = result.dashboard.checks;
    ASSERT_EQ(checks.size(), 3U) << "a check with a mistake is not judged";
    EXPECT_EQ(checks[0].series, QStringLiteral("pending"));
    EXPECT_EQ(checks[0].forMs, 10'000);
    EXPECT_EQ(checks[0].during, QStringList{QStringLiteral("overload")});
    EXPECT_EQ(checks[1].name, QStringLiteral("sum(rate(timeouts[1m]))")) << "the query names a check without a name";
    EXPECT_EQ(checks[1].severity, Check::Severity::Warning);
    EXPECT_EQ(checks[1].graceMs, 30'000);
    EXPECT_EQ(checks[2].condition.op, CheckCondition::Op::AtLeast);
    EXPECT_TRUE(hasIssue(result, QStringLiteral("checks[3].series: no series has the id \"pendnig\" (ids: pending, "
                                                "ratio); the check is not judged")))
        << describe(result);
    EXPECT_TRUE(hasIssueStartingWith(result, QStringLiteral("checks[4].series: a check judges either")));
    EXPECT_TRUE(hasIssueStartingWith(result, QStringLiteral("checks[5].holds: must be a comparison")));

    const auto back = DashboardLoader::fromJson(DashboardWriter::toJson(result.dashboard));
    ASSERT_TRUE(back.issues.isEmpty()) << describe(back);
    ASSERT_EQ(back.dashboard.checks.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(back.dashboard.checks[i].describe(), checks[i].describe());
    EXPECT_EQ(back.dashboard.checks[1].severity, Check::Severity::Warning);
    EXPECT_EQ(back.dashboard.checks[1].graceMs, 30'000);
    EXPECT_EQ(back.dashboard.checks[2].unit, QStringLiteral("%"));
}
