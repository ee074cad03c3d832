// SPDX-License-Identifier: GPL-3.0-or-later
// A session stores its dashboard as JSON: what the writer writes, the loader reads back to
// the same definition, without a single issue.
#include "base/durationgrammar.h"
#include "base/format.h"
#include "dashboard/dashboardwriter.h"
#include "dashboard/loader/dashboardloader.h"
#include "loadtester/loadtesterseries.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>
#include <limits>

namespace {

void expectSame(const DashboardDefinition &a, const DashboardDefinition &b)
{
    EXPECT_EQ(a.title, b.title);
    EXPECT_EQ(a.refreshSeconds, b.refreshSeconds);
    EXPECT_EQ(a.windowMs, b.windowMs);
    EXPECT_EQ(a.columns, b.columns);
    ASSERT_EQ(a.variableDefinitions.size(), b.variableDefinitions.size());
    for (std::size_t i = 0; i < a.variableDefinitions.size(); ++i) {
        const VariableDefinition &x = a.variableDefinitions[i];
        const VariableDefinition &y = b.variableDefinitions[i];
        EXPECT_EQ(x.name, y.name) << "variables[" << i << "]";
        EXPECT_EQ(x.title, y.title) << x.name.toStdString();
        EXPECT_EQ(x.value, y.value) << x.name.toStdString();
        EXPECT_EQ(x.choices, y.choices) << x.name.toStdString();
        EXPECT_EQ(x.labelName, y.labelName) << x.name.toStdString();
        EXPECT_EQ(x.labelMatch, y.labelMatch) << x.name.toStdString();
        EXPECT_EQ(x.includeAll, y.includeAll) << x.name.toStdString();
    }
    EXPECT_EQ(a.loadTester.kind, b.loadTester.kind);
    EXPECT_EQ(a.loadTester.adminUrls, b.loadTester.adminUrls);
    EXPECT_EQ(a.loadTester.discoverJob, b.loadTester.discoverJob);
    EXPECT_EQ(a.loadTester.discoverScheme, b.loadTester.discoverScheme);
    EXPECT_EQ(a.loadTester.tokenFile, b.loadTester.tokenFile);
    EXPECT_EQ(a.loadTester.tokenEnv, b.loadTester.tokenEnv);
    EXPECT_EQ(a.kubernetes.context, b.kubernetes.context);
    EXPECT_EQ(a.kubernetes.namespaceName, b.kubernetes.namespaceName);
    EXPECT_EQ(a.kubernetes.workloads, b.kubernetes.workloads);
    ASSERT_EQ(a.kubernetes.knobs.size(), b.kubernetes.knobs.size());
    for (std::size_t i = 0; i < a.kubernetes.knobs.size(); ++i) {
        EXPECT_EQ(a.kubernetes.knobs[i].workload, b.kubernetes.knobs[i].workload) << "knobs[" << i << "]";
        EXPECT_EQ(a.kubernetes.knobs[i].env, b.kubernetes.knobs[i].env) << "knobs[" << i << "]";
        EXPECT_EQ(a.kubernetes.knobs[i].title, b.kubernetes.knobs[i].title) << "knobs[" << i << "]";
    }
    ASSERT_EQ(a.annotationQueries.size(), b.annotationQueries.size());
    for (std::size_t i = 0; i < a.annotationQueries.size(); ++i) {
        const AnnotationQueryDefinition &x = a.annotationQueries[i];
        const AnnotationQueryDefinition &y = b.annotationQueries[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.query, y.query);
        EXPECT_EQ(x.title, y.title);
        EXPECT_EQ(x.text, y.text);
        EXPECT_EQ(x.tagLabels, y.tagLabels);
        EXPECT_EQ(x.stepMs, y.stepMs);
        EXPECT_EQ(x.mode, y.mode) << x.name.toStdString();
        EXPECT_EQ(x.panels, y.panels) << x.name.toStdString();
        EXPECT_EQ(x.hidden, y.hidden) << x.name.toStdString();
    }
    ASSERT_EQ(a.detectors.size(), b.detectors.size());
    for (std::size_t i = 0; i < a.detectors.size(); ++i) {
        const DetectorDefinition &x = a.detectors[i];
        const DetectorDefinition &y = b.detectors[i];
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.series, y.series);
        EXPECT_EQ(x.backlog, y.backlog);
        EXPECT_EQ(x.throughput, y.throughput);
        EXPECT_EQ(x.thresholds, y.thresholds) << "detectors[" << i << "]";
    }
    ASSERT_EQ(a.panels.size(), b.panels.size());
    for (std::size_t p = 0; p < a.panels.size(); ++p) {
        EXPECT_EQ(a.panels[p].title, b.panels[p].title);
        EXPECT_EQ(a.panels[p].unit, b.panels[p].unit);
        EXPECT_EQ(a.panels[p].rightUnit, b.panels[p].rightUnit);
        EXPECT_EQ(a.panels[p].annotationTags, b.panels[p].annotationTags);
        EXPECT_EQ(a.panels[p].kind, b.panels[p].kind) << a.panels[p].title.toStdString();
        ASSERT_EQ(a.panels[p].thresholds.size(), b.panels[p].thresholds.size());
        for (std::size_t t = 0; t < a.panels[p].thresholds.size(); ++t) {
            EXPECT_EQ(a.panels[p].thresholds[t].from, b.panels[p].thresholds[t].from);
            EXPECT_EQ(a.panels[p].thresholds[t].color, b.panels[p].thresholds[t].color);
        }
        ASSERT_EQ(a.panels[p].series.size(), b.panels[p].series.size());
        for (std::size_t s = 0; s < a.panels[p].series.size(); ++s) {
            const SeriesDefinition &x = a.panels[p].series[s];
            const SeriesDefinition &y = b.panels[p].series[s];
            EXPECT_EQ(x.query, y.query);
            EXPECT_EQ(x.loadTester, y.loadTester);
            EXPECT_EQ(x.kubernetes, y.kubernetes);
            EXPECT_EQ(x.workload, y.workload);
            EXPECT_EQ(x.env, y.env);
            EXPECT_EQ(x.id, y.id);
            EXPECT_EQ(x.derive, y.derive);
            EXPECT_EQ(x.deriveInputs, y.deriveInputs);
            EXPECT_EQ(x.legend, y.legend);
            EXPECT_EQ(x.axis, y.axis);
            EXPECT_EQ(x.style, y.style);
            EXPECT_EQ(x.color, y.color);
        }
    }
}

} // namespace

TEST(DashboardWriter, EveryBuiltinDashboardRoundTripsThroughTheLoader)
{
    for (const QString &name : DashboardLoader::builtinNames()) {
        const DashboardDefinition original = DashboardLoader::fromBuiltin(name).dashboard;
        const DashboardLoader::LoadResult back = DashboardLoader::fromJson(DashboardWriter::toJson(original));
        ASSERT_TRUE(back.usable) << name.toStdString();
        EXPECT_TRUE(back.issues.isEmpty())
            << name.toStdString() << ": " << back.issues.value(0).toString().toStdString();
        expectSame(original, back.dashboard);
    }
}

TEST(DashboardWriter, EveryFieldRoundTrips)
{
    DashboardDefinition d;
    d.title = QStringLiteral("All \"fields\" · ünïcode");
    d.refreshSeconds = 7;
    d.windowMs = 5400'000 + 1500;
    d.columns = 3;
    // Not in name order: written as an array, so the toolbar keeps it.
    VariableDefinition ns;
    ns.name = QStringLiteral("namespace");
    ns.title = QStringLiteral("Namespace");
    ns.value = QStringLiteral("prod");
    ns.labelName = QStringLiteral("namespace");
    ns.labelMatch = QStringLiteral("zeebe_broker_info{cluster=\"a\"}");
    VariableDefinition job;
    job.name = QStringLiteral("job");
    job.value = QStringLiteral("starter");
    VariableDefinition partition;
    partition.name = QStringLiteral("partition");
    partition.choices = {QStringLiteral("1"), QStringLiteral("2")};
    partition.value = QStringLiteral(".*");
    partition.includeAll = true;
    d.variableDefinitions = {ns, job, partition};
    d.loadTester.kind = QStringLiteral("starter");
    d.loadTester.adminUrls = {QStringLiteral("http://127.0.0.1:9091"), QStringLiteral("http://10.0.0.2:9091")};
    d.loadTester.tokenFile = QStringLiteral("/run/secrets/admin");
    d.loadTester.tokenEnv = QStringLiteral("STARTER_ADMIN_TOKEN");
    d.loadTester.discoverJob = QStringLiteral("starter");
    d.loadTester.discoverScheme = QStringLiteral("https");
    PanelDefinition panel;
    panel.title = QStringLiteral("Throughput");
    panel.unit = QStringLiteral("ops/s");
    panel.annotationTags = {QStringLiteral("kafka"), QStringLiteral("db")};
    panel.rightUnit = QStringLiteral("%");
    SeriesDefinition query;
    query.query = QStringLiteral("sum(rate(x{job=\"$job\"}[1m]))");
    query.legend = QStringLiteral("{{pod}} sent/s");
    query.axis = AxisSide::Right;
    query.style = SeriesStyle::Area;
    query.color = QStringLiteral("#0072B2");
    SeriesDefinition setPoint;
    setPoint.loadTester = LoadTesterField::Rate;
    setPoint.style = SeriesStyle::Line; // not the step a load tester series gets by default
    query.id = QStringLiteral("sent");
    SeriesDefinition derived;
    derived.derive = QStringLiteral("sent / rate");
    derived.deriveInputs = {{QStringLiteral("sent"), QStringLiteral("sent")},
                            {QStringLiteral("rate"), QStringLiteral("sent")}};
    derived.legend = QStringLiteral("ratio");
    panel.series = {query, setPoint, derived};
    SeriesDefinition second = query;
    second.id.clear();
    SeriesDefinition knob;
    knob.kubernetes = QStringLiteral("env");
    knob.workload = QStringLiteral("starter");
    knob.env = QStringLiteral("RATE");
    knob.style = SeriesStyle::Step;
    PanelDefinition stat{QStringLiteral("Second"), {}, {}, {second, knob}, {}};
    stat.kind = PanelKind::Stat;
    stat.thresholds = {{-std::numeric_limits<double>::infinity(), QStringLiteral("#73BF69")},
                       {0.05, QStringLiteral("#FF9830")},
                       {0.2, QStringLiteral("#F2495C")}};
    d.panels = {panel, stat};
    AnnotationQueryDefinition restarts;
    restarts.name = QStringLiteral("restarts");
    restarts.query = QStringLiteral("increase(kube_pod_container_status_restarts_total{job=\"$job\"}[2m]) > 0");
    restarts.title = QStringLiteral("{{pod}} restarted");
    restarts.text = QStringLiteral("{{value}} times");
    restarts.tagLabels = {QStringLiteral("pod"), QStringLiteral("namespace")};
    restarts.stepMs = 15'000;
    restarts.mode = AnnotationQueryDefinition::Mode::Regions;
    restarts.panels = {QStringLiteral("Second")};
    restarts.hidden = true;
    AnnotationQueryDefinition replicas;
    replicas.name = QStringLiteral("replicas");
    replicas.query = QStringLiteral("kube_deployment_spec_replicas");
    replicas.mode = AnnotationQueryDefinition::Mode::Changes;
    d.annotationQueries = {restarts, replicas};
    d.kubernetes.context = QStringLiteral("chaos-day");
    d.kubernetes.namespaceName = QStringLiteral("$namespace");
    d.kubernetes.workloads = {QStringLiteral("starter"), QStringLiteral("worker")};
    d.kubernetes.knobs = {{QStringLiteral("starter"), QStringLiteral("RATE"), QStringLiteral("rate")},
                          {QStringLiteral("worker"), QStringLiteral("CAPACITY"), {}}};
    DetectorDefinition drop;
    drop.series = QStringLiteral("sent");
    drop.thresholds.dropPercent = 45.5;
    drop.thresholds.dropWithinMs = 90'500;
    drop.thresholds.dropFloor = 0.25;
    DetectorDefinition down;
    down.kind = DetectorDefinition::Kind::TargetDown;
    down.series = QStringLiteral("sent");
    DetectorDefinition backlog;
    backlog.kind = DetectorDefinition::Kind::BacklogGrowsWhileFlat;
    backlog.backlog = QStringLiteral("sent");
    backlog.throughput = QStringLiteral("sent");
    backlog.thresholds.backlogGrowthMs = 150'000;
    backlog.thresholds.flatPercent = 7.5;
    DetectorDefinition above;
    above.kind = DetectorDefinition::Kind::RateAbove;
    above.series = QStringLiteral("sent");
    above.thresholds.rateAbove = 0.2;
    d.detectors = {drop, down, backlog, above};

    const DashboardLoader::LoadResult back = DashboardLoader::fromJson(DashboardWriter::toJson(d));
    ASSERT_TRUE(back.usable);
    EXPECT_TRUE(back.issues.isEmpty()) << back.issues.value(0).toString().toStdString();
    expectSame(d, back.dashboard);
}

TEST(DashboardWriter, TheBuiltinDashboardsLoadWithoutAnIssue)
{
    const QStringList names = DashboardLoader::builtinNames();
    for (const char *name : {"camunda", "prometheus-self", "testbed"})
        EXPECT_TRUE(names.contains(QLatin1String(name))) << name;
    for (const QString &name : names) {
        const DashboardLoader::LoadResult loaded = DashboardLoader::fromBuiltin(name);
        ASSERT_TRUE(loaded.usable) << name.toStdString();
        EXPECT_TRUE(loaded.issues.isEmpty())
            << name.toStdString() << ": " << loaded.issues.value(0).toString().toStdString();
        EXPECT_FALSE(loaded.dashboard.panels.empty()) << name.toStdString();
    }
}

namespace {

// Every key of `written` that `source` has, at the same place: what a file says is not lost
// when a session stores the dashboard (values may be spelled differently: "2s", a built-in
// formula's name written out).
void expectKeysKept(const QJsonValue &source, const QJsonValue &written, const QString &path, QStringList *missing)
{
    if (source.isObject()) {
        const QJsonObject from = source.toObject();
        const QJsonObject to = written.toObject();
        for (auto it = from.begin(); it != from.end(); ++it) {
            const QString keyPath = path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
            if (!to.contains(it.key()))
                missing->append(keyPath);
            else
                expectKeysKept(it.value(), to.value(it.key()), keyPath, missing);
        }
    } else if (source.isArray()) {
        const QJsonArray from = source.toArray();
        const QJsonArray to = written.toArray();
        if (from.size() != to.size()) {
            missing->append(path + QStringLiteral(" (%1 elements written of %2)").arg(to.size()).arg(from.size()));
            return;
        }
        for (qsizetype i = 0; i < from.size(); ++i)
            expectKeysKept(from[i], to[i], path + QStringLiteral("[%1]").arg(i), missing);
    }
}

} // namespace

TEST(DashboardWriter, EveryKeyOfEveryBuiltinFileIsWrittenBack)
{
    for (const QString &name : DashboardLoader::builtinNames()) {
        QFile file(QStringLiteral(":/dashboards/%1.json").arg(name));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << name.toStdString();
        const QJsonObject source = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject written = DashboardWriter::toJsonObject(DashboardLoader::fromBuiltin(name).dashboard);
        QStringList missing;
        expectKeysKept(source, written, {}, &missing);
        EXPECT_TRUE(missing.isEmpty()) << name.toStdString() << " loses "
                                       << missing.join(QStringLiteral(", ")).toStdString();
    }
}

TEST(DashboardWriter, DurationsAreWrittenTheWayTheLoaderReadsThem)
{
    for (qint64 ms :
         {1000LL, 5000LL, 60'000LL, 90'000LL, 3'600'000LL, 5'400'000LL, 86'400'000LL, 1500LL, 3'601'001LL}) {
        const QString text = Format::compactDuration(ms);
        EXPECT_EQ(DurationGrammar::parseMs(text), ms) << text.toStdString();
    }
    EXPECT_EQ(Format::compactDuration(5'400'000), QStringLiteral("1h30m"));
}

TEST(DashboardWriter, KeysThisVersionDoesNotReadAreWrittenBackWhereTheyWere)
{
    // A file from a later Chaoscope (or edited by hand): saving it from here keeps what this
    // version does not know, at the top, in a panel and in a series.
    const QByteArray file = R"json({
      "title": "later",
      "owner": {"team": "zeebe", "oncall": true},
      "panels": [{"title": "Throughput", "headline": true, "collapsed": false,
                  "series": [{"query": "sum(rate(x[1m]))", "id": "x", "hint": "per second"}]}]
    })json";
    const DashboardLoader::LoadResult loaded = DashboardLoader::fromJson(file);
    ASSERT_TRUE(loaded.usable);
    EXPECT_EQ(loaded.issues.size(), 3) << "each unknown key is still said";
    const QJsonObject written = DashboardWriter::toJsonObject(loaded.dashboard);
    EXPECT_EQ(written.value(QStringLiteral("owner")).toObject().value(QStringLiteral("team")).toString(),
              QStringLiteral("zeebe"));
    const QJsonObject panel = written.value(QStringLiteral("panels")).toArray().at(0).toObject();
    EXPECT_TRUE(panel.value(QStringLiteral("headline")).toBool());
    EXPECT_FALSE(panel.value(QStringLiteral("collapsed")).toBool(true));
    EXPECT_EQ(panel.value(QStringLiteral("series")).toArray().at(0).toObject().value(QStringLiteral("hint")).toString(),
              QStringLiteral("per second"));
    // And once more: the same file.
    EXPECT_EQ(DashboardWriter::toJson(DashboardLoader::fromJson(DashboardWriter::toJson(loaded.dashboard)).dashboard),
              DashboardWriter::toJson(loaded.dashboard));
}
