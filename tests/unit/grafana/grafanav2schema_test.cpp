// SPDX-License-Identifier: GPL-3.0-or-later
// Importing a dashboard in Grafana 12's v2 schema: elements placed in the layout's reading
// order through rows, tabs and auto grids, queries of both spellings (v2alpha1, v2beta1),
// variables, annotation queries with their legacy options, repeats, and the list of what
// has no counterpart.
#include "grafana/grafanaimporter.h"
#include "grafana/grafanav2schema.h"
#include "grafanaconversion.h"

#include <QJsonArray>
#include <gtest/gtest.h>

using GrafanaImporter::Conversion;

namespace {

QStringList titlesOf(const DashboardDefinition &dashboard)
{
    QStringList titles;
    for (const PanelDefinition &panel : dashboard.panels)
        titles << panel.title;
    return titles;
}

// A v2beta1 panel element: a Prometheus query per expression.
QString panel(int id, const QString &title, const QStringList &exprs, const QString &viz = QStringLiteral("timeseries"))
{
    QStringList queries;
    char refId = 'A';
    for (const QString &expr : exprs) {
        queries << QStringLiteral(R"j({"kind": "PanelQuery", "spec": {"refId": "%1", "hidden": false,
            "query": {"kind": "DataQuery", "group": "prometheus", "version": "v0", "datasource": {"name": "prom"},
                      "spec": {"expr": "%2", "legendFormat": "{{pod}}"}}}})j")
                       .arg(QChar::fromLatin1(refId++))
                       .arg(expr);
    }
    return QStringLiteral(R"j({"kind": "Panel", "spec": {"id": %1, "title": "%2", "links": [],
        "data": {"kind": "QueryGroup", "spec": {"queries": [%3], "transformations": [], "queryOptions": {}}},
        "vizConfig": {"kind": "VizConfig", "group": "%4", "version": "12.1.0",
                      "spec": {"options": {}, "fieldConfig": {"defaults": {"unit": "reqps"}, "overrides": []}}}}})j")
        .arg(id)
        .arg(title, queries.join(QLatin1Char(',')), viz);
}

QString gridItem(const QString &element, int x, int y, int width = 12, const QString &more = {})
{
    return QStringLiteral(R"j({"kind": "GridLayoutItem", "spec": {"x": %1, "y": %2, "width": %3, "height": 8,
        "element": {"kind": "ElementReference", "name": "%4"}%5}})j")
        .arg(x)
        .arg(y)
        .arg(width)
        .arg(element, more);
}

} // namespace

TEST(GrafanaV2Schema, RecognisesTheResourceAndItsBareSpecButNotTheClassicModel)
{
    using GrafanaV2Schema::isV2;
    EXPECT_TRUE(isV2(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("dashboard.grafana.app/v2beta1")}}));
    EXPECT_TRUE(
        isV2(QJsonObject{{QStringLiteral("elements"), QJsonObject{}}, {QStringLiteral("layout"), QJsonObject{}}}));
    EXPECT_FALSE(isV2(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("dashboard.grafana.app/v1beta1")},
                                  {QStringLiteral("spec"), QJsonObject{{QStringLiteral("panels"), QJsonArray{}}}}}));
    EXPECT_FALSE(isV2(QJsonObject{{QStringLiteral("panels"), QJsonArray{}}}));
}

TEST(GrafanaV2Schema, LayoutsAreFlattenedInReadingOrder)
{
    const QString elements =
        QStringLiteral(R"j("a": %1, "b": %2, "c": %3, "d": %4, "e": %5, "f": %6, "g": %7, "unused": %8)j")
            .arg(panel(1, QStringLiteral("Right of the top"), {QStringLiteral("a")}),
                 panel(2, QStringLiteral("Top left"), {QStringLiteral("b")}),
                 panel(3, QStringLiteral("Row one"), {QStringLiteral("c")}),
                 panel(4, QStringLiteral("Tab one"), {QStringLiteral("d")}),
                 panel(5, QStringLiteral("Tab two"), {QStringLiteral("e")}),
                 panel(6, QStringLiteral("Auto first"), {QStringLiteral("f")}),
                 panel(7, QStringLiteral("Auto second"), {QStringLiteral("g")}),
                 panel(8, QStringLiteral("Nowhere"), {QStringLiteral("h")}));
    const QString layout = QStringLiteral(R"j({"kind": "RowsLayout", "spec": {"rows": [
        {"kind": "RowsLayoutRow", "spec": {"title": "Overview", "collapse": false,
          "layout": {"kind": "GridLayout", "spec": {"items": [%1, %2]}}}},
        {"kind": "RowsLayoutRow", "spec": {"title": "Details", "collapse": true,
          "layout": {"kind": "GridLayout", "spec": {"items": [%3]}}}},
        {"kind": "RowsLayoutRow", "spec": {"title": "More",
          "layout": {"kind": "TabsLayout", "spec": {"tabs": [
            {"kind": "TabsLayoutTab", "spec": {"title": "One", "layout": {"kind": "GridLayout", "spec": {"items": [%4]}}}},
            {"kind": "TabsLayoutTab", "spec": {"title": "Two", "layout": {"kind": "AutoGridLayout", "spec": {
              "maxColumnCount": 2, "columnWidthMode": "standard", "rowHeightMode": "standard", "items": [
                {"kind": "AutoGridLayoutItem", "spec": {"element": {"kind": "ElementReference", "name": "e"}}},
                {"kind": "AutoGridLayoutItem", "spec": {"element": {"kind": "ElementReference", "name": "f"}}},
                {"kind": "AutoGridLayoutItem", "spec": {"element": {"kind": "ElementReference", "name": "g"}}},
                {"kind": "AutoGridLayoutItem", "spec": {"element": {"kind": "ElementReference", "name": "gone"}}}
              ]}}}}]}}}}]}})j")
                               .arg(gridItem(QStringLiteral("a"), 12, 0), gridItem(QStringLiteral("b"), 0, 0),
                                    gridItem(QStringLiteral("c"), 0, 0, 24), gridItem(QStringLiteral("d"), 0, 0));
    const Conversion c =
        convertGrafana(QStringLiteral(R"j({"apiVersion": "dashboard.grafana.app/v2beta1", "kind": "Dashboard",
        "metadata": {"name": "abc"}, "spec": {"title": "Rooms", "cursorSync": "Crosshair", "elements": {%1},
        "layout": %2, "timeSettings": {"from": "now-30m", "to": "now", "autoRefresh": "10s"}}})j")
                           .arg(elements, layout)
                           .toUtf8());
    EXPECT_EQ(c.dashboard.title, QStringLiteral("Rooms"));
    EXPECT_EQ(c.dashboard.windowMs, 30 * 60 * 1000);
    EXPECT_EQ(c.dashboard.refreshSeconds, 10);
    EXPECT_EQ(titlesOf(c.dashboard),
              (QStringList{QStringLiteral("Top left"), QStringLiteral("Right of the top"), QStringLiteral("Row one"),
                           QStringLiteral("Tab one"), QStringLiteral("Tab two"), QStringLiteral("Auto first"),
                           QStringLiteral("Auto second")}));
    ASSERT_FALSE(c.dashboard.panels.empty());
    EXPECT_EQ(c.dashboard.panels[0].series.at(0).query, QStringLiteral("b"));
    EXPECT_EQ(c.dashboard.panels[0].series.at(0).legend, QStringLiteral("{{pod}}"));
    EXPECT_EQ(c.dashboard.panels[0].unit, QStringLiteral("ops/s")) << "the element's vizConfig carries the unit";
    EXPECT_EQ(c.notConverted,
              (QStringList{QStringLiteral("row 'Overview': rows not supported; its panels are placed in order"),
                           QStringLiteral("row 'Details': rows not supported; its panels are placed in order"),
                           QStringLiteral("row 'More': rows not supported; its panels are placed in order"),
                           QStringLiteral("row 'More': tab 'One': tabs not supported; its panels are placed in order"),
                           QStringLiteral("row 'More': tab 'Two': tabs not supported; its panels are placed in order"),
                           QStringLiteral("row 'More': tab 'Two': the layout places element 'gone', which is not "
                                          "among the elements; left out"),
                           QStringLiteral("element 'unused' is in no layout, so Grafana does not show it; left out")}))
        << linesOf(c.notConverted);
}

TEST(GrafanaV2Schema, VariablesAnnotationQueriesAndRepeatsConvertAsInTheClassicModel)
{
    const QString elements =
        QStringLiteral(R"j("lag": %1, "heap": %2, "up": %3, "lib": {"kind": "LibraryPanel",
        "spec": {"id": 4, "title": "Shared", "libraryPanel": {"uid": "u", "name": "n"}}})j")
            .arg(panel(1, QStringLiteral("Lag of $topic"), {QStringLiteral("lag{topic=\\\"$topic\\\"}")}),
                 panel(2, QStringLiteral("Heap"), {QStringLiteral("heap")}),
                 panel(3, QStringLiteral("Up now"), {QStringLiteral("up")}, QStringLiteral("stat")));
    const QString items =
        QStringList{gridItem(QStringLiteral("lag"), 0, 0, 8,
                             QStringLiteral(R"j(, "repeat": {"mode": "variable", "value": "topic", "maxPerRow": 3})j")),
                    gridItem(QStringLiteral("heap"), 0, 8, 12,
                             QStringLiteral(R"j(, "conditionalRendering": {"kind": "ConditionalRenderingGroup",
                                 "spec": {"visibility": "show", "condition": "and", "items": []}})j")),
                    gridItem(QStringLiteral("up"), 12, 8), gridItem(QStringLiteral("lib"), 0, 16)}
            .join(QLatin1Char(','));
    const QByteArray json = QStringLiteral(R"j({"apiVersion": "dashboard.grafana.app/v2beta1", "kind": "Dashboard",
      "spec": {"title": "Kafka", "elements": {%1}, "layout": {"kind": "GridLayout", "spec": {"items": [%2]}},
      "variables": [
        {"kind": "CustomVariable", "spec": {"name": "topic", "query": "orders,payments", "current": {"text": ["All"],
          "value": ["$__all"]}, "includeAll": true, "multi": true, "options": [], "hide": "dontHide"}},
        {"kind": "QueryVariable", "spec": {"name": "namespace", "label": "Namespace",
          "current": {"text": "camunda", "value": "camunda"},
          "query": {"kind": "DataQuery", "group": "prometheus", "version": "v0", "datasource": {"name": "prom"},
                    "spec": {"qryType": 1, "query": "label_values(up, namespace)", "refId": "V"}},
          "definition": "label_values(up, namespace)", "refresh": "onDashboardLoad", "regex": "", "sort": "disabled",
          "options": [], "multi": false, "includeAll": false, "hide": "dontHide"}},
        {"kind": "IntervalVariable", "spec": {"name": "window", "query": "1m,5m", "current": {"text": "5m",
          "value": "5m"}, "options": [], "auto": false, "refresh": "onTimeRangeChanged", "hide": "dontHide"}},
        {"kind": "GroupByVariable", "group": "prometheus", "spec": {"name": "by", "current": {"text": "", "value": ""}}}
      ],
      "annotations": [
        {"kind": "AnnotationQuery", "spec": {"name": "Annotations & Alerts", "builtIn": true, "enable": true,
          "hide": true, "iconColor": "blue", "query": {"kind": "DataQuery", "group": "grafana", "version": "v0",
          "spec": {}}}},
        {"kind": "AnnotationQuery", "spec": {"name": "Restarts", "enable": false, "hide": false, "iconColor": "red",
          "query": {"kind": "DataQuery", "group": "prometheus", "version": "v0", "datasource": {"name": "prom"},
                    "spec": {"expr": "increase(restarts_total[2m]) > 0", "refId": "Anno"}},
          "filter": {"ids": [2]},
          "legacyOptions": {"titleFormat": "{{pod}} restarted", "tagKeys": "pod", "step": "30s"}}}
      ]}})j")
                                .arg(elements, items)
                                .toUtf8();
    const Conversion c = convertGrafana(json);
    EXPECT_EQ(titlesOf(c.dashboard), (QStringList{QStringLiteral("Lag of orders"), QStringLiteral("Lag of payments"),
                                                  QStringLiteral("Heap"), QStringLiteral("Up now")}));
    ASSERT_EQ(c.dashboard.panels.size(), 4u);
    EXPECT_EQ(c.dashboard.panels[3].kind, PanelKind::Stat) << "a stat element becomes a stat tile";
    EXPECT_EQ(c.dashboard.panels[1].series.at(0).query, QStringLiteral("lag{topic=\"payments\"}"));

    const auto &v = c.dashboard.variableDefinitions;
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].name, QStringLiteral("topic"));
    EXPECT_EQ(v[0].choices, (QStringList{QStringLiteral("orders"), QStringLiteral("payments")}));
    EXPECT_EQ(v[1].name, QStringLiteral("namespace"));
    EXPECT_EQ(v[1].title, QStringLiteral("Namespace"));
    EXPECT_EQ(v[1].labelName, QStringLiteral("namespace"));
    EXPECT_EQ(v[1].labelMatch, QStringLiteral("up"));
    EXPECT_EQ(v[1].value, QStringLiteral("camunda"));
    EXPECT_EQ(v[2].name, QStringLiteral("window"));
    EXPECT_EQ(v[2].value, QStringLiteral("5m"));

    ASSERT_EQ(c.dashboard.annotationQueries.size(), 1u) << "the built-in one has its counterpart in the app";
    const AnnotationQueryDefinition &restarts = c.dashboard.annotationQueries[0];
    EXPECT_EQ(restarts.name, QStringLiteral("Restarts"));
    EXPECT_EQ(restarts.query, QStringLiteral("increase(restarts_total[2m]) > 0"));
    EXPECT_EQ(restarts.title, QStringLiteral("{{pod}} restarted"));
    EXPECT_EQ(restarts.tagLabels, QStringList{QStringLiteral("pod")});
    EXPECT_EQ(restarts.stepMs, 30'000);
    EXPECT_EQ(restarts.mode, AnnotationQueryDefinition::Mode::Regions);
    EXPECT_TRUE(restarts.hidden);
    EXPECT_EQ(restarts.panels, QStringList{QStringLiteral("Heap")}) << "Grafana's panel id 2 is the Heap panel";

    EXPECT_EQ(
        c.notConverted,
        (QStringList{
            QStringLiteral(
                "panel 'Heap' (timeseries): shown only under conditions in Grafana (conditional rendering); always "
                "shown"),
            QStringLiteral("variable 'topic' (custom): multi-value selection not supported; one value at a time"),
            QStringLiteral("variable 'by' (groupby): variable type not supported"),
            QStringLiteral("panel 'Lag of $topic' (timeseries): repeat for each $topic: one panel for each value "
                           "selected in Grafana (orders, payments), with its value put in"),
            QStringLiteral("panel 'Shared' (library panel): library panels are not part of the export (export "
                           "with \"Export for sharing externally\")")}))
        << linesOf(c.notConverted);
}

// Grafana 12.0's first spelling: the query's kind is the plugin, its data source beside it,
// and a VizConfig's kind is the panel type.
TEST(GrafanaV2Schema, TheV2alpha1SpellingOfQueriesAndPanelTypes)
{
    const QByteArray json = R"j({"apiVersion": "dashboard.grafana.app/v2alpha1", "kind": "Dashboard", "spec": {
      "title": "Alpha", "elements": {"p": {"kind": "Panel", "spec": {"id": 1, "title": "Throughput", "links": [],
        "data": {"kind": "QueryGroup", "spec": {"queries": [
          {"kind": "PanelQuery", "spec": {"refId": "A", "hidden": false,
            "datasource": {"type": "prometheus", "uid": "prom"},
            "query": {"kind": "prometheus", "spec": {"expr": "rate(x_total[$__rate_interval])"}}}},
          {"kind": "PanelQuery", "spec": {"refId": "B", "hidden": true,
            "datasource": {"type": "prometheus", "uid": "prom"}, "query": {"kind": "prometheus", "spec": {"expr": "y"}}}},
          {"kind": "PanelQuery", "spec": {"refId": "C", "hidden": false,
            "datasource": {"type": "loki", "uid": "l"}, "query": {"kind": "loki", "spec": {"expr": "{a=\"b\"}"}}}}],
          "transformations": [{"kind": "reduce", "spec": {"id": "reduce", "options": {}}},
                              {"kind": "organize", "spec": {"id": "organize", "disabled": true, "options": {}}}],
          "queryOptions": {"timeShift": "1h"}}},
        "vizConfig": {"kind": "timeseries", "spec": {"pluginVersion": "12.0.0", "options": {},
          "fieldConfig": {"defaults": {}, "overrides": []}}}}}},
      "layout": {"kind": "GridLayout", "spec": {"items": [{"kind": "GridLayoutItem", "spec": {"x": 0, "y": 0,
        "width": 24, "height": 8, "element": {"kind": "ElementReference", "name": "p"}}}]}},
      "annotations": [{"kind": "AnnotationQuery", "spec": {"name": "Deploys", "enable": true, "hide": false,
        "iconColor": "red", "datasource": {"type": "prometheus", "uid": "prom"},
        "query": {"kind": "prometheus", "spec": {"expr": "changes(deploy[1m]) > 0"}}}}]}})j";
    const Conversion c = convertGrafana(json);
    ASSERT_EQ(c.dashboard.panels.size(), 1u);
    ASSERT_EQ(c.dashboard.panels[0].series.size(), 1u) << "B is hidden and C reads from Loki";
    EXPECT_EQ(c.dashboard.panels[0].series[0].query, QStringLiteral("rate(x_total[$__rate_interval])"));
    EXPECT_EQ(c.dashboard.columns, 1);
    ASSERT_EQ(c.dashboard.annotationQueries.size(), 1u);
    EXPECT_EQ(c.dashboard.annotationQueries[0].query, QStringLiteral("changes(deploy[1m]) > 0"));
    EXPECT_EQ(c.notConverted,
              (QStringList{QStringLiteral("panel 'Throughput' (timeseries): query C: loki data source not supported"),
                           QStringLiteral("panel 'Throughput' (timeseries): transformations (reduce) not supported"),
                           QStringLiteral("panel 'Throughput' (timeseries): time shift 1h not supported")}))
        << linesOf(c.notConverted);
}

TEST(GrafanaV2Schema, AClassicModelInsideAV1ResourceIsReadAsClassic)
{
    const Conversion c = convertGrafana(R"j({"apiVersion": "dashboard.grafana.app/v1beta1", "kind": "Dashboard",
        "metadata": {"name": "x"}, "spec": {"title": "Classic inside",
        "panels": [{"type": "timeseries", "title": "P", "targets": [{"expr": "up"}]}]}})j");
    EXPECT_EQ(c.dashboard.title, QStringLiteral("Classic inside"));
    EXPECT_EQ(titlesOf(c.dashboard), QStringList{QStringLiteral("P")});
}

TEST(GrafanaV2Schema, MalformedPartsAreListedOrRefusedNeverACrash)
{
    const Result<Conversion> noSpec = GrafanaImporter::fromJson(
        R"j({"apiVersion": "dashboard.grafana.app/v2beta1", "kind": "Dashboard", "spec": [1]})j");
    ASSERT_FALSE(noSpec.ok());
    EXPECT_EQ(noSpec.error().message, QStringLiteral("not a Grafana dashboard: \"spec\" is an array, not an object"));

    const Conversion odd = convertGrafana(R"j({"apiVersion": "dashboard.grafana.app/v2beta1", "spec": {
        "elements": {"a": 5, "b": {"kind": "Widget"}, "c": {"kind": "Panel", "spec": {"data": 3, "vizConfig": []}}},
        "layout": {"kind": "RowsLayout", "spec": {"rows": [null, 4, {"spec": {"layout": {"kind": "Masonry"}}},
          {"spec": {"layout": {"kind": "GridLayout", "spec": {"items": [null, {"spec": {"element": {"name": "a"}}},
            {"spec": {"element": {"name": "b"}, "x": -4, "width": 900}}, {"spec": {"element": {"name": "c"}}}]}}}}]}},
        "variables": [null, 3, {"kind": "QueryVariable", "spec": {"name": "v", "query": "label_values(x)"}}],
        "annotations": [null, {"kind": "AnnotationQuery", "spec": {"query": 1, "legacyOptions": []}}],
        "timeSettings": {"from": 3}}})j");
    EXPECT_TRUE(odd.dashboard.panels.empty());
    EXPECT_FALSE(odd.notConverted.isEmpty());
    EXPECT_TRUE(odd.notConverted.contains(QStringLiteral("untitled row: layout kind 'Masonry' not understood; its "
                                                         "panels are left out")))
        << linesOf(odd.notConverted);
}
