// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonissue.h"
#include "checks/check.h"
#include "dashboard/detectordefinition.h"
#include "dashboard/loadtesterfield.h"
#include "dashboard/thresholdsteps.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

// What a dashboard file describes. Plain values; DashboardModel owns the one live copy.
enum class AxisSide
{
    Left,
    Right
};
enum class SeriesStyle
{
    Line,
    Step,
    Area
};

struct SeriesDefinition
{
    QString query;                                      // PromQL; may use $variables. Empty for a load tester series.
    LoadTesterField loadTester = LoadTesterField::None; // set: drawn from the admin status
    // Set: a Kubernetes workload's value from the cluster's watches: "desired" or "ready"
    // replicas of `workload` (its name), or "env": its env var `env` as a number (a knob).
    // Not queried, as a load tester value.
    QString kubernetes;
    QString workload;
    QString env;
    // The field of its store key (SeriesKey::kubernetes): "ready", or "env/RATE".
    QString kubernetesField() const { return env.isEmpty() ? kubernetes : QStringLiteral("env/") + env; }
    QString id; // a name other series' formulas use: "pending"
    // A derived series: computed on the client from other series of the dashboard (by id),
    // never queried. The formula as the user reads it ("pending / rate"); inputs maps each
    // name in it to a series id (a name without a mapping is itself an id).
    QString derive;
    QMap<QString, QString> deriveInputs;
    QString legend; // template: "{{pod}} sent/s"; empty = the label set
    AxisSide axis = AxisSide::Left;
    SeriesStyle style = SeriesStyle::Line;
    QString color;                // "#RRGGBB"; empty = from the palette (models stay free of QtGui)
    QJsonObject unknownKeys = {}; // keys of the file this version does not read: written back on save
};

// How a panel shows its series: as lines over the window, as a stat tile (the newest value
// of each series as a big number, coloured by its thresholds, over a sparkline of the window
// on the same time axis), or as a heatmap of a histogram's buckets (HeatmapGrid: one row per
// `le` bound, one column per poll step, the colour the rate of observations in the bucket).
enum class PanelKind
{
    Lines,
    Stat,
    Heatmap
};

// How a heatmap spaces its bucket rows: by the logarithm of the bounds (latency buckets grow
// by factors: 5 ms, 10 ms, 25 ms …) or by the bounds themselves.
enum class BucketScale
{
    Log,
    Linear
};

struct PanelDefinition
{
    QString title;
    QString unit;      // left axis unit: "ops/s", "s", "bytes", "%", "" (plain number)
    QString rightUnit; // right axis unit, used when a series is on the right axis
    std::vector<SeriesDefinition> series;
    // An annotation carrying one of these tags is drawn here, and not on the panels that do
    // not declare it; annotations with no tag any panel declares are drawn everywhere.
    QStringList annotationTags;
    PanelKind kind = PanelKind::Lines;
    std::vector<ThresholdStep> thresholds = {}; // a stat's colours, ascending
    BucketScale buckets = BucketScale::Log;     // a heatmap's rows
    bool headline = false;                      // shown in the summary picture of a post drafted from a run
    QJsonObject unknownKeys = {};               // keys of the file this version does not read: written back on save
};

// The load tester a dashboard steers. Tokens are never stored here: only where to read them.
struct LoadTesterDefinition
{
    QString kind;          // "starter", "locust", "k6"; empty = not set in the file
    QStringList adminUrls; // one per replica
    QString discoverJob;   // or: every target of this Prometheus job is a replica
    QString discoverScheme = QStringLiteral("http");
    QString tokenFile;    // a file holding the admin token
    QString tokenEnv;     // or: the environment variable holding it
    double spawnRate = 0; // Locust: users started (or stopped) per second; 0 = a tenth of the change

    bool isSet() const { return !kind.isEmpty() || !adminUrls.isEmpty() || !discoverJob.isEmpty(); }
};

// An env var of a workload the dashboard names as a knob: a load tester configured at start
// (Camunda's starter reads RATE once), changed by a rollout. Shown and set in the Cluster dock.
struct KnobDefinition
{
    QString workload; // the Deployment's or StatefulSet's name
    QString env;      // "RATE"
    QString title;    // "rate"; empty = the env var's name
    QString shownTitle() const { return title.isEmpty() ? env : title; }
};

// The cluster a dashboard watches and steers ("kubernetes": {...}). The kubeconfig is the
// user's (no credential is ever in a dashboard); this picks a context and a namespace, which
// may be a $variable, and says which workloads and env vars matter.
struct KubernetesDefinition
{
    QString context;       // empty = the kubeconfig's current context
    QString namespaceName; // "c8-chaos" or "$namespace"; empty = the context's
    QStringList workloads; // the ones that matter, by name; empty = every one
    std::vector<KnobDefinition> knobs;

    bool isSet() const
    {
        return !context.isEmpty() || !namespaceName.isEmpty() || !workloads.isEmpty() || !knobs.empty();
    }
};

// A PromQL query whose samples become marks on every timeline, as Grafana's annotation
// queries do: a pod restart (`increase(kube_pod_container_status_restarts_total[2m]) > 0`),
// an unready pod, a replica count that changed.
struct AnnotationQueryDefinition
{
    enum class Mode
    {
        Points,  // a mark where a series starts being non-zero
        Regions, // a region while it stays non-zero
        Changes, // a mark each time its value changes, "before → after"
    };
    QString name;          // "restarts": the marks' author, shown as "query: restarts"
    QString query;         // PromQL; may use $variables
    QString title;         // template: "{{pod}} restarted", {{label}} and {{value}}; empty: name and labels
    QString text;          // template of a second part: "title: text"
    QStringList tagLabels; // labels whose values become tags ("tags": ["pod"])
    qint64 stepMs = 0;     // 0: the dashboard's refresh
    Mode mode = Mode::Points;
    QStringList panels;  // titles of the panels its marks are drawn on; empty: every panel
    bool hidden = false; // starts switched off in the toolbar (fetched and recorded all the same)

    static QString modeName(Mode mode)
    {
        return mode == Mode::Regions   ? QStringLiteral("regions")
               : mode == Mode::Changes ? QStringLiteral("changes")
                                       : QStringLiteral("points");
    }
};

// A $variable of the dashboard's queries. Its value is fixed, chosen from a list, or chosen
// from the values Prometheus knows for a label (GET /api/v1/label/<labelName>/values).
struct VariableDefinition
{
    QString name;            // without the $: "namespace"
    QString title;           // shown beside its combo box; empty = the name
    QString value;           // the value queries use now; initially the file's default
    QStringList choices;     // a fixed list to choose from
    QString labelName;       // or: the choices are the values of this label...
    QString labelMatch;      // ...on the series this selector matches (match[]); optional
    bool includeAll = false; // offers "All", which stands for every value (the regex ".*")

    bool isChoosable() const { return !choices.isEmpty() || !labelName.isEmpty(); }
};

struct DashboardDefinition
{
    QString title;
    int refreshSeconds = 5;
    qint64 windowMs = 15LL * 60 * 1000;
    int columns = 2;                                     // panels per grid row
    std::vector<VariableDefinition> variableDefinitions; // in the order the toolbar shows them
    std::vector<PanelDefinition> panels;
    LoadTesterDefinition loadTester;
    KubernetesDefinition kubernetes;
    std::vector<AnnotationQueryDefinition> annotationQueries;
    std::vector<DetectorDefinition> detectors;
    // Steady-state levels: drawn on the panels that show their query or series, judged from
    // the samples drawn (per phase between annotations) in the legend and the phase statistics.
    std::vector<Check> checks;
    QJsonObject unknownKeys = {}; // keys of the file this version does not read: written back on save
};

// One problem found while reading a dashboard file: where and why.
using DashboardIssue = JsonIssue;
