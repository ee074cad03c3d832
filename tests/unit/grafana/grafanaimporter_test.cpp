// SPDX-License-Identifier: GPL-3.0-or-later
// Importing a Grafana dashboard: every mapping a user relies on (queries, legends, units,
// right axis, variables, order, window) and every reason something is left out, named.
#include "base/format.h"
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "grafana/grafanaimporter.h"
#include "grafana/grafanaunit.h"
#include "grafana/grafanavariables.h"
#include "grafanaconversion.h"
#include "testpaths.h"

#include <QFile>
#include <cmath>
#include <gtest/gtest.h>

using GrafanaImporter::Conversion;

namespace {

// A dashboard of these panels (JSON text of each), with Prometheus as the default source.
QByteArray dashboardOf(const QStringList &panels, const QString &more = {})
{
    return QString::fromUtf8(R"j({"title": "T", "panels": [%1]%2})j").arg(panels.join(QLatin1Char(',')), more).toUtf8();
}

QString timeseries(const QString &title, const QString &targets, const QString &more = {})
{
    return QString::fromUtf8(R"j({"type": "timeseries", "title": "%1", "targets": [%2]%3})j").arg(title, targets, more);
}

bool listed(const Conversion &conversion, const QString &text)
{
    return conversion.notConverted.contains(text);
}

Conversion fixture()
{
    QFile file(sourcePath(QStringLiteral("tests/fixtures/grafana/camunda-grafana.json")));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    return convertGrafana(file.readAll());
}

} // namespace

TEST(GrafanaImporter, QueryLegendAndTitleOfATimeseriesPanel)
{
    const Conversion c = convertGrafana(dashboardOf({timeseries(
        QStringLiteral("Throughput"),
        QString::fromUtf8(
            R"j({"refId": "A", "expr": "sum(rate(x_total[$__rate_interval]))", "legendFormat": "{{ pod }} sent"},
                          {"refId": "B", "expr": "up", "legendFormat": "__auto"},
                          {"refId": "C", "expr": "down", "legendFormat": ""})j"))}));
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    const PanelDefinition &panel = c.dashboard.panels[0];
    EXPECT_EQ(panel.title, QStringLiteral("Throughput"));
    ASSERT_EQ(panel.series.size(), 3u);
    // $__rate_interval stays: Chaoscope's poller substitutes it with the step it asks for.
    EXPECT_EQ(panel.series[0].query, QStringLiteral("sum(rate(x_total[$__rate_interval]))"));
    EXPECT_EQ(panel.series[0].legend, QStringLiteral("{{ pod }} sent"));
    EXPECT_EQ(panel.series[1].legend, QString()) << "__auto is Grafana's 'the label set'";
    EXPECT_EQ(panel.series[2].legend, QString());
    EXPECT_TRUE(c.notConverted.isEmpty()) << linesOf(c.notConverted);
}

TEST(GrafanaImporter, HiddenQueriesAreSkippedLikeGrafanaSkipsThem)
{
    const Conversion c = convertGrafana(dashboardOf({timeseries(
        QStringLiteral("P"),
        QString::fromUtf8(R"j({"refId": "A", "expr": "a"}, {"refId": "B", "expr": "b", "hide": true})j"))}));
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    ASSERT_EQ(c.dashboard.panels[0].series.size(), 1u);
    EXPECT_EQ(c.dashboard.panels[0].series[0].query, QStringLiteral("a"));
    EXPECT_TRUE(c.notConverted.isEmpty()) << linesOf(c.notConverted);
}

TEST(GrafanaImporter, OtherPanelTypesAreListedByTitleAndType)
{
    const Conversion c = convertGrafana(dashboardOf({
        QString::fromUtf8(R"j({"type": "piechart", "title": "Disk usage", "targets": [{"expr": "x"}]})j"),
        QString::fromUtf8(R"j({"type": "stat", "title": "Now"})j"),
        QString::fromUtf8(R"j({"type": "gauge", "title": "Load"})j"),
        QString::fromUtf8(R"j({"type": "table", "title": "Rejections"})j"),
        QString::fromUtf8(R"j({"type": "text", "title": ""})j"),
        QString::fromUtf8(R"j({"title": "Shared", "libraryPanel": {"uid": "abc", "name": "Shared"}})j"),
    }));
    EXPECT_TRUE(c.dashboard.panels.empty());
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Disk usage' (piechart): panel type not supported")))
        << linesOf(c.notConverted);
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Now' (stat): no Prometheus query to convert; panel left out")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Load' (gauge): no Prometheus query to convert; panel left out")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Rejections' (table): panel type not supported")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel '#0' (text): panel type not supported")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Shared' (library panel): library panels are not part of the export "
                                         "(export with \"Export for sharing externally\")")));
}

TEST(GrafanaImporter, ReadingOrderFollowsTheGridAndCollapsedRows)
{
    // Listed out of order; a collapsed row holds its panels (with the y they have when the
    // row is open, which overlaps the panels after the row).
    const Conversion c = convertGrafana(dashboardOf({
        timeseries(QStringLiteral("after row"), QString::fromUtf8(R"j({"expr": "a"})j"),
                   QString::fromUtf8(R"j(, "gridPos": {"x": 0, "y": 11, "w": 12, "h": 8})j")),
        timeseries(QStringLiteral("top right"), QString::fromUtf8(R"j({"expr": "b"})j"),
                   QString::fromUtf8(R"j(, "gridPos": {"x": 12, "y": 0, "w": 12, "h": 8})j")),
        timeseries(QStringLiteral("top left"), QString::fromUtf8(R"j({"expr": "c"})j"),
                   QString::fromUtf8(R"j(, "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8})j")),
        QString::fromUtf8(
            R"j({"type": "row", "title": "Details", "collapsed": true, "gridPos": {"x": 0, "y": 10, "w": 24, "h": 1},
             "panels": [%1, %2]})j")
            .arg(timeseries(QStringLiteral("in row right"), QString::fromUtf8(R"j({"expr": "d"})j"),
                            QString::fromUtf8(R"j(, "gridPos": {"x": 12, "y": 11, "w": 12, "h": 8})j")),
                 timeseries(QStringLiteral("in row left"), QString::fromUtf8(R"j({"expr": "e"})j"),
                            QString::fromUtf8(R"j(, "gridPos": {"x": 0, "y": 11, "w": 12, "h": 8})j"))),
    }));
    QStringList titles;
    for (const PanelDefinition &panel : c.dashboard.panels)
        titles << panel.title;
    EXPECT_EQ(titles,
              (QStringList{QStringLiteral("top left"), QStringLiteral("top right"), QStringLiteral("in row left"),
                           QStringLiteral("in row right"), QStringLiteral("after row")}));
    EXPECT_EQ(c.dashboard.columns, 2) << "w = 12 of Grafana's 24 columns";
    EXPECT_TRUE(listed(c, QStringLiteral("row 'Details': rows not supported; its panels are placed in order")))
        << linesOf(c.notConverted);
}

TEST(GrafanaImporter, ColumnsAreTheMostCommonPanelWidth)
{
    const QString w8 = QString::fromUtf8(R"j(, "gridPos": {"x": 0, "y": 0, "w": 8, "h": 8})j");
    const QString w24 = QString::fromUtf8(R"j(, "gridPos": {"x": 0, "y": 9, "w": 24, "h": 8})j");
    const Conversion c =
        convertGrafana(dashboardOf({timeseries(QStringLiteral("a"), QString::fromUtf8(R"j({"expr": "a"})j"), w8),
                                    timeseries(QStringLiteral("b"), QString::fromUtf8(R"j({"expr": "b"})j"), w8),
                                    timeseries(QStringLiteral("c"), QString::fromUtf8(R"j({"expr": "c"})j"), w24)}));
    EXPECT_EQ(c.dashboard.columns, 3);
}

TEST(GrafanaImporter, TitleRefreshAndWindow)
{
    const Conversion c = convertGrafana(
        R"j({"title": "Camunda", "refresh": "10s", "time": {"from": "now-1h", "to": "now"}, "panels": []})j");
    EXPECT_EQ(c.dashboard.title, QStringLiteral("Camunda"));
    EXPECT_EQ(c.dashboard.refreshSeconds, 10);
    EXPECT_EQ(c.dashboard.windowMs, 3'600'000);
    EXPECT_TRUE(c.notConverted.isEmpty()) << linesOf(c.notConverted);

    const Conversion absolute = convertGrafana(
        R"j({"panels": [], "refresh": "", "time": {"from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z"}})j");
    EXPECT_EQ(absolute.dashboard.title, QStringLiteral("Imported from Grafana"));
    EXPECT_EQ(absolute.dashboard.refreshSeconds, 5) << "Grafana's refresh off: Chaoscope's default";
    EXPECT_EQ(absolute.dashboard.windowMs, 15 * 60'000);
    EXPECT_TRUE(listed(
        absolute, QStringLiteral("time range 2024-01-01T00:00:00Z to 2024-01-02T00:00:00Z: only \"now-<duration>\" "
                                 "to \"now\" becomes the live window; using 15m")))
        << linesOf(absolute.notConverted);
}

TEST(GrafanaImporter, UnitsMapToChaoscopesAndMultiplesScaleTheQuery)
{
    const auto unitOf = [](const QString &id) {
        const Conversion c = convertGrafana(
            dashboardOf({timeseries(QStringLiteral("p"), QString::fromUtf8(R"j({"expr": "q"})j"),
                                    QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"unit": "%1"}})j").arg(id))}));
        return c.dashboard.panels.empty()
                   ? std::pair<QString, QString>()
                   : std::pair{c.dashboard.panels[0].unit, c.dashboard.panels[0].series[0].query};
    };
    for (const char *id : {"ops", "reqps", "rps", "wps"})
        EXPECT_EQ(unitOf(QLatin1String(id)), (std::pair{QStringLiteral("ops/s"), QStringLiteral("q")})) << id;
    EXPECT_EQ(unitOf(QStringLiteral("s")), (std::pair{QStringLiteral("s"), QStringLiteral("q")}));
    // Chaoscope's "s" axis reads "12.3 ms" by itself; the values must be seconds.
    EXPECT_EQ(unitOf(QStringLiteral("ms")), (std::pair{QStringLiteral("s"), QStringLiteral("(q) / 1000")}));
    EXPECT_EQ(unitOf(QStringLiteral("bytes")), (std::pair{QStringLiteral("bytes"), QStringLiteral("q")}));
    EXPECT_EQ(unitOf(QStringLiteral("decbytes")), (std::pair{QStringLiteral("bytes"), QStringLiteral("q")}));
    EXPECT_EQ(unitOf(QStringLiteral("percent")), (std::pair{QStringLiteral("%"), QStringLiteral("q")}));
    // A 0–1 ratio is drawn as 0–100 %.
    EXPECT_EQ(unitOf(QStringLiteral("percentunit")), (std::pair{QStringLiteral("%"), QStringLiteral("(q) * 100")}));
    EXPECT_EQ(unitOf(QStringLiteral("short")), (std::pair{QString(), QStringLiteral("q")}));
    EXPECT_EQ(unitOf(QStringLiteral("none")), (std::pair{QString(), QStringLiteral("q")}));
    EXPECT_EQ(unitOf(QStringLiteral("suffix: req")), (std::pair{QStringLiteral("req"), QStringLiteral("q")}));

    const Conversion unknown = convertGrafana(
        dashboardOf({timeseries(QStringLiteral("Temp"), QString::fromUtf8(R"j({"expr": "q"})j"),
                                QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"unit": "celsius"}})j"))}));
    EXPECT_EQ(unknown.dashboard.panels.at(0).unit, QString());
    EXPECT_TRUE(listed(
        unknown, QStringLiteral("panel 'Temp' (timeseries): unit 'celsius' not supported; shown as a plain number")))
        << linesOf(unknown.notConverted);
}

TEST(GrafanaImporter, GrafanaUnitScaleQueryKeepsTheQueryWhole)
{
    EXPECT_EQ(GrafanaUnit::fromId(QStringLiteral("µs")).scaleQuery(QStringLiteral("a + b")),
              QStringLiteral("(a + b) / 1000000"));
    EXPECT_EQ(GrafanaUnit::fromId(QStringLiteral("kbytes")).scaleQuery(QStringLiteral("a")),
              QStringLiteral("(a) * 1024"));
    EXPECT_EQ(GrafanaUnit::fromId(QStringLiteral("opm")).scaleQuery(QStringLiteral("a")), QStringLiteral("(a) / 60"));
}

TEST(GrafanaImporter, RightAxisFromAnOverrideByNameOrQueryWithItsUnit)
{
    const Conversion c = convertGrafana(dashboardOf({timeseries(
        QStringLiteral("Backlog"), QString::fromUtf8(R"j({"refId": "A", "expr": "backlog", "legendFormat": "backlog"},
                          {"refId": "B", "expr": "rate(exported[1m])", "legendFormat": "exported/s"},
                          {"refId": "C", "expr": "ratio", "legendFormat": "{{partition}}"})j"),
        QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"unit": "short"}, "overrides": [
            {"matcher": {"id": "byName", "options": "exported/s"},
             "properties": [{"id": "custom.axisPlacement", "value": "right"}, {"id": "unit", "value": "ops"},
                            {"id": "color", "value": {"mode": "fixed", "fixedColor": "#d55e00"}}]},
            {"matcher": {"id": "byFrameRefID", "options": "C"},
             "properties": [{"id": "displayName", "value": "ratio"}, {"id": "custom.lineWidth", "value": 2}]}]})j"))}));
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    const PanelDefinition &panel = c.dashboard.panels[0];
    EXPECT_EQ(panel.unit, QString());
    EXPECT_EQ(panel.rightUnit, QStringLiteral("ops/s"));
    EXPECT_EQ(panel.series[0].axis, AxisSide::Left);
    EXPECT_EQ(panel.series[1].axis, AxisSide::Right);
    EXPECT_EQ(panel.series[1].color, QStringLiteral("#D55E00"));
    EXPECT_EQ(panel.series[2].legend, QStringLiteral("ratio"));
    EXPECT_EQ(c.notConverted, QStringList{QStringLiteral("panel 'Backlog' (timeseries): look not kept (drawn as plain "
                                                         "lines): custom.lineWidth for 'C'")})
        << linesOf(c.notConverted);
}

TEST(GrafanaImporter, RightAxisOverrideThatMatchesNoQueryIsListed)
{
    const Conversion c = convertGrafana(dashboardOf({timeseries(
        QStringLiteral("P"), QString::fromUtf8(R"j({"refId": "A", "expr": "x", "legendFormat": "{{pod}}"})j"),
        QString::fromUtf8(R"j(, "fieldConfig": {"overrides": [{"matcher": {"id": "byName", "options": "starter-0"},
             "properties": [{"id": "custom.axisPlacement", "value": "right"}]}]})j"))}));
    EXPECT_EQ(c.dashboard.panels.at(0).series.at(0).axis, AxisSide::Left);
    EXPECT_TRUE(
        listed(c, QStringLiteral("panel 'P' (timeseries): override for 'starter-0' (byName) matches no query by its id "
                                 "or fixed legend; its series stay on the left axis")))
        << linesOf(c.notConverted);
}

TEST(GrafanaImporter, OldGraphPanelWithYaxesAndSeriesOverrides)
{
    const Conversion c =
        convertGrafana(dashboardOf({QString::fromUtf8(R"j({"type": "graph", "title": "Jobs", "steppedLine": true,
        "targets": [{"refId": "A", "expr": "jobs", "legendFormat": "{{action}}"},
                    {"refId": "B", "expr": "pushed", "legendFormat": "pushed"}],
        "seriesOverrides": [{"alias": "/push/", "yaxis": 2, "color": "#009E73"}],
        "yaxes": [{"format": "ops", "min": "0", "max": null}, {"format": "ms"}],
        "thresholds": [{"value": 100, "colorMode": "critical", "op": "gt"}]})j")}));
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    const PanelDefinition &panel = c.dashboard.panels[0];
    EXPECT_EQ(panel.unit, QStringLiteral("ops/s"));
    EXPECT_EQ(panel.rightUnit, QStringLiteral("s"));
    EXPECT_EQ(panel.series[0].style, SeriesStyle::Step);
    EXPECT_EQ(panel.series[0].query, QStringLiteral("jobs"));
    EXPECT_EQ(panel.series[1].axis, AxisSide::Right);
    EXPECT_EQ(panel.series[1].query, QStringLiteral("(pushed) / 1000")) << "the right axis' ms become seconds";
    EXPECT_EQ(panel.series[1].color, QStringLiteral("#009E73"));
    EXPECT_EQ(c.notConverted, (QStringList{QStringLiteral("panel 'Jobs' (graph): look not kept (drawn as plain "
                                                          "lines): area fill (fill 1)")}))
        << "an old graph panel fills under its lines unless told \"fill\": 0";
    // The critical level above 100 is a check on the left axis' query, broken above it.
    ASSERT_EQ(c.dashboard.checks.size(), 1u);
    EXPECT_EQ(c.dashboard.checks[0].describe(), QStringLiteral("Jobs: jobs ≤ 100"));
    EXPECT_EQ(c.dashboard.checks[0].severity, Check::Severity::Critical);
}

TEST(GrafanaImporter, AxisLimitsAndDrawnThresholdsAreListedButMinimumZeroIsWhatChaoscopeDoes)
{
    const Conversion c = convertGrafana(dashboardOf(
        {timeseries(QStringLiteral("Drop ratio"), QString::fromUtf8(R"j({"expr": "r"})j"),
                    QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"unit": "percent", "min": 0, "max": 100,
            "custom": {"thresholdsStyle": {"mode": "line"}},
            "thresholds": {"mode": "absolute", "steps": [{"color": "green", "value": null}, {"color": "red", "value": 80}]}}})j")),
         // Every Grafana panel carries default steps; they are not drawn unless a style says so.
         timeseries(QStringLiteral("Quiet"), QString::fromUtf8(R"j({"expr": "q"})j"),
                    QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"min": 5,
            "custom": {"thresholdsStyle": {"mode": "off"}},
            "thresholds": {"mode": "absolute", "steps": [{"color": "green", "value": null}, {"color": "red", "value": 80}]}}})j"))}));
    EXPECT_EQ(c.dashboard.panels.size(), 2u);
    EXPECT_EQ(
        c.notConverted,
        (QStringList{
            QStringLiteral(
                "panel 'Drop ratio' (timeseries): axis maximum 100 not supported; the axis follows the data"),
            QStringLiteral("panel 'Quiet' (timeseries): axis minimum 5 not supported; the axis follows the data")}));
    // The drawn red step is a check on the panel's query, in the panel's unit; the quiet
    // panel's default steps are not drawn in Grafana and make none.
    ASSERT_EQ(c.dashboard.checks.size(), 1u);
    const Check &check = c.dashboard.checks[0];
    EXPECT_EQ(check.name, QStringLiteral("Drop ratio"));
    EXPECT_EQ(check.query, c.dashboard.panels[0].series[0].query);
    EXPECT_EQ(check.condition.op, CheckCondition::Op::Below);
    EXPECT_EQ(check.severity, Check::Severity::Critical);
    EXPECT_EQ(Format::value(check.condition.threshold, c.dashboard.panels[0].unit),
              Format::value(80, QStringLiteral("%")));
}

TEST(GrafanaImporter, StackingBarsTransformationsTimeShiftAndRepeatAreListed)
{
    const Conversion c = convertGrafana(dashboardOf({timeseries(
        QStringLiteral("S"), QString::fromUtf8(R"j({"expr": "s"})j"),
        QString::fromUtf8(
            R"j(, "repeat": "pod", "timeShift": "1h", "timeFrom": "6h", "transformations": [{"id": "reduce"}],
            "fieldConfig": {"defaults": {"custom": {"stacking": {"mode": "normal"}, "drawStyle": "bars"}}})j"))}));
    EXPECT_EQ(c.dashboard.panels.size(), 1u);
    for (const char *reason :
         {"stacking not supported; series are drawn unstacked", "draw style 'bars' not supported; drawn as lines",
          "transformations (reduce) not supported", "time shift 1h not supported",
          "a time range of its own (6h) not supported; the dashboard's window is used",
          "repeat for each $pod: no such variable was converted; shown once"})
        EXPECT_TRUE(listed(c, QStringLiteral("panel 'S' (timeseries): ") + QLatin1String(reason)))
            << reason << "\n"
            << linesOf(c.notConverted);
}

TEST(GrafanaImporter, OnlyPrometheusQueriesAreConverted)
{
    const Conversion c = convertGrafana(R"j({
        "__inputs": [{"name": "DS_PROM", "type": "datasource", "pluginId": "prometheus"},
                     {"name": "DS_LOKI", "type": "datasource", "pluginId": "loki"}],
        "templating": {"list": [{"name": "ds", "type": "datasource", "query": "prometheus"}]},
        "panels": [
          {"type": "timeseries", "title": "Exported input", "datasource": "${DS_PROM}", "targets": [{"refId": "A", "expr": "a"}]},
          {"type": "timeseries", "title": "Variable", "datasource": {"type": "prometheus", "uid": "$ds"}, "targets": [{"refId": "A", "expr": "b"}]},
          {"type": "timeseries", "title": "Variable by uid", "datasource": {"uid": "${ds}"}, "targets": [{"refId": "A", "expr": "c"}]},
          {"type": "timeseries", "title": "Logs", "datasource": {"type": "loki", "uid": "${DS_LOKI}"}, "targets": [{"refId": "A", "expr": "{app=\"x\"}"}]},
          {"type": "timeseries", "title": "Logs by input", "datasource": "${DS_LOKI}", "targets": [{"refId": "A", "expr": "{app=\"y\"}"}]},
          {"type": "timeseries", "title": "Mixed", "datasource": {"type": "datasource", "uid": "-- Mixed --"},
           "targets": [{"refId": "A", "expr": "d", "datasource": {"type": "prometheus", "uid": "p"}},
                       {"refId": "B", "expr": "{app=\"z\"}", "datasource": {"type": "loki", "uid": "l"}},
                       {"refId": "C", "datasource": {"type": "prometheus", "uid": "p"}}]},
          {"type": "timeseries", "title": "Test data", "datasource": {"type": "grafana-testdata-datasource", "uid": "t"},
           "targets": [{"refId": "A", "scenarioId": "random_walk"}]}
        ]})j");
    QStringList titles;
    for (const PanelDefinition &panel : c.dashboard.panels)
        titles << panel.title;
    EXPECT_EQ(titles, (QStringList{QStringLiteral("Exported input"), QStringLiteral("Variable"),
                                   QStringLiteral("Variable by uid"), QStringLiteral("Mixed")}));
    EXPECT_EQ(c.dashboard.panels.at(3).series.size(), 1u);
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Logs' (timeseries): loki data source not supported")))
        << linesOf(c.notConverted);
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Logs by input' (timeseries): loki data source not supported")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Mixed' (timeseries): query B: loki data source not supported")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Mixed' (timeseries): query C: no PromQL expression")));
    EXPECT_TRUE(listed(
        c, QStringLiteral("panel 'Test data' (timeseries): grafana-testdata-datasource data source not supported")));
}

TEST(GrafanaImporter, GrafanaMacrosOtherThanTheIntervalsLeaveTheQueryOut)
{
    const Conversion c = convertGrafana(dashboardOf(
        {timeseries(QStringLiteral("M"), QString::fromUtf8(R"j({"refId": "A", "expr": "rate(x[$__interval])"},
                          {"refId": "B", "expr": "increase(x[$__range])"},
                          {"refId": "C", "expr": "x offset ${__range_s}s"},
                          {"refId": "D", "expr": "x{pod=~\"[[pod]]\", ns=\"${ns:raw}\", job=~\"${job:pipe}\"}"})j"))}));
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    const PanelDefinition &panel = c.dashboard.panels[0];
    ASSERT_EQ(panel.series.size(), 2u);
    EXPECT_EQ(panel.series[0].query, QStringLiteral("rate(x[$__interval])"));
    EXPECT_EQ(panel.series[1].query, QStringLiteral("x{pod=~\"${pod}\", ns=\"${ns}\", job=~\"${job}\"}"));
    EXPECT_TRUE(
        listed(c, QStringLiteral("panel 'M' (timeseries): query B: $__range not supported (only $__rate_interval and "
                                 "$__interval are); query left out")))
        << linesOf(c.notConverted);
    EXPECT_TRUE(
        listed(c, QStringLiteral("panel 'M' (timeseries): query C: $__range_s not supported (only $__rate_interval and "
                                 "$__interval are); query left out")));
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'M' (timeseries): query D: variable format :pipe of $job dropped")));
}

TEST(GrafanaImporter, PanelWithoutAnyPrometheusQueryIsLeftOut)
{
    const Conversion c = convertGrafana(dashboardOf({timeseries(QStringLiteral("Empty"), QString())}));
    EXPECT_TRUE(c.dashboard.panels.empty());
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Empty' (timeseries): no Prometheus query to convert; panel left out")))
        << linesOf(c.notConverted);
}

TEST(GrafanaImporter, QueryVariablesTakeTheirChoicesFromALabel)
{
    const Conversion c = convertGrafana(R"j({"panels": [], "templating": {"list": [
        {"type": "query", "name": "namespace", "label": "Namespace", "current": {"text": "camunda", "value": "camunda"},
         "query": {"query": "label_values(zeebe_element_instance_events_total, namespace)", "refId": "PrometheusVariableQueryEditor-VariableQuery"}},
        {"type": "query", "name": "pod", "includeAll": true, "allValue": ".*", "current": {"text": ["All"], "value": ["$__all"]},
         "query": "label_values(starter_process_instances_started_total{namespace=~\"$namespace\", a=\"x,y\"}, pod)"},
        {"type": "query", "name": "job", "current": {"value": "starter"}, "query": "label_values(job)"}]}})j");
    ASSERT_EQ(c.dashboard.variableDefinitions.size(), 3u);
    const VariableDefinition &ns = c.dashboard.variableDefinitions[0];
    EXPECT_EQ(ns.name, QStringLiteral("namespace"));
    EXPECT_EQ(ns.title, QStringLiteral("Namespace"));
    EXPECT_EQ(ns.value, QStringLiteral("camunda"));
    EXPECT_EQ(ns.labelName, QStringLiteral("namespace"));
    EXPECT_EQ(ns.labelMatch, QStringLiteral("zeebe_element_instance_events_total"));
    EXPECT_FALSE(ns.includeAll);
    const VariableDefinition &pod = c.dashboard.variableDefinitions[1];
    EXPECT_EQ(pod.labelName, QStringLiteral("pod"));
    EXPECT_EQ(pod.labelMatch,
              QStringLiteral("starter_process_instances_started_total{namespace=~\"$namespace\", a=\"x,y\"}"));
    EXPECT_TRUE(pod.includeAll);
    EXPECT_EQ(pod.value, QStringLiteral(".*")) << "All selected: every value";
    const VariableDefinition &job = c.dashboard.variableDefinitions[2];
    EXPECT_EQ(job.labelName, QStringLiteral("job"));
    EXPECT_EQ(job.labelMatch, QString());
    EXPECT_TRUE(c.notConverted.isEmpty()) << linesOf(c.notConverted);
}

TEST(GrafanaImporter, CustomConstantAndTextboxVariables)
{
    const Conversion c = convertGrafana(R"j({"panels": [], "templating": {"list": [
        {"type": "custom", "name": "partition", "includeAll": true, "query": "1,2, 3", "current": {"value": "2"}},
        {"type": "custom", "name": "env", "query": "Production : prod,Staging : stage", "current": {}},
        {"type": "custom", "name": "fromOptions", "query": "", "options": [{"text": "All", "value": "$__all"}, {"text": "a", "value": "a"}]},
        {"type": "constant", "name": "cluster", "query": "eu-1"},
        {"type": "textbox", "name": "filter", "query": "starter.*", "current": {"value": "engine.*"}}]}})j");
    ASSERT_EQ(c.dashboard.variableDefinitions.size(), 5u);
    const auto &v = c.dashboard.variableDefinitions;
    EXPECT_EQ(v[0].choices, (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));
    EXPECT_EQ(v[0].value, QStringLiteral("2"));
    EXPECT_TRUE(v[0].includeAll);
    EXPECT_EQ(v[1].choices, (QStringList{QStringLiteral("prod"), QStringLiteral("stage")}));
    EXPECT_EQ(v[1].value, QStringLiteral("prod")) << "nothing selected: the first choice";
    EXPECT_EQ(v[2].choices, QStringList{QStringLiteral("a")});
    EXPECT_EQ(v[3].value, QStringLiteral("eu-1"));
    EXPECT_TRUE(v[3].choices.isEmpty());
    EXPECT_EQ(v[4].value, QStringLiteral("engine.*"));
    EXPECT_TRUE(c.notConverted.isEmpty()) << linesOf(c.notConverted);
}

TEST(GrafanaImporter, VariablesWithoutACounterpartAreListed)
{
    const Conversion c = convertGrafana(R"j({"panels": [], "templating": {"list": [
        {"type": "datasource", "name": "ds", "query": "prometheus"},
        {"type": "interval", "name": "interval", "query": "1m,5m", "current": {"value": "5m"}},
        {"type": "adhoc", "name": "filters"},
        {"type": "query", "name": "metric", "query": "metrics(zeebe_.*)", "current": {"value": "zeebe_x"}},
        {"type": "query", "name": "pods", "multi": true, "regex": "/starter-.*/", "query": "label_values(pod)",
         "current": {"value": ["a", "b"]}}]}})j");
    const auto &v = c.dashboard.variableDefinitions;
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].name, QStringLiteral("interval"));
    EXPECT_EQ(v[0].value, QStringLiteral("5m")) << "queries using $interval keep working";
    EXPECT_EQ(v[0].choices, (QStringList{QStringLiteral("1m"), QStringLiteral("5m")})) << "and it can be changed";
    EXPECT_EQ(v[1].value, QStringLiteral("zeebe_x"));
    EXPECT_FALSE(v[1].isChoosable());
    EXPECT_EQ(v[2].value, QStringLiteral("a"));
    EXPECT_EQ(c.notConverted,
              (QStringList{
                  QStringLiteral("variable 'ds' (datasource): data source variables not supported; Chaoscope reads "
                                 "from the --prometheus it was started with"),
                  QStringLiteral("variable 'filters' (adhoc): ad hoc filters not supported"),
                  QStringLiteral("variable 'metric' (query): only label_values(...) queries are supported, not "
                                 "\"metrics(zeebe_.*)\"; kept the value \"zeebe_x\""),
                  QStringLiteral("variable 'pods' (query): several values selected (a, b); kept \"a\""),
                  QStringLiteral("variable 'pods' (query): multi-value selection not supported; one value at a time"),
                  QStringLiteral("variable 'pods' (query): regex filter /starter-.*/ not applied; every value of the "
                                 "label is offered")}));
}

TEST(GrafanaImporter, LabelValuesParsing)
{
    QString label, match;
    EXPECT_TRUE(GrafanaVariables::parseLabelValues(QStringLiteral(" label_values( up{job=\"a,b\"} , instance ) "),
                                                   &label, &match));
    EXPECT_EQ(label, QStringLiteral("instance"));
    EXPECT_EQ(match, QStringLiteral("up{job=\"a,b\"}"));
    EXPECT_FALSE(GrafanaVariables::parseLabelValues(QStringLiteral("label_values(up, not a label)"), &label, &match));
    EXPECT_FALSE(GrafanaVariables::parseLabelValues(QStringLiteral("query_result(up)"), &label, &match));
    EXPECT_FALSE(GrafanaVariables::parseLabelValues(QStringLiteral("label_values()"), &label, &match));
}

TEST(GrafanaImporter, AcceptsTheApiWrapperAndConvertsAnnotationQueries)
{
    const Conversion c = convertGrafana(R"j({"meta": {"slug": "x"}, "dashboard": {"title": "Wrapped",
        "annotations": {"list": [{"builtIn": 1, "name": "Annotations & Alerts"}, {"name": "Deploys", "expr": "changes(x[1m])"}]},
        "panels": [{"type": "timeseries", "title": "P", "targets": [{"expr": "up"}]}]}})j");
    EXPECT_EQ(c.dashboard.title, QStringLiteral("Wrapped"));
    EXPECT_EQ(c.dashboard.panels.size(), 1u);
    ASSERT_EQ(c.dashboard.annotationQueries.size(), 1u) << "the built-in one has its counterpart in the app";
    EXPECT_EQ(c.dashboard.annotationQueries[0].name, QStringLiteral("Deploys"));
    EXPECT_EQ(c.dashboard.annotationQueries[0].query, QStringLiteral("changes(x[1m])"));
    EXPECT_TRUE(c.notConverted.isEmpty()) << c.notConverted.join(QLatin1Char('\n')).toStdString();
}

// Grafana's Prometheus annotation: titleFormat, textFormat, tagKeys, step, enable, the panel
// filter of Grafana 10; others listed with their reason.
TEST(GrafanaImporter, PrometheusAnnotationQueriesBecomeRegionsWithTheirTemplatesTagsStepAndPanels)
{
    const Conversion c = convertGrafana(R"j({"title": "K8s",
        "templating": {"list": [{"type": "custom", "name": "namespace", "query": "camunda", "current": {"value": "camunda"}}]},
        "annotations": {"list": [
          {"name": "Restarts", "datasource": {"type": "prometheus", "uid": "prom"}, "enable": true,
           "expr": "increase(kube_pod_container_status_restarts_total{namespace=\"[[namespace]]\"}[2m]) > 0",
           "titleFormat": "{{pod}} restarted", "textFormat": "{{container}}", "tagKeys": "pod, container", "step": "30s",
           "filter": {"exclude": false, "ids": [2]}},
          {"name": "Unready", "datasource": {"type": "prometheus", "uid": "prom"}, "enable": false,
           "target": {"expr": "1 - kube_pod_container_status_ready > 0", "refId": "Anno"}, "useValueForTime": true},
          {"name": "Restarts", "datasource": "Prometheus", "expr": "up == 0", "step": "soon"},
          {"name": "Logs", "datasource": {"type": "loki", "uid": "l"}, "expr": "{app=\"x\"} |= \"error\""},
          {"name": "Deploys", "datasource": {"type": "datasource", "uid": "grafana"}, "target": {"tags": ["deploy"]}},
          {"name": "Range", "datasource": "Prometheus", "expr": "changes(x[$__range]) > 0"}]},
        "panels": [{"id": 1, "type": "timeseries", "title": "Throughput", "targets": [{"expr": "rate(a[1m])"}]},
                   {"id": 2, "type": "timeseries", "title": "Pods", "targets": [{"expr": "kube_pod_info"}]}]})j");
    const auto &queries = c.dashboard.annotationQueries;
    ASSERT_EQ(queries.size(), 3u);
    const AnnotationQueryDefinition &restarts = queries[0];
    EXPECT_EQ(restarts.name, QStringLiteral("Restarts"));
    EXPECT_EQ(restarts.query,
              QStringLiteral("increase(kube_pod_container_status_restarts_total{namespace=\"${namespace}\"}[2m]) > 0"));
    EXPECT_EQ(restarts.mode, AnnotationQueryDefinition::Mode::Regions) << "Grafana joins consecutive samples";
    EXPECT_EQ(restarts.title, QStringLiteral("{{pod}} restarted"));
    EXPECT_EQ(restarts.text, QStringLiteral("{{container}}"));
    EXPECT_EQ(restarts.tagLabels, (QStringList{QStringLiteral("pod"), QStringLiteral("container")}));
    EXPECT_EQ(restarts.stepMs, 30'000);
    EXPECT_EQ(restarts.panels, QStringList{QStringLiteral("Pods")});
    EXPECT_FALSE(restarts.hidden);
    EXPECT_EQ(queries[1].name, QStringLiteral("Unready"));
    EXPECT_EQ(queries[1].query, QStringLiteral("1 - kube_pod_container_status_ready > 0"));
    EXPECT_TRUE(queries[1].hidden) << "off in Grafana, off in the toolbar";
    EXPECT_EQ(queries[2].name, QStringLiteral("Restarts (2)")) << "names stay unique";
    EXPECT_EQ(queries[2].stepMs, 0);
    EXPECT_EQ(c.notConverted,
              (QStringList{
                  QStringLiteral("annotation query 'Unready': \"series value as timestamp\" not supported; marked "
                                 "where the value is non-zero"),
                  QStringLiteral("annotation query 'Restarts': step \"soon\" not understood; the refresh is used"),
                  QStringLiteral("annotation query 'Logs': loki data source not supported"),
                  QStringLiteral("annotation query 'Deploys': annotations stored in Grafana are not part of the file"),
                  QStringLiteral("annotation query 'Range': $__range not supported; left out")}));

    // What the importer writes loads without a problem.
    const QByteArray written = DashboardWriter::toJson(c.dashboard);
    const auto loaded = DashboardLoader::fromJson(written);
    EXPECT_TRUE(loaded.issues.isEmpty()) << loaded.issues.value(0).toString().toStdString();
    EXPECT_EQ(loaded.dashboard.annotationQueries.size(), 3u);
}

TEST(GrafanaImporter, LegacyRowsSchema)
{
    const Conversion c = convertGrafana(R"j({"rows": [{"title": "r", "panels": [
        {"type": "graph", "title": "a", "span": 6, "targets": [{"expr": "a"}]},
        {"type": "graph", "title": "b", "span": 6, "targets": [{"expr": "b"}]}]}]})j");
    ASSERT_EQ(c.dashboard.panels.size(), 2u);
    EXPECT_EQ(c.dashboard.columns, 2);
}

TEST(GrafanaImporter, BadInputIsAnErrorWithAClearMessage)
{
    const auto messageOf = [](const QByteArray &json) {
        const Result<Conversion> result = GrafanaImporter::fromJson(json);
        EXPECT_FALSE(result.ok());
        return result.ok() ? std::string() : result.error().message.toStdString();
    };
    // Where the mistake is; the why is Qt's own wording.
    // The same words and the same place as a dashboard's mistake (base/jsontext.h): the '}' at column 12.
    EXPECT_EQ(messageOf("{\"panels\": [\n  {\"type\": }\n]}"),
              "not valid JSON: object is missing after a comma at line 2, column 12");
    EXPECT_EQ(messageOf(""), "not valid JSON: illegal value at line 1, column 1");
    EXPECT_EQ(messageOf("[1, 2]"), std::string("not a Grafana dashboard: the top level is an array, not an object"));
    EXPECT_EQ(messageOf(R"j({"title": "x"})j"),
              std::string("not a Grafana dashboard: it has no \"panels\" (a Grafana dashboard's JSON model has "
                          "\"panels\" and \"templating\")"));
    EXPECT_EQ(messageOf(R"j({"panels": "many"})j"),
              std::string("not a Grafana dashboard: \"panels\" is a string, not an array"));
    EXPECT_EQ(messageOf(R"j({"dashboard": 3})j"),
              std::string("not a Grafana dashboard: \"dashboard\" is a number, not an object"));
    EXPECT_EQ(
        messageOf(R"j({"title": "Testbed", "panels": [{"title": "x", "series": [{"query": "up"}]}]})j"),
        std::string(
            "not a Grafana dashboard: its panels have \"series\", not \"type\" and \"targets\": it is a Chaoscope "
            "dashboard already (open it with --dashboard)"));
}

TEST(GrafanaImporter, OddShapesInsideADashboardDoNotCrash)
{
    const Conversion c =
        convertGrafana(R"j({"panels": [1, null, "x", {"type": "timeseries", "targets": "no", "fieldConfig": 3,
        "gridPos": {"w": -5}}, {"type": "timeseries", "title": "t", "targets": [null, 1, {"expr": 5}],
        "fieldConfig": {"overrides": [null, {"matcher": {"id": "byRegexp", "options": "(("}, "properties": 7}]}},
        {"type": "row", "panels": {"a": 1}}], "templating": {"list": [null, {"type": "custom"}, {"name": "x", "type": 4}]},
        "time": 5, "refresh": false, "annotations": []})j");
    EXPECT_TRUE(c.dashboard.panels.empty());
    EXPECT_FALSE(c.notConverted.isEmpty());
}

namespace {

int dropRatioPanel(const DashboardDefinition &d)
{
    for (int i = 0; i < int(d.panels.size()); ++i) {
        if (d.panels[std::size_t(i)].title == QLatin1String("Backpressure drop ratio"))
            return i;
    }
    return 0;
}

} // namespace

TEST(GrafanaImporter, CamundaFixtureConvertsItsPrometheusTimeSeries)
{
    const Conversion c = fixture();
    const DashboardDefinition &d = c.dashboard;
    EXPECT_EQ(d.title, QStringLiteral("Camunda 8 load test"));
    EXPECT_EQ(d.refreshSeconds, 10);
    EXPECT_EQ(d.windowMs, 3'600'000);
    EXPECT_EQ(d.columns, 2);
    QStringList titles;
    for (const PanelDefinition &panel : d.panels)
        titles << panel.title;
    EXPECT_EQ(
        titles,
        (QStringList{QStringLiteral("PI completed/s (now)"), QStringLiteral("Backpressure (now)"),
                     QStringLiteral("Process instances per second"), QStringLiteral("Exporter backlog vs export rate"),
                     QStringLiteral("Jobs by action"), QStringLiteral("Backpressure drop ratio"),
                     QStringLiteral("Starter HTTP client pool"), QStringLiteral("Data availability latency"),
                     QStringLiteral("Data availability p99"), QStringLiteral("CPU throttling"),
                     QStringLiteral("Worker fill level"), QStringLiteral("Flow control")}));
    QStringList variables;
    for (const VariableDefinition &variable : d.variableDefinitions)
        variables << variable.name;
    EXPECT_EQ(variables, (QStringList{QStringLiteral("namespace"), QStringLiteral("pod"), QStringLiteral("partition"),
                                      QStringLiteral("interval")}));

    EXPECT_EQ(d.panels[0].kind, PanelKind::Stat);
    EXPECT_EQ(d.panels[1].kind, PanelKind::Stat) << "a gauge is drawn as a stat tile";
    EXPECT_EQ(d.panels[1].thresholds.size(), 3u);
    EXPECT_EQ(d.panels[2].kind, PanelKind::Lines);
    const PanelDefinition &backlog = d.panels[3];
    EXPECT_EQ(backlog.rightUnit, QStringLiteral("ops/s"));
    EXPECT_EQ(backlog.series.at(1).axis, AxisSide::Right);
    const PanelDefinition &jobs = d.panels[4];
    EXPECT_EQ(jobs.series.size(), 2u) << "the hidden debug query is skipped";
    EXPECT_EQ(jobs.series.at(1).axis, AxisSide::Right);
    EXPECT_EQ(d.panels[6].series.at(0).style, SeriesStyle::Step);
    const PanelDefinition &latency = d.panels[7];
    EXPECT_EQ(latency.kind, PanelKind::Heatmap);
    EXPECT_EQ(latency.unit, QStringLiteral("s")) << "the unit of the bucket bounds, from the heatmap's y axis";
    EXPECT_EQ(
        latency.series.at(0).query,
        QStringLiteral("sum by(le)(increase(starter_data_availability_latency_seconds_bucket{namespace=~\"$namespace\"}"
                       "[$__rate_interval]))"))
        << "the buckets are never rescaled, and counted over a range that always holds two scrapes";
    EXPECT_EQ(d.panels[8].unit, QStringLiteral("s"));
    EXPECT_TRUE(d.panels[8].series.at(0).query.endsWith(QStringLiteral(") / 1000")));

    for (const char *expected : {
             "panel 'Backpressure (now)' (gauge): a gauge is drawn as a stat tile: its value as a number over a "
             "sparkline, without the dial",
             "panel 'About this dashboard' (text): panel type not supported",
             "panel 'Rejections by intent' (table): panel type not supported",
             "panel 'Disk usage' (piechart): panel type not supported",
             "panel 'Data availability latency' (heatmap): [$__interval] replaced by [$__rate_interval]: a range of "
             "one step holds a single scrape at short steps and draws nothing; the colours and shares are the same, "
             "the counts are over the longer range",
             "panel 'Gateway errors (logs)' (timeseries): loki data source not supported",
             "panel 'Process instances per second' (timeseries): query D: $__range not supported (only "
             "$__rate_interval and $__interval are); query left out",
             "panel 'Worker fill level' (timeseries): stacking not supported; series are drawn unstacked",
             "variable 'datasource' (datasource): data source variables not supported; Chaoscope reads from the "
             "--prometheus it was started with",
         })
        EXPECT_TRUE(listed(c, QString::fromUtf8(expected))) << expected << "\n---\n" << linesOf(c.notConverted);
    // Its drawn thresholds (green, orange from 5 %, red from 20 %) are a warning and a
    // critical check on the ratio.
    std::vector<Check> dropRatio;
    for (const Check &check : d.checks) {
        if (check.name == QLatin1String("Backpressure drop ratio"))
            dropRatio.push_back(check);
    }
    ASSERT_EQ(dropRatio.size(), 2u) << linesOf(c.notConverted);
    EXPECT_EQ(dropRatio[0].severity, Check::Severity::Warning);
    EXPECT_EQ(dropRatio[1].severity, Check::Severity::Critical);
    // In the panel's unit, as its query: the ratio became percent.
    EXPECT_EQ(dropRatio[0].query, d.panels[std::size_t(dropRatioPanel(d))].series[0].query);
    EXPECT_NEAR(dropRatio[0].condition.threshold, 5, 1e-9);
    EXPECT_NEAR(dropRatio[1].condition.threshold, 20, 1e-9);
}

TEST(GrafanaImporter, ConversionSurvivesTheDashboardWriterAndLoader)
{
    const Conversion c = fixture();
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromJson(DashboardWriter::toJson(c.dashboard));
    ASSERT_TRUE(loaded.usable);
    QStringList issues;
    for (const DashboardIssue &issue : loaded.issues)
        issues << issue.toString();
    EXPECT_TRUE(issues.isEmpty()) << linesOf(issues);
    ASSERT_EQ(loaded.dashboard.panels.size(), c.dashboard.panels.size());
    for (std::size_t i = 0; i < c.dashboard.panels.size(); ++i) {
        const PanelDefinition &a = c.dashboard.panels[i];
        const PanelDefinition &b = loaded.dashboard.panels[i];
        EXPECT_EQ(a.title, b.title);
        EXPECT_EQ(a.unit, b.unit);
        EXPECT_EQ(a.rightUnit, b.rightUnit);
        ASSERT_EQ(a.series.size(), b.series.size()) << a.title.toStdString();
        for (std::size_t j = 0; j < a.series.size(); ++j) {
            EXPECT_EQ(a.series[j].query, b.series[j].query);
            EXPECT_EQ(a.series[j].legend, b.series[j].legend);
            EXPECT_EQ(a.series[j].axis, b.series[j].axis);
            EXPECT_EQ(a.series[j].style, b.series[j].style);
            EXPECT_EQ(a.series[j].color, b.series[j].color);
        }
    }
    ASSERT_EQ(loaded.dashboard.variableDefinitions.size(), c.dashboard.variableDefinitions.size());
    for (std::size_t i = 0; i < c.dashboard.variableDefinitions.size(); ++i) {
        const VariableDefinition &a = c.dashboard.variableDefinitions[i];
        const VariableDefinition &b = loaded.dashboard.variableDefinitions[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.title, b.title) << a.name.toStdString();
        EXPECT_EQ(a.value, b.value) << a.name.toStdString();
        EXPECT_EQ(a.choices, b.choices) << a.name.toStdString();
        EXPECT_EQ(a.labelName, b.labelName) << a.name.toStdString();
        EXPECT_EQ(a.labelMatch, b.labelMatch) << a.name.toStdString();
        EXPECT_EQ(a.includeAll, b.includeAll) << a.name.toStdString();
    }
    EXPECT_EQ(loaded.dashboard.columns, c.dashboard.columns);
    EXPECT_EQ(loaded.dashboard.windowMs, c.dashboard.windowMs);
    EXPECT_EQ(loaded.dashboard.refreshSeconds, c.dashboard.refreshSeconds);
}

TEST(GrafanaImporter, AMistakeIsPlacedAsInADashboardFile)
{
    // One way to count lines and columns for every JSON file the app reads: today a
    // dashboard and a Grafana file with the same mistake are told the same place.
    const QByteArray json = "{\n  \"title\": \"Caf\xc3\xa9\",\n  \"panels\": [1 2]\n}";
    const Result<Conversion> grafana = GrafanaImporter::fromJson(json);
    const DashboardLoader::LoadResult dashboard = DashboardLoader::fromJson(json);
    ASSERT_FALSE(grafana.ok());
    ASSERT_EQ(dashboard.issues.size(), 1);
    EXPECT_EQ(grafana.error().message, dashboard.issues[0].message);
    EXPECT_EQ(grafana.error().message, QStringLiteral("not valid JSON: missing value separator at line 3, column 16"));
}

TEST(GrafanaImporter, RepeatByKnownValuesGivesOnePanelPerValueWithItsValuePutIn)
{
    const Conversion c = convertGrafana(R"j({"title": "Kafka",
        "templating": {"list": [
          {"type": "custom", "name": "topic", "query": "orders,payments,audit", "current": {"value": ["$__all"]},
           "includeAll": true, "multi": true},
          {"type": "query", "name": "pod", "query": "label_values(up, pod)", "current": {"value": "$__all"},
           "includeAll": true}]},
        "panels": [
          {"id": 7, "type": "timeseries", "title": "Lag of $topic", "repeat": "topic",
           "targets": [{"expr": "sum(kafka_lag{topic=\"$topic\"})", "legendFormat": "{{partition}} of $topic"}]},
          {"id": 8, "type": "timeseries", "title": "Heap", "repeat": "pod", "targets": [{"expr": "heap{pod=~\"$pod\"}"}]}]})j");
    QStringList titles;
    for (const PanelDefinition &panel : c.dashboard.panels)
        titles << panel.title;
    EXPECT_EQ(titles, (QStringList{QStringLiteral("Lag of orders"), QStringLiteral("Lag of payments"),
                                   QStringLiteral("Lag of audit"), QStringLiteral("Heap")}));
    ASSERT_EQ(c.dashboard.panels.size(), 4u);
    EXPECT_EQ(c.dashboard.panels[1].series.at(0).query, QStringLiteral("sum(kafka_lag{topic=\"payments\"})"));
    EXPECT_EQ(c.dashboard.panels[1].series.at(0).legend, QStringLiteral("{{partition}} of payments"));
    EXPECT_EQ(c.dashboard.panels[3].series.at(0).query, QStringLiteral("heap{pod=~\"$pod\"}"))
        << "values only Prometheus knows: one panel that follows the toolbar";
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Lag of $topic' (timeseries): repeat for each $topic: one panel for "
                                         "each value selected in Grafana (orders, payments, audit), with its value put "
                                         "in")))
        << linesOf(c.notConverted);
    EXPECT_TRUE(listed(c, QStringLiteral("panel 'Heap' (timeseries): repeat for each $pod: \"All\" of values only "
                                         "Prometheus knows; shown once, for the value chosen in the toolbar")))
        << linesOf(c.notConverted);
}

TEST(GrafanaImporter, WhatOnlyChangesTheLookIsSaidInOneLine)
{
    const Conversion c = convertGrafana(dashboardOf(
        {timeseries(QStringLiteral("Fill"), QString::fromUtf8(R"j({"refId": "A", "expr": "x", "legendFormat": "x"})j"),
                    QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"decimals": 2, "custom": {"fillOpacity": 25,
            "gradientMode": "opacity", "lineWidth": 2, "showPoints": "always", "lineStyle": {"fill": "dash"},
            "scaleDistribution": {"type": "log", "log": 2}}, "mappings": [{"type": "value", "options": {}}]},
            "overrides": [{"matcher": {"id": "byName", "options": "x"},
                           "properties": [{"id": "custom.fillOpacity", "value": 0}]}]}, "interval": "30s")j"))}));
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    EXPECT_EQ(
        c.notConverted,
        (QStringList{
            QStringLiteral("panel 'Fill' (timeseries): a minimum step of its own (30s) not supported; the step "
                           "follows the window"),
            QStringLiteral("panel 'Fill' (timeseries): value mappings not supported; values are shown as numbers"),
            QStringLiteral("panel 'Fill' (timeseries): logarithmic axis not supported; drawn on a linear one"),
            QStringLiteral("panel 'Fill' (timeseries): look not kept (drawn as plain lines): area fill "
                           "(fillOpacity 25), opacity gradient, line width 2, points, dashed lines, 2 decimals, "
                           "custom.fillOpacity for 'x'")}))
        << linesOf(c.notConverted);
    const Conversion plain = convertGrafana(dashboardOf(
        {timeseries(QStringLiteral("Plain"), QString::fromUtf8(R"j({"expr": "x"})j"),
                    QString::fromUtf8(R"j(, "fieldConfig": {"defaults": {"custom": {"fillOpacity": 0, "lineWidth": 1,
            "gradientMode": "none", "showPoints": "auto", "scaleDistribution": {"type": "linear"}}}})j"))}));
    EXPECT_TRUE(plain.notConverted.isEmpty()) << "Grafana's defaults are what Chaoscope draws:\n"
                                              << linesOf(plain.notConverted);
}

TEST(GrafanaImporter, IntervalVariableWithoutACurrentValueStartsAtItsFirstDuration)
{
    const Conversion c = convertGrafana(R"j({"panels": [], "templating": {"list": [
        {"type": "interval", "name": "step", "query": "30s,1m", "auto": true, "options": []},
        {"type": "interval", "name": "bare"}]}})j");
    const auto &v = c.dashboard.variableDefinitions;
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].value, QStringLiteral("30s"));
    EXPECT_EQ(v[0].choices, (QStringList{QStringLiteral("30s"), QStringLiteral("1m")}));
    EXPECT_EQ(v[1].value, QStringLiteral("1m")) << "never an empty value that would break a query";
    EXPECT_EQ(c.notConverted,
              (QStringList{QStringLiteral("variable 'step' (interval): \"auto\" not supported; one of its durations is "
                                          "used"),
                           QStringLiteral("variable 'bare' (interval): no durations and no current value; fixed at "
                                          "\"1m\"")}));
}

TEST(GrafanaImporter, StatSinglestatAndGaugePanelsBecomeStatTilesColouredByTheirThresholds)
{
    const Conversion c = convertGrafana(dashboardOf({
        QString::fromUtf8(R"j({"type": "stat", "title": "Drops", "targets": [{"expr": "drop_ratio"}],
            "fieldConfig": {"defaults": {"unit": "percentunit", "thresholds": {"mode": "absolute", "steps": [
              {"value": null, "color": "green"}, {"value": 0.05, "color": "#EAB839"},
              {"value": 0.2, "color": "semi-dark-red"}, {"value": 0.3, "color": "puce"}]}}},
            "options": {"reduceOptions": {"calcs": ["mean"]}, "colorMode": "background", "graphMode": "area"}})j"),
        QString::fromUtf8(R"j({"type": "singlestat", "title": "Users", "targets": [{"expr": "locust_users"}],
            "format": "short", "valueName": "current", "colorValue": true, "thresholds": "100,200",
            "colors": ["#299c46", "rgba(237, 129, 40, 0.89)", "#d44a3a"], "sparkline": {"show": true}})j"),
        QString::fromUtf8(R"j({"type": "stat", "title": "Plain", "targets": [{"expr": "up"}],
            "fieldConfig": {"defaults": {"thresholds": {"mode": "absolute", "steps": [{"value": null, "color": "green"}]}}},
            "options": {"colorMode": "none", "graphMode": "none", "reduceOptions": {"calcs": ["lastNotNull"]}}})j"),
    }));
    ASSERT_EQ(c.dashboard.panels.size(), 3u);
    const PanelDefinition &drops = c.dashboard.panels[0];
    EXPECT_EQ(drops.kind, PanelKind::Stat);
    EXPECT_EQ(drops.unit, QStringLiteral("%"));
    EXPECT_EQ(drops.series.at(0).query, QStringLiteral("(drop_ratio) * 100"));
    ASSERT_EQ(drops.thresholds.size(), 3u);
    EXPECT_EQ(drops.thresholds[0].color, QStringLiteral("#73BF69"));
    EXPECT_TRUE(std::isinf(drops.thresholds[0].from));
    EXPECT_EQ(drops.thresholds[1].from, 0.05) << "in the panel's own unit, as Grafana compares them";
    EXPECT_EQ(drops.thresholds[2].color, QStringLiteral("#E02F44"));
    EXPECT_EQ(ThresholdSteps::colorFor(drops.thresholds, 0.1), QStringLiteral("#EAB839"));

    const PanelDefinition &users = c.dashboard.panels[1];
    EXPECT_EQ(users.kind, PanelKind::Stat);
    ASSERT_EQ(users.thresholds.size(), 3u);
    EXPECT_EQ(users.thresholds[1].from, 100);
    EXPECT_EQ(users.thresholds[1].color, QStringLiteral("#ED8128"));
    EXPECT_EQ(users.thresholds[2].color, QStringLiteral("#D44A3A"));

    EXPECT_TRUE(c.dashboard.panels[2].thresholds.empty()) << "colour mode none colours nothing";
    EXPECT_EQ(
        c.notConverted,
        (QStringList{QStringLiteral("panel 'Drops' (stat): threshold step 0.3 'puce' not understood; left out"),
                     QStringLiteral("panel 'Drops' (stat): shows the newest value in the window, not its mean"),
                     QStringLiteral("panel 'Drops' (stat): look not kept (drawn as a stat tile): a coloured background "
                                    "(the number is coloured instead)"),
                     QStringLiteral("panel 'Plain' (stat): look not kept (drawn as a stat tile): no sparkline in "
                                    "Grafana")}))
        << linesOf(c.notConverted);
}
