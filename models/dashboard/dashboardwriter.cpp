// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/dashboardwriter.h"

#include "base/format.h"
#include "dashboard/loadtesterfield.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace DashboardWriter {

namespace {

// What this version does not read of a file stays in it when it is saved again: the keys
// the loader kept, unless the writer has one of the same name.
void keepUnknown(QJsonObject &object, const QJsonObject &unknown)
{
    for (auto it = unknown.begin(); it != unknown.end(); ++it)
        if (!object.contains(it.key()))
            object.insert(it.key(), it.value());
}

QJsonObject seriesObject(const SeriesDefinition &series)
{
    QJsonObject object;
    if (!series.id.isEmpty())
        object.insert(QStringLiteral("id"), series.id);
    if (!series.derive.isEmpty()) {
        // The formula as resolved (a built-in name is written out), with every input's series.
        object.insert(QStringLiteral("derive"), series.derive);
        QJsonObject inputs;
        for (auto it = series.deriveInputs.begin(); it != series.deriveInputs.end(); ++it)
            inputs.insert(it.key(), it.value());
        if (!inputs.isEmpty())
            object.insert(QStringLiteral("inputs"), inputs);
    } else if (series.loadTester != LoadTesterField::None) {
        object.insert(QStringLiteral("loadTester"), LoadTesterFields::name(series.loadTester));
    } else if (!series.kubernetes.isEmpty()) {
        object.insert(QStringLiteral("kubernetes"), series.kubernetes);
        object.insert(QStringLiteral("workload"), series.workload);
        if (!series.env.isEmpty())
            object.insert(QStringLiteral("env"), series.env);
    } else {
        object.insert(QStringLiteral("query"), series.query);
    }
    if (!series.legend.isEmpty())
        object.insert(QStringLiteral("legend"), series.legend);
    object.insert(QStringLiteral("axis"),
                  series.axis == AxisSide::Right ? QStringLiteral("right") : QStringLiteral("left"));
    switch (series.style) {
    case SeriesStyle::Line:
        object.insert(QStringLiteral("style"), QStringLiteral("line"));
        break;
    case SeriesStyle::Step:
        object.insert(QStringLiteral("style"), QStringLiteral("step"));
        break;
    case SeriesStyle::Area:
        object.insert(QStringLiteral("style"), QStringLiteral("area"));
        break;
    }
    if (!series.color.isEmpty())
        object.insert(QStringLiteral("color"), series.color);
    keepUnknown(object, series.unknownKeys);
    return object;
}

QJsonObject panelObject(const PanelDefinition &panel)
{
    QJsonArray series;
    for (const SeriesDefinition &definition : panel.series)
        series.append(seriesObject(definition));
    // Units are written even when empty ("a plain number"): a file that says so keeps saying it.
    QJsonObject object{{QStringLiteral("title"), panel.title},
                       {QStringLiteral("unit"), panel.unit},
                       {QStringLiteral("rightUnit"), panel.rightUnit},
                       {QStringLiteral("series"), series}};
    if (panel.kind == PanelKind::Stat)
        object.insert(QStringLiteral("type"), QStringLiteral("stat"));
    if (panel.kind == PanelKind::Heatmap)
        object.insert(QStringLiteral("type"), QStringLiteral("heatmap"));
    if (panel.buckets == BucketScale::Linear)
        object.insert(QStringLiteral("buckets"), QStringLiteral("linear"));
    if (!panel.thresholds.empty()) {
        QJsonArray steps;
        for (const ThresholdStep &step : panel.thresholds) {
            QJsonObject written{{QStringLiteral("color"), step.color}};
            if (std::isfinite(step.from))
                written.insert(QStringLiteral("value"), step.from);
            steps.append(written);
        }
        object.insert(QStringLiteral("thresholds"), steps);
    }
    if (!panel.annotationTags.isEmpty())
        object.insert(QStringLiteral("annotationTags"), QJsonArray::fromStringList(panel.annotationTags));
    if (panel.headline)
        object.insert(QStringLiteral("headline"), true);
    keepUnknown(object, panel.unknownKeys);
    return object;
}

QJsonObject loadTesterObject(const LoadTesterDefinition &loadTester)
{
    QJsonObject object;
    if (!loadTester.kind.isEmpty())
        object.insert(QStringLiteral("kind"), loadTester.kind);
    if (!loadTester.adminUrls.isEmpty())
        object.insert(QStringLiteral("admin"), QJsonArray::fromStringList(loadTester.adminUrls));
    if (!loadTester.discoverJob.isEmpty()) {
        object.insert(QStringLiteral("discover"), QJsonObject{{QStringLiteral("job"), loadTester.discoverJob},
                                                              {QStringLiteral("scheme"), loadTester.discoverScheme}});
    }
    if (!loadTester.tokenFile.isEmpty())
        object.insert(QStringLiteral("tokenFile"), loadTester.tokenFile);
    if (!loadTester.tokenEnv.isEmpty())
        object.insert(QStringLiteral("tokenEnv"), loadTester.tokenEnv);
    if (loadTester.spawnRate > 0)
        object.insert(QStringLiteral("spawnRate"), loadTester.spawnRate);
    return object;
}

QJsonObject kubernetesObject(const KubernetesDefinition &kubernetes)
{
    QJsonObject object;
    if (!kubernetes.context.isEmpty())
        object.insert(QStringLiteral("context"), kubernetes.context);
    if (!kubernetes.namespaceName.isEmpty())
        object.insert(QStringLiteral("namespace"), kubernetes.namespaceName);
    if (!kubernetes.workloads.isEmpty())
        object.insert(QStringLiteral("workloads"), QJsonArray::fromStringList(kubernetes.workloads));
    if (!kubernetes.knobs.empty()) {
        QJsonArray knobs;
        for (const KnobDefinition &knob : kubernetes.knobs) {
            QJsonObject item{{QStringLiteral("workload"), knob.workload}, {QStringLiteral("env"), knob.env}};
            if (!knob.title.isEmpty())
                item.insert(QStringLiteral("title"), knob.title);
            knobs.append(item);
        }
        object.insert(QStringLiteral("knobs"), knobs);
    }
    return object;
}

// Every threshold of the detector's kind, defaults included, under the loader's keys.
QJsonObject detectorObject(const DetectorDefinition &detector)
{
    using Kind = DetectorDefinition::Kind;
    const DetectorThresholds &t = detector.thresholds;
    QJsonObject object{{QStringLiteral("kind"), DetectorDefinition::kindName(detector.kind)}};
    switch (detector.kind) {
    case Kind::ThroughputDrop:
        object.insert(QStringLiteral("series"), detector.series);
        object.insert(QStringLiteral("dropPercent"), t.dropPercent);
        object.insert(QStringLiteral("withinSeconds"), double(t.dropWithinMs) / 1000);
        object.insert(QStringLiteral("floor"), t.dropFloor);
        break;
    case Kind::TargetDown:
        object.insert(QStringLiteral("series"), detector.series);
        break;
    case Kind::BacklogGrowsWhileFlat:
        object.insert(QStringLiteral("backlog"), detector.backlog);
        object.insert(QStringLiteral("throughput"), detector.throughput);
        object.insert(QStringLiteral("minutes"), double(t.backlogGrowthMs) / 60'000);
        object.insert(QStringLiteral("flatPercent"), t.flatPercent);
        break;
    case Kind::RateAbove:
        object.insert(QStringLiteral("series"), detector.series);
        object.insert(QStringLiteral("threshold"), t.rateAbove);
        break;
    }
    return object;
}

// A check under the loader's keys ("holds" in ASCII, durations in milliseconds).
QJsonObject checkObject(const Check &check)
{
    using Op = CheckCondition::Op;
    const Op op = check.condition.op;
    const QString symbol = op == Op::Below    ? QStringLiteral("<")
                           : op == Op::AtMost ? QStringLiteral("<=")
                           : op == Op::Above  ? QStringLiteral(">")
                                              : QStringLiteral(">=");
    QJsonObject object{{QStringLiteral("name"), check.name},
                       {QStringLiteral("holds"),
                        QStringLiteral("%1 %2").arg(symbol, QString::number(check.condition.threshold, 'g', 17))}};
    object.insert(check.query.isEmpty() ? QStringLiteral("series") : QStringLiteral("query"), check.subject());
    if (check.forMs > 0)
        object.insert(QStringLiteral("for"), QStringLiteral("%1ms").arg(check.forMs));
    if (check.graceMs > 0)
        object.insert(QStringLiteral("after"), QStringLiteral("%1ms").arg(check.graceMs));
    if (check.settleMs > 0)
        object.insert(QStringLiteral("settle"), QStringLiteral("%1ms").arg(check.settleMs));
    if (check.severity != Check::Severity::Critical)
        object.insert(QStringLiteral("severity"), Check::severityName(check.severity));
    if (!check.unit.isEmpty())
        object.insert(QStringLiteral("unit"), check.unit);
    if (!check.during.isEmpty())
        object.insert(QStringLiteral("during"), QJsonArray::fromStringList(check.during));
    return object;
}

// A fixed variable as the plain string it was written as; a choosable one as an object with
// its current value as the default, so a session reopens on the value last chosen.
QJsonValue variableValue(const VariableDefinition &variable)
{
    if (!variable.isChoosable() && variable.title.isEmpty() && !variable.includeAll)
        return variable.value;
    QJsonObject object;
    if (!variable.title.isEmpty())
        object.insert(QStringLiteral("title"), variable.title);
    if (!variable.choices.isEmpty())
        object.insert(QStringLiteral("values"), QJsonArray::fromStringList(variable.choices));
    if (!variable.labelName.isEmpty()) {
        QJsonObject labelValues{{QStringLiteral("label"), variable.labelName}};
        if (!variable.labelMatch.isEmpty())
            labelValues.insert(QStringLiteral("match"), variable.labelMatch);
        object.insert(QStringLiteral("labelValues"), labelValues);
    }
    object.insert(QStringLiteral("default"), variable.value);
    if (variable.includeAll)
        object.insert(QStringLiteral("includeAll"), true);
    return object;
}

// An object keyed by name, as people write it, when that keeps the order (a JSON object's
// keys come back sorted); else an array of objects with a "name", which keeps any order.
QJsonValue variablesValue(const std::vector<VariableDefinition> &variables)
{
    const bool sorted =
        std::is_sorted(variables.begin(), variables.end(),
                       [](const VariableDefinition &a, const VariableDefinition &b) { return a.name < b.name; });
    if (sorted) {
        QJsonObject object;
        for (const VariableDefinition &variable : variables)
            object.insert(variable.name, variableValue(variable));
        return object;
    }
    QJsonArray array;
    for (const VariableDefinition &variable : variables) {
        const QJsonValue value = variableValue(variable);
        QJsonObject item = value.isObject() ? value.toObject() : QJsonObject{{QStringLiteral("default"), value}};
        item.insert(QStringLiteral("name"), variable.name);
        array.append(item);
    }
    return array;
}

} // namespace

QJsonObject toJsonObject(const DashboardDefinition &dashboard)
{
    QJsonObject root;
    root.insert(QStringLiteral("title"), dashboard.title);
    root.insert(QStringLiteral("refresh"), Format::compactDuration(qint64(dashboard.refreshSeconds) * 1000));
    root.insert(QStringLiteral("window"), Format::compactDuration(dashboard.windowMs));
    root.insert(QStringLiteral("columns"), dashboard.columns);
    if (!dashboard.variableDefinitions.empty())
        root.insert(QStringLiteral("variables"), variablesValue(dashboard.variableDefinitions));
    if (dashboard.loadTester.isSet() || !dashboard.loadTester.tokenFile.isEmpty() ||
        !dashboard.loadTester.tokenEnv.isEmpty())
        root.insert(QStringLiteral("loadTester"), loadTesterObject(dashboard.loadTester));
    if (dashboard.kubernetes.isSet())
        root.insert(QStringLiteral("kubernetes"), kubernetesObject(dashboard.kubernetes));
    if (!dashboard.annotationQueries.empty()) {
        QJsonArray queries;
        for (const AnnotationQueryDefinition &query : dashboard.annotationQueries) {
            QJsonObject item{{QStringLiteral("name"), query.name},
                             {QStringLiteral("query"), query.query},
                             {QStringLiteral("mode"), AnnotationQueryDefinition::modeName(query.mode)}};
            if (!query.title.isEmpty())
                item.insert(QStringLiteral("title"), query.title);
            if (!query.text.isEmpty())
                item.insert(QStringLiteral("text"), query.text);
            if (!query.tagLabels.isEmpty())
                item.insert(QStringLiteral("tags"), QJsonArray::fromStringList(query.tagLabels));
            if (query.stepMs > 0)
                item.insert(QStringLiteral("step"), Format::compactDuration(query.stepMs));
            if (!query.panels.isEmpty())
                item.insert(QStringLiteral("panels"), QJsonArray::fromStringList(query.panels));
            if (query.hidden)
                item.insert(QStringLiteral("hidden"), true);
            queries.append(item);
        }
        root.insert(QStringLiteral("annotations"), queries);
    }
    QJsonArray panels;
    for (const PanelDefinition &panel : dashboard.panels)
        panels.append(panelObject(panel));
    root.insert(QStringLiteral("panels"), panels);
    if (!dashboard.detectors.empty()) {
        QJsonArray detectors;
        for (const DetectorDefinition &detector : dashboard.detectors)
            detectors.append(detectorObject(detector));
        root.insert(QStringLiteral("detectors"), detectors);
    }
    if (!dashboard.checks.empty()) {
        QJsonArray checks;
        for (const Check &check : dashboard.checks)
            checks.append(checkObject(check));
        root.insert(QStringLiteral("checks"), checks);
    }
    keepUnknown(root, dashboard.unknownKeys);
    return root;
}

QByteArray toJson(const DashboardDefinition &dashboard)
{
    return QJsonDocument(toJsonObject(dashboard)).toJson(QJsonDocument::Indented);
}

} // namespace DashboardWriter
