// SPDX-License-Identifier: GPL-3.0-or-later
// The importer held to real dashboards of this field (tests/fixtures/grafana/real/, their
// origins in its README) and to a team's testbed dashboard in both schemas: every time
// series panel with a Prometheus query is converted, every panel, variable and annotation
// query is either converted or named in the list of what was not, and the counts are those
// docs/dashboards.md reports.
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "grafana/grafanaimporter.h"
#include "testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>

namespace {

// What the source file has, read here on its own and not by the importer.
struct SourcePanel
{
    QString title;
    QString type;
    bool prometheusQuery = false; // a visible target with an expr, on no other data source
};

struct Source
{
    std::vector<SourcePanel> panels;
    QStringList variables;
    QStringList annotationQueries; // not Grafana's built-in one
};

QJsonObject readJson(const QString &relative)
{
    QFile file(sourcePath(relative));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << relative.toStdString();
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool otherSource(const QJsonValue &dataSource)
{
    const QString type = dataSource.toObject().value(QStringLiteral("type")).toString();
    return !type.isEmpty() && !type.contains(QLatin1String("prometheus")) && type != QLatin1String("datasource");
}

SourcePanel classicPanel(const QJsonObject &panel)
{
    // An untitled panel is named by its id, as the importer names it.
    QString title = panel.value(QStringLiteral("title")).toString();
    if (title.isEmpty())
        title = QStringLiteral("#%1").arg(panel.value(QStringLiteral("id")).toInt());
    SourcePanel source{title, panel.value(QStringLiteral("type")).toString()};
    for (const QJsonValue target : panel.value(QStringLiteral("targets")).toArray()) {
        const QJsonObject t = target.toObject();
        const QJsonValue dataSource = t.contains(QStringLiteral("datasource"))
                                          ? t.value(QStringLiteral("datasource"))
                                          : panel.value(QStringLiteral("datasource"));
        if (!t.value(QStringLiteral("hide")).toBool() && !t.value(QStringLiteral("expr")).toString().isEmpty() &&
            !otherSource(dataSource))
            source.prometheusQuery = true;
    }
    return source;
}

Source readSource(const QJsonObject &file)
{
    Source source;
    const QJsonObject spec = file.value(QStringLiteral("spec")).toObject();
    if (file.value(QStringLiteral("apiVersion")).toString().contains(QLatin1String("/v2"))) {
        for (const QJsonValue element : spec.value(QStringLiteral("elements")).toObject()) {
            const QJsonObject e = element.toObject().value(QStringLiteral("spec")).toObject();
            const QJsonObject viz = e.value(QStringLiteral("vizConfig")).toObject();
            SourcePanel panel{e.value(QStringLiteral("title")).toString(),
                              viz.value(QStringLiteral("kind")).toString() == QLatin1String("VizConfig")
                                  ? viz.value(QStringLiteral("group")).toString()
                                  : viz.value(QStringLiteral("kind")).toString()};
            const QJsonObject data =
                e.value(QStringLiteral("data")).toObject().value(QStringLiteral("spec")).toObject();
            for (const QJsonValue query : data.value(QStringLiteral("queries")).toArray()) {
                const QJsonObject q = query.toObject().value(QStringLiteral("spec")).toObject();
                const QJsonObject dq = q.value(QStringLiteral("query")).toObject();
                const QString group =
                    dq.value(QStringLiteral("group")).toString(dq.value(QStringLiteral("kind")).toString());
                if (!q.value(QStringLiteral("hidden")).toBool() && group.contains(QLatin1String("prometheus")) &&
                    !dq.value(QStringLiteral("spec")).toObject().value(QStringLiteral("expr")).toString().isEmpty())
                    panel.prometheusQuery = true;
            }
            source.panels.push_back(panel);
        }
        for (const QJsonValue variable : spec.value(QStringLiteral("variables")).toArray())
            source.variables << variable.toObject()
                                    .value(QStringLiteral("spec"))
                                    .toObject()
                                    .value(QStringLiteral("name"))
                                    .toString();
        for (const QJsonValue annotation : spec.value(QStringLiteral("annotations")).toArray()) {
            const QJsonObject a = annotation.toObject().value(QStringLiteral("spec")).toObject();
            if (!a.value(QStringLiteral("builtIn")).toBool())
                source.annotationQueries << a.value(QStringLiteral("name")).toString();
        }
        return source;
    }
    for (const QJsonValue value : file.value(QStringLiteral("panels")).toArray()) {
        const QJsonObject panel = value.toObject();
        if (panel.value(QStringLiteral("type")).toString() != QLatin1String("row")) {
            source.panels.push_back(classicPanel(panel));
            continue;
        }
        for (const QJsonValue inner : panel.value(QStringLiteral("panels")).toArray())
            source.panels.push_back(classicPanel(inner.toObject()));
    }
    for (const QJsonValue row : file.value(QStringLiteral("rows")).toArray())
        for (const QJsonValue panel : row.toObject().value(QStringLiteral("panels")).toArray())
            source.panels.push_back(classicPanel(panel.toObject()));
    for (const QJsonValue variable :
         file.value(QStringLiteral("templating")).toObject().value(QStringLiteral("list")).toArray())
        source.variables << variable.toObject().value(QStringLiteral("name")).toString();
    for (const QJsonValue annotation :
         file.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("list")).toArray()) {
        const QJsonObject a = annotation.toObject();
        if (a.value(QStringLiteral("builtIn")).toInt() != 1)
            source.annotationQueries << a.value(QStringLiteral("name")).toString();
    }
    return source;
}

bool mentioned(const QStringList &notConverted, const QString &prefix)
{
    return std::any_of(notConverted.cbegin(), notConverted.cend(),
                       [&](const QString &line) { return line.startsWith(prefix); });
}

struct Expected
{
    const char *file;
    std::size_t panels, variables, annotationQueries;
};

class RealDashboard : public ::testing::TestWithParam<Expected>
{
};

} // namespace

TEST_P(RealDashboard, NothingIsDroppedWithoutAWordAndEveryPrometheusTimeSeriesIsConverted)
{
    const Expected expected = GetParam();
    const QJsonObject file = readJson(QString::fromUtf8(expected.file));
    const Source source = readSource(file);
    Result<GrafanaImporter::Conversion> result = GrafanaImporter::fromJson(QJsonDocument(file).toJson());
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const GrafanaImporter::Conversion &c = result.value();
    const std::string listed = c.notConverted.join(QLatin1Char('\n')).toStdString();

    QStringList titles;
    for (const PanelDefinition &panel : c.dashboard.panels)
        titles << panel.title;
    for (const SourcePanel &panel : source.panels) {
        const bool converted = titles.contains(panel.title);
        const bool timeSeries = panel.type == QLatin1String("timeseries") || panel.type == QLatin1String("graph");
        if (timeSeries && panel.prometheusQuery) {
            EXPECT_TRUE(converted) << "time series panel '" << panel.title.toStdString() << "' with a Prometheus query";
        }
        if (!converted) {
            EXPECT_TRUE(mentioned(c.notConverted, QStringLiteral("panel '%1' (").arg(panel.title)))
                << "panel '" << panel.title.toStdString() << "' (" << panel.type.toStdString()
                << ") vanished without a word:\n"
                << listed;
        }
    }
    QStringList variables;
    for (const VariableDefinition &variable : c.dashboard.variableDefinitions)
        variables << variable.name;
    for (const QString &name : source.variables)
        EXPECT_TRUE(variables.contains(name) || mentioned(c.notConverted, QStringLiteral("variable '%1' (").arg(name)))
            << "variable " << name.toStdString() << " vanished without a word";
    QStringList queries;
    for (const AnnotationQueryDefinition &query : c.dashboard.annotationQueries)
        queries << query.name;
    for (const QString &name : source.annotationQueries)
        EXPECT_TRUE(queries.contains(name) ||
                    mentioned(c.notConverted, QStringLiteral("annotation query '%1':").arg(name)))
            << "annotation query " << name.toStdString() << " vanished without a word";

    EXPECT_EQ(c.dashboard.panels.size(), expected.panels) << listed;
    EXPECT_EQ(c.dashboard.variableDefinitions.size(), expected.variables) << listed;
    EXPECT_EQ(c.dashboard.annotationQueries.size(), expected.annotationQueries) << listed;

    // And what it wrote opens without a remark.
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromJson(DashboardWriter::toJson(c.dashboard));
    EXPECT_TRUE(loaded.usable);
    EXPECT_TRUE(loaded.issues.isEmpty()) << loaded.issues.value(0).toString().toStdString();
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, RealDashboard,
    ::testing::Values(Expected{"tests/fixtures/grafana/real/k6-prometheus.json", 11, 2, 0},
                      Expected{"tests/fixtures/grafana/real/locust.json", 9, 0, 0},
                      Expected{"tests/fixtures/grafana/real/grafana-v2alpha1-mimir-rollout-debugging.json", 1, 2, 1},
                      Expected{"tests/fixtures/grafana/real/grafana-v2beta1-pulldowns-and-templating.json", 2, 4, 0},
                      Expected{"tests/fixtures/grafana/camunda-grafana.json", 12, 4, 1},
                      Expected{"tests/fixtures/grafana/testbed-classic.json", 8, 0, 2},
                      Expected{"tests/fixtures/grafana/testbed-v2.json", 8, 0, 2}),
    [](const ::testing::TestParamInfo<Expected> &fixture) {
        std::string name = QFileInfo(QString::fromUtf8(fixture.param.file)).baseName().toStdString();
        for (char &c : name)
            if (!std::isalnum(static_cast<unsigned char>(c)))
                c = '_';
        return name;
    });
