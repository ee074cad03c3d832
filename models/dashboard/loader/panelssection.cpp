// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/panelssection.h"

#include "dashboard/loader/variablessection.h"
#include "dashboard/loadtesterfield.h"
#include "store/derivedseries.h"

#include <QJsonArray>
#include <QMap>
#include <QRegularExpression>

namespace {

QString builtinDerivationNames()
{
    QStringList names;
    for (const DerivedSeries::Builtin &b : DerivedSeries::builtins())
        names.append(QString::fromLatin1(b.name));
    return names.join(QStringLiteral(", "));
}

} // namespace

void PanelsSection::read(const QJsonValue &value, std::vector<PanelDefinition> &panels)
{
    const QString path = QStringLiteral("panels");
    if (value.isUndefined()) {
        m_json.issue(path, QStringLiteral("missing; the dashboard has no panels"));
        return;
    }
    if (!value.isArray()) {
        m_json.issue(path, QStringLiteral("must be an array"));
        return;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString panelPath = JsonSection::index(path, i);
        if (!array[i].isObject()) {
            m_json.issue(panelPath, QStringLiteral("must be an object; panel dropped"));
            continue;
        }
        panels.push_back(readPanel(array[i].toObject(), panelPath));
    }
}

PanelDefinition PanelsSection::readPanel(const QJsonObject &object, const QString &path)
{
    PanelDefinition panel;
    panel.unknownKeys = m_json.checkKeys(
        object, path,
        {"title", "type", "thresholds", "buckets", "unit", "rightUnit", "series", "annotationTags", "headline"});
    if (auto title = m_json.readString(object, path, QStringLiteral("title")))
        panel.title = *title;
    if (auto type = m_json.readString(object, path, QStringLiteral("type"))) {
        if (*type == QLatin1String("stat"))
            panel.kind = PanelKind::Stat;
        else if (*type == QLatin1String("heatmap"))
            panel.kind = PanelKind::Heatmap;
        else if (*type != QLatin1String("lines"))
            m_json.issue(JsonSection::join(path, QStringLiteral("type")),
                         QStringLiteral("must be \"lines\", \"stat\" or \"heatmap\"; drawn as lines"));
    }
    // A heatmap's rows: "log" (the default, as latency buckets grow by factors) or "linear".
    if (auto buckets = m_json.readString(object, path, QStringLiteral("buckets"))) {
        if (*buckets == QLatin1String("linear"))
            panel.buckets = BucketScale::Linear;
        else if (*buckets != QLatin1String("log"))
            m_json.issue(JsonSection::join(path, QStringLiteral("buckets")),
                         QStringLiteral("must be \"log\" or \"linear\"; rows spaced by log"));
    }
    readThresholds(object.value(QStringLiteral("thresholds")), JsonSection::join(path, QStringLiteral("thresholds")),
                   panel);
    panel.annotationTags = m_json.readStrings(object, path, QStringLiteral("annotationTags"),
                                              QStringLiteral("tags whose annotations are drawn on this panel"));
    // The panels a post's summary picture shows (File ▸ Export post…).
    if (const QJsonValue headline = object.value(QStringLiteral("headline")); headline.isBool())
        panel.headline = headline.toBool();
    else if (!headline.isUndefined())
        m_json.issue(JsonSection::join(path, QStringLiteral("headline")),
                     QStringLiteral("must be true or false; not a headline panel"));
    if (auto unit = m_json.readString(object, path, QStringLiteral("unit")))
        panel.unit = *unit;
    if (auto rightUnit = m_json.readString(object, path, QStringLiteral("rightUnit")))
        panel.rightUnit = *rightUnit;

    const QString seriesPath = JsonSection::join(path, QStringLiteral("series"));
    const QJsonValue series = object.value(QStringLiteral("series"));
    if (series.isUndefined()) {
        m_json.issue(seriesPath, QStringLiteral("missing; the panel stays empty"));
        return panel;
    }
    if (!series.isArray()) {
        m_json.issue(seriesPath, QStringLiteral("must be an array; the panel stays empty"));
        return panel;
    }
    const QJsonArray array = series.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString itemPath = JsonSection::index(seriesPath, i);
        if (!array[i].isObject()) {
            m_json.issue(itemPath, QStringLiteral("must be an object; series dropped"));
            continue;
        }
        if (auto definition = readSeries(array[i].toObject(), itemPath)) {
            definition->unknownKeys = m_seriesUnknownKeys; // kept when the dashboard is saved again
            panel.series.push_back(std::move(*definition));
        }
    }
    if (panel.series.empty()) {
        m_json.issue(seriesPath, array.isEmpty() ? QStringLiteral("is empty; the panel stays empty")
                                                 : QStringLiteral("no usable series; the panel stays empty"));
    }
    return panel;
}

// [{"color": "#2CA02C"}, {"value": 80, "color": "#D62728"}]: a base colour, then a colour
// from each value up. A step in the wrong place is dropped, with its reason.
void PanelsSection::readThresholds(const QJsonValue &value, const QString &path, PanelDefinition &panel)
{
    if (value.isUndefined())
        return;
    if (!value.isArray()) {
        m_json.issue(path, QStringLiteral("must be an array of {\"value\", \"color\"}"));
        return;
    }
    static const QRegularExpression rgb(QStringLiteral("^#[0-9A-Fa-f]{6}$"));
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString stepPath = JsonSection::index(path, i);
        const QJsonObject step = array[i].toObject();
        if (!array[i].isObject()) {
            m_json.issue(stepPath, QStringLiteral("must be an object; step dropped"));
            continue;
        }
        m_json.checkKeys(step, stepPath, {"value", "color"});
        const QString color = step.value(QStringLiteral("color")).toString();
        if (!rgb.match(color).hasMatch()) {
            m_json.issue(JsonSection::join(stepPath, QStringLiteral("color")),
                         QStringLiteral("must be \"#RRGGBB\"; step dropped"));
            continue;
        }
        ThresholdStep parsed;
        parsed.color = color.toUpper();
        const QJsonValue from = step.value(QStringLiteral("value"));
        if (from.isDouble()) {
            parsed.from = from.toDouble();
        } else if (!from.isUndefined() && !from.isNull()) {
            m_json.issue(JsonSection::join(stepPath, QStringLiteral("value")),
                         QStringLiteral("must be a number; step dropped"));
            continue;
        } else if (!panel.thresholds.empty()) {
            m_json.issue(JsonSection::join(stepPath, QStringLiteral("value")),
                         QStringLiteral("missing: only the first step is the base; step dropped"));
            continue;
        }
        if (!panel.thresholds.empty() && parsed.from <= panel.thresholds.back().from) {
            m_json.issue(JsonSection::join(stepPath, QStringLiteral("value")),
                         QStringLiteral("must be above the step before it; step dropped"));
            continue;
        }
        panel.thresholds.push_back(parsed);
    }
}

void PanelsSection::readLook(const QJsonObject &object, const QString &path, SeriesDefinition &series)
{
    if (auto legend = m_json.readString(object, path, QStringLiteral("legend")))
        series.legend = *legend;

    if (auto axis = m_json.readString(object, path, QStringLiteral("axis"))) {
        const QString side = axis->toLower();
        if (side == QLatin1String("left"))
            series.axis = AxisSide::Left;
        else if (side == QLatin1String("right"))
            series.axis = AxisSide::Right;
        else
            m_json.issue(JsonSection::join(path, QStringLiteral("axis")),
                         QStringLiteral("must be \"left\" or \"right\""));
    }

    if (auto style = m_json.readString(object, path, QStringLiteral("style"))) {
        const QString name = style->toLower();
        if (name == QLatin1String("line"))
            series.style = SeriesStyle::Line;
        else if (name == QLatin1String("step"))
            series.style = SeriesStyle::Step;
        else if (name == QLatin1String("area"))
            series.style = SeriesStyle::Area;
        else
            m_json.issue(JsonSection::join(path, QStringLiteral("style")),
                         QStringLiteral("must be \"line\", \"step\" or \"area\""));
    }

    if (auto color = m_json.readString(object, path, QStringLiteral("color"))) {
        static const QRegularExpression rgb(QStringLiteral("^#[0-9A-Fa-f]{6}$"));
        if (rgb.match(*color).hasMatch())
            series.color = color->toUpper();
        else
            m_json.issue(JsonSection::join(path, QStringLiteral("color")),
                         QStringLiteral("%1 must be \"#RRGGBB\", e.g. \"#0072B2\"; using the palette")
                             .arg(JsonSection::describe(QJsonValue(*color))));
    }
}

// {"derive": "littles_law" | "a / b", "inputs": {"pending": "queueLength", "rate": "completed"}}
std::optional<SeriesDefinition> PanelsSection::readDerived(const QJsonObject &object, const QString &path,
                                                           SeriesDefinition series)
{
    const QString derivePath = JsonSection::join(path, QStringLiteral("derive"));
    const QJsonValue derive = object.value(QStringLiteral("derive"));
    if (!derive.isString() || derive.toString().trimmed().isEmpty()) {
        m_json.issue(derivePath, QStringLiteral("must be a formula such as \"pending / rate\" or a built-in name (%1)")
                                     .arg(builtinDerivationNames()));
        return std::nullopt;
    }
    QString formula = derive.toString().trimmed();
    if (const DerivedSeries::Builtin *builtin = DerivedSeries::builtin(formula)) {
        formula = QString::fromUtf8(builtin->formula);
        if (!object.contains(QStringLiteral("legend")))
            series.legend = QString::fromUtf8(builtin->title);
    }
    const Result<DerivedExpression> expression = DerivedExpression::parse(formula);
    if (!expression) {
        m_json.issue(derivePath, QStringLiteral("%1 (in \"%2\")").arg(expression.error().message, formula));
        return std::nullopt;
    }
    series.derive = formula;
    const QJsonValue inputs = object.value(QStringLiteral("inputs"));
    const QString inputsPath = JsonSection::join(path, QStringLiteral("inputs"));
    if (inputs.isObject()) {
        const QJsonObject map = inputs.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!expression->inputs().contains(it.key()))
                m_json.issue(JsonSection::join(inputsPath, it.key()),
                             QStringLiteral("the formula \"%1\" has no input of that name").arg(formula));
            else if (!it.value().isString())
                m_json.issue(JsonSection::join(inputsPath, it.key()), QStringLiteral("must be the id of a series"));
            else
                series.deriveInputs.insert(it.key(), it.value().toString());
        }
    } else if (!inputs.isUndefined()) {
        m_json.issue(inputsPath, QStringLiteral("must map the formula's names to series ids"));
    }
    for (const QString &name : expression->inputs()) {
        if (!series.deriveInputs.contains(name))
            series.deriveInputs.insert(name, name);
    }
    if (object.contains(QStringLiteral("query")) || object.contains(QStringLiteral("loadTester")))
        m_json.issue(path, QStringLiteral("a derived series has no \"query\" or \"loadTester\"; they are ignored"));
    readLook(object, path, series);
    m_derivedPaths.append(path); // in the order they end up in the dashboard
    return series;
}

std::optional<SeriesDefinition> PanelsSection::readSeries(const QJsonObject &object, const QString &path)
{
    // Keys are checked even when the series is dropped: a typo such as "qeury" is the
    // likely reason the query is missing, and the suggestion says so.
    m_seriesUnknownKeys = m_json.checkKeys(object, path,
                                           {"query", "loadTester", "kubernetes", "workload", "env", "id", "derive",
                                            "inputs", "legend", "axis", "style", "color"});
    SeriesDefinition series;

    const QString queryPath = JsonSection::join(path, QStringLiteral("query"));
    const QJsonValue query = object.value(QStringLiteral("query"));
    const QJsonValue field = object.value(QStringLiteral("loadTester"));
    bool usable = true;
    if (auto id = m_json.readString(object, path, QStringLiteral("id"))) {
        static const QRegularExpression validId(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        if (validId.match(*id).hasMatch())
            series.id = *id;
        else
            m_json.issue(JsonSection::join(path, QStringLiteral("id")),
                         QStringLiteral("%1 is not a name (letters, digits and _, not starting with a digit)")
                             .arg(JsonSection::describe(QJsonValue(*id))));
    }
    if (object.contains(QStringLiteral("derive")))
        return readDerived(object, path, std::move(series));
    const QJsonValue kubernetes = object.value(QStringLiteral("kubernetes"));
    if (!kubernetes.isUndefined()) {
        // A workload's replicas from the cluster's watches (--kubernetes): the set-point a
        // scale changes, beside what Prometheus observed; or an env var read as a number (a
        // knob: the starter's RATE). A step line unless said otherwise.
        series.style = SeriesStyle::Step;
        const QString what = kubernetes.toString();
        if (what != QLatin1String("desired") && what != QLatin1String("ready") && what != QLatin1String("env")) {
            m_json.issue(
                JsonSection::join(path, QStringLiteral("kubernetes")),
                QStringLiteral("%1 must be \"desired\" or \"ready\" (replicas) or \"env\" (an env var's value)")
                    .arg(JsonSection::describe(kubernetes)));
            usable = false;
        }
        const QString workload = object.value(QStringLiteral("workload")).toString().trimmed();
        if (workload.isEmpty()) {
            m_json.issue(JsonSection::join(path, QStringLiteral("workload")),
                         QStringLiteral("missing: the Deployment's or StatefulSet's name"));
            usable = false;
        }
        const QString env = object.value(QStringLiteral("env")).toString().trimmed();
        if (what == QLatin1String("env") && env.isEmpty()) {
            m_json.issue(JsonSection::join(path, QStringLiteral("env")),
                         QStringLiteral("missing: the env var whose value to draw (\"RATE\")"));
            usable = false;
        } else if (what != QLatin1String("env") && object.contains(QStringLiteral("env"))) {
            m_json.issue(JsonSection::join(path, QStringLiteral("env")),
                         QStringLiteral("ignored without \"kubernetes\": \"env\""));
        }
        series.env = what == QLatin1String("env") ? env : QString();
        series.kubernetes = kubernetes.toString();
        series.workload = workload;
        if (!query.isUndefined() || !field.isUndefined())
            m_json.issue(queryPath, QStringLiteral("ignored: a series is a query, a load tester value or a "
                                                   "Kubernetes one"));
        readLook(object, path, series);
        if (!usable)
            return std::nullopt;
        return series;
    }
    for (const char *key : {"workload", "env"}) {
        if (object.contains(QLatin1String(key)))
            m_json.issue(JsonSection::join(path, QLatin1String(key)),
                         QStringLiteral("ignored without \"kubernetes\": \"desired\", \"ready\" or \"env\""));
    }
    if (!field.isUndefined()) {
        // The load tester's own status value, e.g. "rate": the set-point beside the
        // observation. Drawn as a step line unless the file says otherwise.
        const QString fieldPath = JsonSection::join(path, QStringLiteral("loadTester"));
        series.loadTester = LoadTesterFields::fromName(field.toString());
        series.style = SeriesStyle::Step;
        if (series.loadTester == LoadTesterField::None) {
            m_json.issue(fieldPath, QStringLiteral("%1 must be one of \"rate\", \"inflightLimit\", "
                                                   "\"inflight\", \"pending\", \"paused\"")
                                        .arg(JsonSection::describe(field)));
            usable = false;
        }
        if (!query.isUndefined())
            m_json.issue(queryPath, QStringLiteral("ignored: a series is either a query or a load tester value"));
    } else if (query.isUndefined()) {
        m_json.issue(queryPath, QStringLiteral("missing"));
        usable = false;
    } else if (!query.isString()) {
        m_json.issue(queryPath, QStringLiteral("must be a string"));
        usable = false;
    } else if (query.toString().trimmed().isEmpty()) {
        m_json.issue(queryPath, QStringLiteral("is empty"));
        usable = false;
    } else {
        series.query = query.toString().trimmed();
        m_variables.checkQuery(series.query, queryPath);
    }

    readLook(object, path, series);

    if (!usable)
        return std::nullopt;
    return series;
}

void PanelsSection::checkDerivedInputs(DashboardDefinition &dashboard)
{
    QMap<QString, int> idCount;
    for (const PanelDefinition &panel : dashboard.panels) {
        for (const SeriesDefinition &series : panel.series) {
            if (!series.id.isEmpty())
                ++idCount[series.id];
        }
    }
    for (auto it = idCount.begin(); it != idCount.end(); ++it) {
        if (it.value() > 1)
            m_json.issue(QStringLiteral("panels"),
                         QStringLiteral("the series id \"%1\" is used %2 times; formulas use the first")
                             .arg(it.key())
                             .arg(it.value()));
    }
    int derivedIndex = 0;
    for (PanelDefinition &panel : dashboard.panels) {
        for (auto series = panel.series.begin(); series != panel.series.end();) {
            if (series->derive.isEmpty()) {
                ++series;
                continue;
            }
            const QString path = m_derivedPaths.value(derivedIndex++);
            QStringList unknown;
            for (auto input = series->deriveInputs.begin(); input != series->deriveInputs.end(); ++input) {
                if (!idCount.contains(input.value()))
                    unknown.append(input.value());
            }
            if (unknown.isEmpty()) {
                ++series;
                continue;
            }
            m_json.issue(JsonSection::join(path, QStringLiteral("inputs")),
                         QStringLiteral("no series has the id %1 (ids: %2); the derived series is left out")
                             .arg(unknown.join(QStringLiteral(", ")), idCount.isEmpty()
                                                                          ? QStringLiteral("none")
                                                                          : idCount.keys().join(QStringLiteral(", "))));
            series = panel.series.erase(series);
        }
    }
}
