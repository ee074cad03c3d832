// SPDX-License-Identifier: GPL-3.0-or-later
#include "grafana/grafanaimporter.h"

#include "base/durationgrammar.h"
#include "base/format.h"
#include "base/jsontext.h"
#include "checks/check.h"
#include "dashboard/dashboardvariables.h"
#include "dashboard/dashboardwriter.h"
#include "grafana/grafanacolor.h"
#include "grafana/grafanaunit.h"
#include "grafana/grafanav2schema.h"
#include "grafana/grafanavariables.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace GrafanaImporter {
namespace {

// Grafana's 24-column grid; a legacy row's span is on a 12-column one.
constexpr int kGridColumns = 24;
constexpr int kMaxColumns = 12; // as many as a Chaoscope dashboard may have

// Macros Chaoscope's poller substitutes itself (the step it asks for); any other $__name is
// Grafana's alone.
const QSet<QString> kKeptMacros{QStringLiteral("__rate_interval"), QStringLiteral("__interval")};

// Panels drawn as a stat tile: Grafana's stat, its old singlestat, and a gauge (its value as
// the number, without the dial).
const QSet<QString> kStatTypes{QStringLiteral("stat"), QStringLiteral("singlestat"), QStringLiteral("gauge")};

// Override properties that only change the look (line width, fill, points, legend, tooltip):
// Chaoscope draws its own way. They are named together, in one line per panel, so that
// they do not bury what matters.
const QSet<QString> kCosmeticProperties{
    QStringLiteral("custom.lineWidth"),
    QStringLiteral("custom.fillOpacity"),
    QStringLiteral("custom.lineStyle"),
    QStringLiteral("custom.pointSize"),
    QStringLiteral("custom.showPoints"),
    QStringLiteral("custom.gradientMode"),
    QStringLiteral("custom.lineInterpolation"),
    QStringLiteral("custom.spanNulls"),
    QStringLiteral("custom.axisLabel"),
    QStringLiteral("custom.axisColorMode"),
    QStringLiteral("custom.hideFrom"),
    QStringLiteral("custom.insertNulls"),
    QStringLiteral("custom.barAlignment"),
    QStringLiteral("custom.axisCenteredZero"),
    QStringLiteral("custom.axisGridShow"),
    QStringLiteral("custom.axisWidth"),
    QStringLiteral("decimals"),
    QStringLiteral("links"),
    QStringLiteral("color"),
    QStringLiteral("displayName"),
    QStringLiteral("custom.axisPlacement"),
    QStringLiteral("unit"),
};

// A number, or a number written as a string (old graph panels: "min": "0"); NaN otherwise.
double numberOf(const QJsonValue &value)
{
    if (value.isDouble())
        return value.toDouble();
    bool ok = false;
    const double parsed = value.toString().toDouble(&ok);
    return ok ? parsed : std::nan("");
}

QString formatNumber(double value)
{
    return QString::number(value, 'g', 10);
}

bool isHexColor(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^#[0-9A-Fa-f]{6}$"));
    return hex.match(text).hasMatch();
}

// Where a panel sits on the grid, for the reading order and the column count.
struct Placement
{
    int x = 0;
    int y = 0;
    int width = kGridColumns / 2;
};

Placement placementOf(const QJsonObject &panel)
{
    const QJsonObject grid = panel.value(QStringLiteral("gridPos")).toObject();
    Placement placement;
    placement.x = grid.value(QStringLiteral("x")).toInt();
    placement.y = grid.value(QStringLiteral("y")).toInt();
    placement.width = grid.value(QStringLiteral("w")).toInt(placement.width);
    if (!panel.contains(QStringLiteral("gridPos")) && panel.value(QStringLiteral("span")).isDouble())
        placement.width = panel.value(QStringLiteral("span")).toInt() * 2; // schema before Grafana 5
    placement.width = std::clamp(placement.width, 1, kGridColumns);
    return placement;
}

std::vector<QJsonObject> sortedByPlacement(const QJsonArray &panels)
{
    std::vector<QJsonObject> sorted;
    for (const QJsonValue value : panels) {
        if (value.isObject())
            sorted.push_back(value.toObject());
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const QJsonObject &a, const QJsonObject &b) {
        const Placement pa = placementOf(a), pb = placementOf(b);
        return pa.y != pb.y ? pa.y < pb.y : pa.x < pb.x;
    });
    return sorted;
}

// Where a panel or query reads from.
struct Source
{
    enum class Kind
    {
        Prometheus,
        Default,
        Mixed,
        Other
    };
    Kind kind = Kind::Default;
    QString type; // the plugin type, for the message: "loki"
};

class Converter
{
public:
    explicit Converter(const QJsonObject &dashboard) : m_dashboard(dashboard) {}

    Conversion run()
    {
        Conversion conversion;
        DashboardDefinition &out = conversion.dashboard;
        out.title = m_dashboard.value(QStringLiteral("title")).toString().trimmed();
        if (out.title.isEmpty())
            out.title = QStringLiteral("Imported from Grafana");
        readInputs();
        GrafanaVariables variables = GrafanaVariables::fromTemplating(
            m_dashboard.value(QStringLiteral("templating")).toObject().value(QStringLiteral("list")).toArray());
        m_sourceTypes.insert(variables.dataSourceTypes);
        m_selectedValues = variables.selectedValues;
        out.variableDefinitions = std::move(variables.variables);
        readTime(out);
        for (const QJsonObject &panel : panelsInReadingOrder())
            convertPanel(panel, out);
        out.columns = columnsFromWidths();
        convertAnnotationQueries(out);
        conversion.notConverted = variables.notConverted + m_notConverted;
        return conversion;
    }

private:
    // "[[pod]]" (Grafana's old syntax) and "${pod:regex}" (a format) become "${pod}"; each
    // format dropped is put in `dropped` ("variable format :csv of $pod dropped").
    static QString normalizeVariables(QString expr, QStringList *dropped)
    {
        static const QRegularExpression oldSyntax(QStringLiteral(R"(\[\[([A-Za-z0-9_]+)(?::([A-Za-z0-9_]+))?\]\])"));
        static const QRegularExpression formatted(QStringLiteral(R"(\$\{([A-Za-z0-9_]+):([A-Za-z0-9_]+)\})"));
        for (const QRegularExpression *pattern : {&oldSyntax, &formatted}) {
            QString result;
            qsizetype last = 0;
            for (auto it = pattern->globalMatch(expr); it.hasNext();) {
                const QRegularExpressionMatch match = it.next();
                const QString format = match.captured(2);
                // raw and regex are what a single value gives anyway.
                if (!format.isEmpty() && format != QLatin1String("raw") && format != QLatin1String("regex"))
                    *dropped << QStringLiteral("variable format :%1 of $%2 dropped").arg(format, match.captured(1));
                result += expr.mid(last, match.capturedStart() - last) + QStringLiteral("${%1}").arg(match.captured(1));
                last = match.capturedEnd();
            }
            expr = result + expr.mid(last);
        }
        return expr;
    }

    // The $__ macros of a query Chaoscope does not put in itself ("$__range").
    static QStringList unsupportedMacros(const QString &expr)
    {
        static const QRegularExpression macro(QStringLiteral(R"(\$\{?(__[A-Za-z0-9_]+))"));
        QStringList found;
        for (auto it = macro.globalMatch(expr); it.hasNext();) {
            const QString name = it.next().captured(1);
            const QString spelled = QStringLiteral("$") + name;
            if (!kKeptMacros.contains(name) && !found.contains(spelled))
                found << spelled;
        }
        return found;
    }

    // "__inputs" of an export "for sharing externally": ${DS_PROMETHEUS} and its plugin.
    void readInputs()
    {
        for (const QJsonValue value : m_dashboard.value(QStringLiteral("__inputs")).toArray()) {
            const QJsonObject input = value.toObject();
            if (input.value(QStringLiteral("type")).toString() != QLatin1String("datasource"))
                continue;
            const QString name = input.value(QStringLiteral("name")).toString();
            if (!name.isEmpty())
                m_sourceTypes.insert(QStringLiteral("${%1}").arg(name),
                                     input.value(QStringLiteral("pluginId")).toString());
        }
    }

    static Source fromType(const QString &type)
    {
        if (type.isEmpty())
            return {Source::Kind::Default, {}};
        // Prometheus and the compatible plugins (Amazon Managed Prometheus, ...).
        if (type.contains(QLatin1String("prometheus"), Qt::CaseInsensitive))
            return {Source::Kind::Prometheus, type};
        return {Source::Kind::Other, type};
    }

    Source classifyName(const QString &name) const
    {
        if (name.isEmpty() || name == QLatin1String("default"))
            return {};
        if (name == QLatin1String("-- Mixed --"))
            return {Source::Kind::Mixed, {}};
        if (name == QLatin1String("-- Grafana --") || name == QLatin1String("grafana"))
            return {Source::Kind::Other, QStringLiteral("Grafana")};
        if (name == QLatin1String("-- Dashboard --"))
            return {Source::Kind::Other, QStringLiteral("dashboard")};
        if (const auto it = m_sourceTypes.constFind(name); it != m_sourceTypes.constEnd())
            return fromType(*it);
        // A data source by its name or uid, or a variable we do not know: only its queries
        // can tell, so a query with an "expr" is taken as PromQL.
        return {};
    }

    Source classify(const QJsonValue &dataSource) const
    {
        if (dataSource.isString())
            return classifyName(dataSource.toString());
        if (!dataSource.isObject())
            return {};
        const QJsonObject object = dataSource.toObject();
        const QString type = object.value(QStringLiteral("type")).toString();
        const QString uid = object.value(QStringLiteral("uid")).toString();
        if (type.isEmpty() || type == QLatin1String("datasource") || type.startsWith(QLatin1Char('$')))
            return classifyName(uid.isEmpty() ? type : uid);
        return fromType(type);
    }

    void readTime(DashboardDefinition &out)
    {
        const QJsonValue refresh = m_dashboard.value(QStringLiteral("refresh"));
        if (refresh.isString() && !refresh.toString().isEmpty()) {
            const qint64 ms = DurationGrammar::parseMs(refresh.toString());
            if (ms > 0)
                out.refreshSeconds = int(std::clamp<qint64>((ms + 999) / 1000, 1, 24LL * 3600));
            else
                m_notConverted << QStringLiteral("refresh \"%1\" not understood; refreshing every %2 s")
                                      .arg(refresh.toString())
                                      .arg(out.refreshSeconds);
        }
        const QJsonObject time = m_dashboard.value(QStringLiteral("time")).toObject();
        if (time.isEmpty())
            return;
        const QString from = time.value(QStringLiteral("from")).toString();
        const QString to = time.value(QStringLiteral("to")).toString(QStringLiteral("now"));
        const qint64 windowMs = from.startsWith(QLatin1String("now-")) ? DurationGrammar::parseMs(from.mid(4)) : -1;
        if (windowMs > 0 && to == QLatin1String("now")) {
            out.windowMs = windowMs;
            return;
        }
        m_notConverted
            << QStringLiteral(
                   "time range %1 to %2: only \"now-<duration>\" to \"now\" becomes the live window; using %3")
                   .arg(from, to, Format::compactDuration(out.windowMs));
    }

    // Grafana's reading order: top to bottom, left to right, with the panels of a collapsed
    // row (kept inside it) where the row is. Rows themselves have no counterpart.
    std::vector<QJsonObject> panelsInReadingOrder()
    {
        std::vector<QJsonObject> ordered;
        const QJsonValue legacyRows = m_dashboard.value(QStringLiteral("rows"));
        if (!m_dashboard.contains(QStringLiteral("panels")) && legacyRows.isArray()) {
            for (const QJsonValue row : legacyRows.toArray()) {
                for (const QJsonValue panel : row.toObject().value(QStringLiteral("panels")).toArray()) {
                    if (panel.isObject())
                        ordered.push_back(panel.toObject());
                }
            }
            return ordered;
        }
        for (const QJsonObject &panel : sortedByPlacement(m_dashboard.value(QStringLiteral("panels")).toArray())) {
            if (panel.value(QStringLiteral("type")).toString() != QLatin1String("row")) {
                ordered.push_back(panel);
                continue;
            }
            const QString title = panel.value(QStringLiteral("title")).toString();
            m_notConverted << QStringLiteral("row '%1': rows not supported; its panels are placed in order").arg(title);
            for (const QJsonObject &inner : sortedByPlacement(panel.value(QStringLiteral("panels")).toArray())) {
                if (inner.value(QStringLiteral("type")).toString() == QLatin1String("row"))
                    continue; // Grafana never nests rows; a hand-made file might
                ordered.push_back(inner);
            }
        }
        return ordered;
    }

    static QString describePanel(const QJsonObject &panel)
    {
        QString title = panel.value(QStringLiteral("title")).toString();
        if (title.isEmpty())
            title = QStringLiteral("#%1").arg(panel.value(QStringLiteral("id")).toInt());
        QString type = panel.value(QStringLiteral("type")).toString();
        if (type.isEmpty())
            type = panel.contains(QStringLiteral("libraryPanel")) ? QStringLiteral("library panel")
                                                                  : QStringLiteral("no type");
        return QStringLiteral("panel '%1' (%2)").arg(title, type);
    }

    void convertPanel(const QJsonObject &panel, DashboardDefinition &out)
    {
        const QString where = describePanel(panel);
        const QString type = panel.value(QStringLiteral("type")).toString();
        if (type.isEmpty() && panel.contains(QStringLiteral("libraryPanel"))) {
            m_notConverted << where + QStringLiteral(": library panels are not part of the export (export with "
                                                     "\"Export for sharing externally\")");
            return;
        }
        if (type != QLatin1String("timeseries") && type != QLatin1String("graph") && type != QLatin1String("heatmap") &&
            !kStatTypes.contains(type)) {
            m_notConverted << where + QStringLiteral(": panel type not supported");
            return;
        }
        PanelConverter converter(*this, panel, where);
        std::optional<PanelDefinition> definition = converter.convert();
        m_notConverted << converter.notConverted;
        if (!definition)
            return;
        const QString repeat = panel.value(QStringLiteral("repeat")).toString();
        for (PanelDefinition &copy : repeated(std::move(*definition), repeat, where, out.variableDefinitions)) {
            // The panel's levels judge each of its left-axis queries, as Grafana draws them over
            // every line; the panel shows one line per level.
            for (const Check &level : converter.levels) {
                for (const SeriesDefinition &series : copy.series) {
                    if (series.query.isEmpty() || series.axis != AxisSide::Left)
                        continue;
                    Check check = level;
                    check.name = copy.title;
                    check.query = series.query;
                    out.checks.push_back(std::move(check));
                }
            }
            m_convertedPanels.emplace_back(panel.value(QStringLiteral("id")).toInt(-1), copy.title);
            // A stat tile beside lines is narrow in Grafana; the lines set the columns.
            (copy.kind == PanelKind::Stat ? m_statWidths : m_widths).push_back(placementOf(panel).width);
            out.panels.push_back(std::move(copy));
        }
    }

    // Grafana's repeat draws the panel once per selected value of a variable. Where the file
    // says which values those are, each becomes a panel with its value put in; otherwise the
    // one panel follows the variable chosen in the toolbar.
    std::vector<PanelDefinition> repeated(PanelDefinition panel, const QString &variable, const QString &where,
                                          const std::vector<VariableDefinition> &variables)
    {
        if (variable.isEmpty())
            return {std::move(panel)};
        const QString what = where + QStringLiteral(": repeat for each $%1").arg(variable);
        if (!DashboardVariables::find(variables, variable)) {
            m_notConverted << what + QStringLiteral(": no such variable was converted; shown once");
            return {std::move(panel)};
        }
        const QStringList values = m_selectedValues.value(variable);
        if (values.size() < 2) {
            m_notConverted << what + (values.isEmpty()
                                          ? QStringLiteral(": \"All\" of values only Prometheus knows; shown once, for "
                                                           "the value chosen in the toolbar")
                                          : QStringLiteral(": one value was selected; shown once, for the value chosen "
                                                           "in the toolbar"));
            return {std::move(panel)};
        }
        std::vector<PanelDefinition> copies;
        for (const QString &value : values) {
            VariableDefinition fixed;
            fixed.name = variable;
            fixed.value = value;
            const std::vector<VariableDefinition> one{fixed};
            PanelDefinition copy = panel;
            for (SeriesDefinition &series : copy.series) {
                series.query = DashboardVariables::substitute(series.query, one);
                series.legend = DashboardVariables::substitute(series.legend, one);
            }
            copy.title = DashboardVariables::substitute(panel.title, one);
            if (copy.title == panel.title)
                copy.title = QStringLiteral("%1 (%2)").arg(panel.title, value);
            copies.push_back(std::move(copy));
        }
        m_notConverted << what + QStringLiteral(": one panel for each value selected in Grafana (%1), with its value "
                                                "put in")
                                     .arg(values.join(QStringLiteral(", ")));
        return copies;
    }

    // The most common width of the lines panels (of the stat tiles when there are only
    // those), as panels per row.
    int columnsFromWidths() const
    {
        const std::vector<int> &widths = m_widths.empty() ? m_statWidths : m_widths;
        if (widths.empty())
            return 2;
        std::map<int, int> counts;
        for (int width : widths)
            ++counts[width];
        int best = widths.front();
        for (int width : widths) {
            if (counts[width] > counts[best])
                best = width;
        }
        return std::clamp(int(std::lround(double(kGridColumns) / best)), 1, kMaxColumns);
    }

    // Grafana's annotation queries of a Prometheus data source become Chaoscope's (as
    // regions: Grafana joins consecutive non-zero samples into one); others are listed.
    void convertAnnotationQueries(DashboardDefinition &out)
    {
        const QJsonArray list =
            m_dashboard.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("list")).toArray();
        for (const QJsonValue value : list) {
            const QJsonObject annotation = value.toObject();
            // Grafana's own "Annotations & Alerts" is in every dashboard; Chaoscope has its own.
            if (annotation.value(QStringLiteral("builtIn")).toInt() == 1)
                continue;
            QString name = annotation.value(QStringLiteral("name")).toString().trimmed();
            const QString where = QStringLiteral("annotation query '%1'").arg(name);
            const Source source = classify(annotation.value(QStringLiteral("datasource")));
            const QJsonObject target = annotation.value(QStringLiteral("target")).toObject();
            QString expr = annotation.value(QStringLiteral("expr")).toString().trimmed();
            if (expr.isEmpty())
                expr = target.value(QStringLiteral("expr")).toString().trimmed();
            if (source.kind == Source::Kind::Other || expr.isEmpty()) {
                const QString why = source.kind == Source::Kind::Other && source.type == QLatin1String("Grafana")
                                        ? QStringLiteral("annotations stored in Grafana are not part of the file")
                                    : source.kind == Source::Kind::Other
                                        ? QStringLiteral("%1 data source not supported").arg(source.type)
                                        : QStringLiteral("no PromQL expression");
                m_notConverted << where + QStringLiteral(": ") + why;
                continue;
            }
            QStringList dropped;
            expr = normalizeVariables(expr, &dropped);
            for (const QString &what : dropped)
                m_notConverted << where + QStringLiteral(": ") + what;
            if (const QStringList macros = unsupportedMacros(expr); !macros.isEmpty()) {
                m_notConverted
                    << where + QStringLiteral(": %1 not supported; left out").arg(macros.join(QStringLiteral(", ")));
                continue;
            }
            AnnotationQueryDefinition query;
            query.name = uniqueName(name.isEmpty() ? QStringLiteral("annotation") : name, out.annotationQueries);
            query.query = expr;
            query.mode = AnnotationQueryDefinition::Mode::Regions;
            query.title = annotation.value(QStringLiteral("titleFormat")).toString();
            query.text = annotation.value(QStringLiteral("textFormat")).toString();
            for (const QString &key : annotation.value(QStringLiteral("tagKeys")).toString().split(QLatin1Char(','))) {
                if (!key.trimmed().isEmpty())
                    query.tagLabels << key.trimmed();
            }
            const QString step = annotation.value(QStringLiteral("step")).toString();
            if (!step.isEmpty()) {
                const qint64 ms = DurationGrammar::parseMs(step);
                if (ms >= 1000)
                    query.stepMs = ms;
                else
                    m_notConverted << where +
                                          QStringLiteral(": step \"%1\" not understood; the refresh is used").arg(step);
            }
            // Switched off in Grafana: its toolbar switch starts off here.
            query.hidden = !annotation.value(QStringLiteral("enable")).toBool(true);
            if (annotation.value(QStringLiteral("useValueForTime")).toBool())
                m_notConverted << where + QStringLiteral(": \"series value as timestamp\" not supported; marked where "
                                                         "the value is non-zero");
            readPanelFilter(annotation, where, query);
            out.annotationQueries.push_back(std::move(query));
        }
    }

    // Grafana 10's "filter": {"ids": [...]} shows an annotation on those panels (or, with
    // "exclude", on the others): Chaoscope's "panels", by the converted panels' titles.
    void readPanelFilter(const QJsonObject &annotation, const QString &where, AnnotationQueryDefinition &query)
    {
        const QJsonObject filter = annotation.value(QStringLiteral("filter")).toObject();
        const QJsonArray ids = filter.value(QStringLiteral("ids")).toArray();
        if (ids.isEmpty())
            return;
        QSet<int> chosen;
        for (const QJsonValue id : ids)
            chosen.insert(id.toInt());
        const bool exclude = filter.value(QStringLiteral("exclude")).toBool();
        for (const auto &[id, title] : m_convertedPanels) {
            if (chosen.contains(id) != exclude && !query.panels.contains(title))
                query.panels << title;
        }
        if (query.panels.isEmpty()) {
            m_notConverted << where + QStringLiteral(": shown on panels that were not converted; shown on none");
            query.hidden = true;
        }
    }

    static QString uniqueName(const QString &name, const std::vector<AnnotationQueryDefinition> &queries)
    {
        const auto taken = [&](const QString &candidate) {
            return std::any_of(queries.cbegin(), queries.cend(),
                               [&](const AnnotationQueryDefinition &q) { return q.name == candidate; });
        };
        QString candidate = name;
        for (int n = 2; taken(candidate); ++n)
            candidate = QStringLiteral("%1 (%2)").arg(name).arg(n);
        return candidate;
    }

    // One timeseries or graph panel.
    class PanelConverter
    {
    public:
        PanelConverter(const Converter &dashboard, const QJsonObject &panel, const QString &where)
            : m_dashboard(dashboard), m_panel(panel), m_where(where),
              m_graph(panel.value(QStringLiteral("type")).toString() == QLatin1String("graph")),
              m_singlestat(panel.value(QStringLiteral("type")).toString() == QLatin1String("singlestat")),
              m_stat(kStatTypes.contains(panel.value(QStringLiteral("type")).toString())),
              m_heatmap(panel.value(QStringLiteral("type")).toString() == QLatin1String("heatmap")),
              m_defaults(
                  panel.value(QStringLiteral("fieldConfig")).toObject().value(QStringLiteral("defaults")).toObject())
        {}

        QStringList notConverted;
        // The panel's drawn thresholds as checks, without a query yet: each becomes one check
        // per query of the panel (of each copy of a repeated one).
        std::vector<Check> levels;

        std::optional<PanelDefinition> convert()
        {
            PanelDefinition definition;
            definition.title = m_panel.value(QStringLiteral("title")).toString();
            readTargets(definition);
            if (definition.series.empty()) {
                if (m_otherSources.size() == 1 && m_otherSourcesOnly) {
                    notConverted = QStringList{
                        m_where + QStringLiteral(": %1 data source not supported").arg(*m_otherSources.begin())};
                } else {
                    notConverted << m_where + QStringLiteral(": no Prometheus query to convert; panel left out");
                }
                return std::nullopt;
            }
            if (m_heatmap) {
                readHeatmap(definition);
                listLooks();
                listLook();
                return definition;
            }
            if (m_graph)
                readSeriesOverrides(definition);
            else
                readFieldOverrides(definition);
            applyUnits(definition);
            if (m_stat) {
                definition.kind = PanelKind::Stat;
                if (m_singlestat)
                    readSinglestat(definition);
                else
                    readStat(definition);
            } else {
                listAxisLimits();
                convertThresholds();
            }
            listLooks();
            listLook();
            return definition;
        }

    private:
        void note(const QString &what) { notConverted << m_where + QStringLiteral(": ") + what; }

        void readTargets(PanelDefinition &definition)
        {
            const Source panelSource = m_dashboard.classify(m_panel.value(QStringLiteral("datasource")));
            const SeriesStyle style = panelStyle();
            for (const QJsonValue value : m_panel.value(QStringLiteral("targets")).toArray()) {
                const QJsonObject target = value.toObject();
                if (target.value(QStringLiteral("hide")).toBool())
                    continue; // Grafana does not draw it either
                const QString refId = target.value(QStringLiteral("refId")).toString();
                const QString query = QStringLiteral("query %1").arg(refId.isEmpty() ? QStringLiteral("?") : refId);
                Source source = target.contains(QStringLiteral("datasource"))
                                    ? m_dashboard.classify(target.value(QStringLiteral("datasource")))
                                    : panelSource;
                if (source.kind == Source::Kind::Other) {
                    m_otherSources.insert(source.type);
                    note(QStringLiteral("%1: %2 data source not supported").arg(query, source.type));
                    continue;
                }
                m_otherSourcesOnly = false;
                QString expr = target.value(QStringLiteral("expr")).toString().trimmed();
                if (expr.isEmpty()) {
                    note(query + QStringLiteral(": no PromQL expression"));
                    continue;
                }
                expr = normalizeVariables(expr, query);
                if (const QStringList macros = Converter::unsupportedMacros(expr); !macros.isEmpty()) {
                    note(QStringLiteral(
                             "%1: %2 not supported (only $__rate_interval and $__interval are); query left out")
                             .arg(query, macros.join(QStringLiteral(", "))));
                    continue;
                }
                SeriesDefinition series;
                series.query = expr;
                const QString legend = target.value(QStringLiteral("legendFormat")).toString();
                series.legend = legend == QLatin1String("__auto") ? QString() : legend;
                series.style = style;
                definition.series.push_back(std::move(series));
                m_refIds << refId;
            }
        }

        QString normalizeVariables(const QString &expr, const QString &query)
        {
            QStringList dropped;
            QString normalized = Converter::normalizeVariables(expr, &dropped);
            for (const QString &what : dropped)
                note(query + QStringLiteral(": ") + what);
            return normalized;
        }

        SeriesStyle panelStyle() const
        {
            if (m_graph)
                return m_panel.value(QStringLiteral("steppedLine")).toBool() ? SeriesStyle::Step : SeriesStyle::Line;
            const QString interpolation = m_defaults.value(QStringLiteral("custom"))
                                              .toObject()
                                              .value(QStringLiteral("lineInterpolation"))
                                              .toString();
            return interpolation.startsWith(QLatin1String("step")) ? SeriesStyle::Step : SeriesStyle::Line;
        }

        // Which converted series a Grafana matcher picks: by query (refId), or by a legend
        // that is fixed text (a legend with {{label}} names series only Prometheus knows).
        std::vector<std::size_t> matching(const PanelDefinition &definition, const QString &matcher,
                                          const QString &option) const
        {
            std::vector<std::size_t> indexes;
            const bool isRegex = matcher == QLatin1String("byRegexp") ||
                                 (matcher == QLatin1String("alias") && option.size() > 1 &&
                                  option.startsWith(QLatin1Char('/')) && option.endsWith(QLatin1Char('/')));
            QRegularExpression regex;
            if (isRegex) {
                regex.setPattern(matcher == QLatin1String("alias") ? option.mid(1, option.size() - 2) : option);
                if (!regex.isValid())
                    return indexes;
            }
            for (std::size_t i = 0; i < definition.series.size(); ++i) {
                const QString &legend = definition.series[i].legend;
                const bool fixedLegend = !legend.isEmpty() && !legend.contains(QLatin1String("{{"));
                bool match = false;
                if (matcher == QLatin1String("byFrameRefID"))
                    match = m_refIds.value(qsizetype(i)) == option;
                else if (isRegex)
                    match = fixedLegend && regex.match(legend).hasMatch();
                else if (matcher == QLatin1String("byName") || matcher == QLatin1String("alias"))
                    match = fixedLegend && legend == option;
                if (match)
                    indexes.push_back(i);
            }
            return indexes;
        }

        // fieldConfig.overrides of a timeseries panel: right axis, its unit, colours, names.
        void readFieldOverrides(PanelDefinition &definition)
        {
            const QJsonArray overrides =
                m_panel.value(QStringLiteral("fieldConfig")).toObject().value(QStringLiteral("overrides")).toArray();
            for (const QJsonValue value : overrides) {
                const QJsonObject override = value.toObject();
                const QJsonObject matcher = override.value(QStringLiteral("matcher")).toObject();
                const QString matcherId = matcher.value(QStringLiteral("id")).toString();
                const QString option = matcher.value(QStringLiteral("options")).toString();
                const std::vector<std::size_t> series = matching(definition, matcherId, option);
                const QJsonArray properties = override.value(QStringLiteral("properties")).toArray();
                bool right = false;
                for (const QJsonValue property : properties) {
                    const QJsonObject p = property.toObject();
                    right =
                        right || (p.value(QStringLiteral("id")).toString() == QLatin1String("custom.axisPlacement") &&
                                  p.value(QStringLiteral("value")).toString() == QLatin1String("right"));
                }
                const QString what = QStringLiteral("override for '%1'").arg(option);
                if (series.empty()) {
                    if (right)
                        note(what +
                             QStringLiteral(
                                 " (%1) matches no query by its id or fixed legend; its series stay on the left axis")
                                 .arg(matcherId));
                    continue;
                }
                for (const QJsonValue property : properties) {
                    const QJsonObject p = property.toObject();
                    const QString id = p.value(QStringLiteral("id")).toString();
                    const QJsonValue propertyValue = p.value(QStringLiteral("value"));
                    if (id == QLatin1String("custom.axisPlacement") && right) {
                        for (std::size_t i : series)
                            definition.series[i].axis = AxisSide::Right;
                    } else if (id == QLatin1String("unit")) {
                        if (right)
                            m_rightUnitId = propertyValue.toString();
                        else
                            note(what + QStringLiteral(": a unit of its own (%1) on the left axis not supported")
                                            .arg(propertyValue.toString()));
                    } else if (id == QLatin1String("color")) {
                        const QString color = propertyValue.toObject().value(QStringLiteral("fixedColor")).toString();
                        for (std::size_t i : series) {
                            if (isHexColor(color))
                                definition.series[i].color = color.toUpper();
                        }
                    } else if (id == QLatin1String("displayName")) {
                        for (std::size_t i : series)
                            definition.series[i].legend = propertyValue.toString();
                    } else if (kCosmeticProperties.contains(id)) {
                        const QString look = QStringLiteral("%1 for '%2'").arg(id, option);
                        if (id != QLatin1String("custom.axisPlacement") && !m_overrideLooks.contains(look))
                            m_overrideLooks << look;
                    } else {
                        // stacking, transforms, per-series min/max, thresholds, draw styles …
                        note(what + QStringLiteral(": %1 not supported").arg(id));
                    }
                }
            }
        }

        // seriesOverrides of an old graph panel: {"alias": "backlog", "yaxis": 2, ...}.
        void readSeriesOverrides(PanelDefinition &definition)
        {
            for (const QJsonValue value : m_panel.value(QStringLiteral("seriesOverrides")).toArray()) {
                const QJsonObject override = value.toObject();
                const QString alias = override.value(QStringLiteral("alias")).toString();
                const std::vector<std::size_t> series = matching(definition, QStringLiteral("alias"), alias);
                const bool right = override.value(QStringLiteral("yaxis")).toInt() == 2;
                const QString what = QStringLiteral("series override '%1'").arg(alias);
                if (series.empty()) {
                    if (right)
                        note(what +
                             QStringLiteral(" matches no query's fixed legend; its series stay on the left axis"));
                    continue;
                }
                const QString color = override.value(QStringLiteral("color")).toString();
                for (std::size_t i : series) {
                    if (right)
                        definition.series[i].axis = AxisSide::Right;
                    if (isHexColor(color))
                        definition.series[i].color = color.toUpper();
                }
                if (override.contains(QStringLiteral("transform")))
                    note(what + QStringLiteral(": transform %1 not supported")
                                    .arg(override.value(QStringLiteral("transform")).toString()));
                if (override.value(QStringLiteral("stack")).toBool())
                    note(what + QStringLiteral(": stacking not supported"));
            }
        }

        // Left and right units; a multiple of a unit Chaoscope knows scales the query.
        void applyUnits(PanelDefinition &definition)
        {
            const QJsonArray yaxes = m_panel.value(QStringLiteral("yaxes")).toArray();
            const QString leftId = m_graph        ? yaxes.at(0).toObject().value(QStringLiteral("format")).toString()
                                   : m_singlestat ? m_panel.value(QStringLiteral("format")).toString()
                                                  : m_defaults.value(QStringLiteral("unit")).toString();
            QString rightId =
                m_graph ? yaxes.at(1).toObject().value(QStringLiteral("format")).toString() : m_rightUnitId;
            if (!m_graph && rightId.isEmpty())
                rightId = leftId; // a timeseries panel's right axis shares the panel's unit
            const GrafanaUnit left = unitFor(leftId, QStringLiteral("unit"));
            const bool anyRight = std::any_of(definition.series.begin(), definition.series.end(),
                                              [](const SeriesDefinition &s) { return s.axis == AxisSide::Right; });
            const GrafanaUnit right = anyRight ? unitFor(rightId, QStringLiteral("right axis unit")) : GrafanaUnit{};
            definition.unit = left.unit;
            definition.rightUnit = anyRight ? right.unit : QString();
            m_leftFactor = left.factor;
            for (SeriesDefinition &series : definition.series)
                series.query = (series.axis == AxisSide::Right ? right : left).scaleQuery(series.query);
        }

        GrafanaUnit unitFor(const QString &id, const QString &what)
        {
            GrafanaUnit unit = GrafanaUnit::fromId(id);
            if (!unit.known)
                note(QStringLiteral("%1 '%2' not supported; shown as a plain number").arg(what, id));
            return unit;
        }

        // Chaoscope scales each axis to its data (from 0 when the data never goes negative),
        // so a minimum of 0 is what it does anyway.
        void listAxisLimits()
        {
            const QJsonObject axis =
                m_graph ? m_panel.value(QStringLiteral("yaxes")).toArray().at(0).toObject() : m_defaults;
            QStringList limits;
            const double min = numberOf(axis.value(QStringLiteral("min")));
            const double max = numberOf(axis.value(QStringLiteral("max")));
            if (std::isfinite(min) && min != 0)
                limits << QStringLiteral("minimum %1").arg(formatNumber(min));
            if (std::isfinite(max))
                limits << QStringLiteral("maximum %1").arg(formatNumber(max));
            if (!limits.isEmpty())
                note(QStringLiteral("axis %1 not supported; the axis follows the data")
                         .arg(limits.join(QStringLiteral(" and "))));
        }

        // Thresholds count only where Grafana draws them: every timeseries panel carries the
        // default steps (green, red at 80), shown only with a thresholdsStyle other than "off".
        // Drawn ones become checks on the panel's left axis (in its unit): a graph panel's
        // "gt" level is broken above it, "lt" below; a timeseries' steps are broken where
        // they leave a green base (a red step critical, another colour a warning), or held
        // from the first green step up when the base is red. Steps that say neither are listed.
        void convertThresholds()
        {
            const QString title = m_panel.value(QStringLiteral("title")).toString().trimmed();
            const auto level = [&](CheckCondition::Op op, double value, Check::Severity severity) {
                Check check;
                check.name = title.isEmpty() ? QStringLiteral("threshold") : title;
                check.condition = {op, value * m_leftFactor};
                check.severity = severity;
                levels.push_back(check);
            };
            QStringList unconverted;
            if (m_graph) {
                for (const QJsonValue threshold : m_panel.value(QStringLiteral("thresholds")).toArray()) {
                    const QJsonObject object = threshold.toObject();
                    const double value = numberOf(object.value(QStringLiteral("value")));
                    const QString op = object.value(QStringLiteral("op")).toString();
                    const QString mode = object.value(QStringLiteral("colorMode")).toString();
                    if (!std::isfinite(value) || (op != QLatin1String("gt") && op != QLatin1String("lt")) ||
                        (mode != QLatin1String("critical") && mode != QLatin1String("warning"))) {
                        unconverted << (std::isfinite(value) ? formatNumber(value) : QStringLiteral("?"));
                        continue;
                    }
                    level(op == QLatin1String("gt") ? CheckCondition::Op::AtMost : CheckCondition::Op::AtLeast, value,
                          mode == QLatin1String("critical") ? Check::Severity::Critical : Check::Severity::Warning);
                }
            } else {
                const QString mode = m_defaults.value(QStringLiteral("custom"))
                                         .toObject()
                                         .value(QStringLiteral("thresholdsStyle"))
                                         .toObject()
                                         .value(QStringLiteral("mode"))
                                         .toString();
                if (mode.isEmpty() || mode == QLatin1String("off"))
                    return;
                const QJsonObject thresholds = m_defaults.value(QStringLiteral("thresholds")).toObject();
                const QJsonArray steps = thresholds.value(QStringLiteral("steps")).toArray();
                const bool percentage =
                    thresholds.value(QStringLiteral("mode")).toString() == QLatin1String("percentage");
                const auto isGreen = [](const QJsonValue &step) {
                    return step.toObject().value(QStringLiteral("color")).toString().contains(QLatin1String("green"));
                };
                const auto isRed = [](const QJsonValue &step) {
                    return step.toObject().value(QStringLiteral("color")).toString().contains(QLatin1String("red"));
                };
                const bool greenBase = !steps.isEmpty() && isGreen(steps.first());
                const bool redBase = !steps.isEmpty() && isRed(steps.first());
                bool greenSeen = false;
                for (qsizetype i = 1; i < steps.size(); ++i) {
                    const double value = numberOf(steps[i].toObject().value(QStringLiteral("value")));
                    if (!std::isfinite(value))
                        continue;
                    if (!percentage && greenBase && !isGreen(steps[i])) {
                        level(CheckCondition::Op::Below, value,
                              isRed(steps[i]) ? Check::Severity::Critical : Check::Severity::Warning);
                    } else if (!percentage && redBase && isGreen(steps[i]) && !greenSeen) {
                        greenSeen = true;
                        level(CheckCondition::Op::AtLeast, value, Check::Severity::Critical);
                    } else {
                        unconverted << formatNumber(value);
                    }
                }
            }
            if (!unconverted.isEmpty())
                note(QStringLiteral("thresholds (%1) not converted: their colours do not say which side is good")
                         .arg(unconverted.join(QStringLiteral(", "))));
        }

        // What changes what a reader concludes (stacked sums, bars, shifted or own time
        // ranges, repeats, transformations); colours and line widths are not listed.
        void listLooks()
        {
            const QJsonObject custom = m_defaults.value(QStringLiteral("custom")).toObject();
            const QString stacking =
                custom.value(QStringLiteral("stacking")).toObject().value(QStringLiteral("mode")).toString();
            if ((!stacking.isEmpty() && stacking != QLatin1String("none")) ||
                m_panel.value(QStringLiteral("stack")).toBool())
                note(QStringLiteral("stacking not supported; series are drawn unstacked"));
            const QString drawStyle = custom.value(QStringLiteral("drawStyle")).toString();
            if (drawStyle == QLatin1String("bars") || drawStyle == QLatin1String("points"))
                note(QStringLiteral("draw style '%1' not supported; drawn as lines").arg(drawStyle));
            if (m_graph && m_panel.value(QStringLiteral("bars")).toBool() &&
                !m_panel.value(QStringLiteral("lines")).toBool(true))
                note(QStringLiteral("bars not supported; drawn as lines"));
            if (m_graph && m_panel.value(QStringLiteral("percentage")).toBool())
                note(QStringLiteral("percentage stacking not supported"));
            QStringList transformations;
            for (const QJsonValue t : m_panel.value(QStringLiteral("transformations")).toArray())
                transformations << t.toObject().value(QStringLiteral("id")).toString();
            if (!transformations.isEmpty())
                note(QStringLiteral("transformations (%1) not supported")
                         .arg(transformations.join(QStringLiteral(", "))));
            if (const QString shift = m_panel.value(QStringLiteral("timeShift")).toString(); !shift.isEmpty())
                note(QStringLiteral("time shift %1 not supported").arg(shift));
            if (const QString from = m_panel.value(QStringLiteral("timeFrom")).toString(); !from.isEmpty())
                note(QStringLiteral("a time range of its own (%1) not supported; the dashboard's window is used")
                         .arg(from));
            if (const QString interval = m_panel.value(QStringLiteral("interval")).toString(); !interval.isEmpty())
                note(QStringLiteral("a minimum step of its own (%1) not supported; the step follows the window")
                         .arg(interval));
            if (!m_defaults.value(QStringLiteral("mappings")).toArray().isEmpty())
                note(QStringLiteral("value mappings not supported; values are shown as numbers"));
            const QString scale = m_defaults.value(QStringLiteral("custom"))
                                      .toObject()
                                      .value(QStringLiteral("scaleDistribution"))
                                      .toObject()
                                      .value(QStringLiteral("type"))
                                      .toString();
            if (!m_heatmap && ((!scale.isEmpty() && scale != QLatin1String("linear")) ||
                               (m_graph && m_panel.value(QStringLiteral("yaxes"))
                                                   .toArray()
                                                   .at(0)
                                                   .toObject()
                                                   .value(QStringLiteral("logBase"))
                                                   .toInt(1) > 1)))
                note(QStringLiteral("logarithmic axis not supported; drawn on a linear one"));
        }

        // A heatmap of a histogram's buckets: its series are the `_bucket` series by `le`, and
        // its unit is the bounds' (the y axis'), not the values'. Grafana's own bucketing of
        // raw values ("calculate") has no counterpart: the series must be buckets already.
        void readHeatmap(PanelDefinition &definition)
        {
            definition.kind = PanelKind::Heatmap;
            const QJsonObject options = m_panel.value(QStringLiteral("options")).toObject();
            const QJsonObject yAxis = m_panel.value(QStringLiteral("yAxis")).toObject(); // the old heatmap's
            const QString unitId =
                options.contains(QStringLiteral("yAxis"))
                    ? options.value(QStringLiteral("yAxis")).toObject().value(QStringLiteral("unit")).toString()
                    : yAxis.value(QStringLiteral("format")).toString();
            const GrafanaUnit unit = unitFor(unitId, QStringLiteral("bucket unit"));
            if (unit.factor == 1) {
                definition.unit = unit.unit;
            } else if (unit.known) {
                // The bounds are label values: they cannot be scaled as a query's values are.
                note(QStringLiteral("bucket bounds in '%1' shown as plain numbers").arg(unitId));
            }
            if (options.value(QStringLiteral("calculate")).toBool() ||
                (m_panel.contains(QStringLiteral("dataFormat")) &&
                 m_panel.value(QStringLiteral("dataFormat")).toString() != QLatin1String("tsbuckets")))
                note(QStringLiteral("buckets computed by Grafana from raw values not supported; the series must be a "
                                    "histogram's buckets (an `le` label each)"));
            bool bucketsOnly = true;
            for (const QJsonValue value : m_panel.value(QStringLiteral("targets")).toArray()) {
                const QJsonObject target = value.toObject();
                if (!target.value(QStringLiteral("hide")).toBool() &&
                    target.value(QStringLiteral("format")).toString() != QLatin1String("heatmap") &&
                    !target.value(QStringLiteral("expr")).toString().contains(QLatin1String("_bucket")))
                    bucketsOnly = false;
            }
            if (!bucketsOnly)
                note(QStringLiteral("a query that is not a histogram's buckets draws nothing in the heatmap"));
            // `increase(…_bucket[$__interval])` counts one step; at a step of one scrape its
            // range holds a single sample and Prometheus returns nothing, so the heatmap stays
            // empty. The rate interval always holds two: the colours and each bucket's share
            // stay the same, only the counts are over the longer range.
            const QString stepRange = QStringLiteral("[$__interval]");
            bool widened = false;
            for (SeriesDefinition &series : definition.series) {
                if (series.query.contains(stepRange)) {
                    series.query.replace(stepRange, QStringLiteral("[$__rate_interval]"));
                    widened = true;
                }
            }
            if (widened)
                note(QStringLiteral("[$__interval] replaced by [$__rate_interval]: a range of one step holds a single "
                                    "scrape at short steps and draws nothing; the colours and shares are the same, "
                                    "the counts are over the longer range"));
            // Grafana spaces the rows of bucket data evenly; Chaoscope by the log of the bounds
            // (the default), which is nearly even for the usual 1-2.5-5 bounds and keeps the
            // distances readable.
            const QJsonObject color = options.value(QStringLiteral("color")).toObject();
            const QString scheme = color.value(QStringLiteral("scheme"))
                                       .toString(m_panel.value(QStringLiteral("color"))
                                                     .toObject()
                                                     .value(QStringLiteral("colorScheme"))
                                                     .toString());
            if (!scheme.isEmpty() && !scheme.contains(QLatin1String("Oranges"), Qt::CaseInsensitive))
                m_extraLooks << QStringLiteral("colour scheme %1 (drawn in oranges)").arg(scheme);
            if (color.value(QStringLiteral("scale")).toString() == QLatin1String("linear") ||
                m_panel.value(QStringLiteral("color")).toObject().value(QStringLiteral("colorScale")).toString() ==
                    QLatin1String("linear"))
                m_extraLooks << QStringLiteral("a linear colour scale (a square-root one here)");
        }

        // A stat's (or gauge's) threshold steps become the tile's colours; what it reduces the
        // window to, its colour mode and its sparkline are compared with what the tile shows:
        // the newest value, in the step's colour, over a sparkline.
        void readStat(PanelDefinition &definition)
        {
            if (m_panel.value(QStringLiteral("type")).toString() == QLatin1String("gauge"))
                note(QStringLiteral("a gauge is drawn as a stat tile: its value as a number over a sparkline, without "
                                    "the dial"));
            const QJsonObject thresholds = m_defaults.value(QStringLiteral("thresholds")).toObject();
            const QJsonArray steps = thresholds.value(QStringLiteral("steps")).toArray();
            if (thresholds.value(QStringLiteral("mode")).toString() == QLatin1String("percentage") &&
                !steps.isEmpty()) {
                note(QStringLiteral("thresholds in percent of the range not supported; the number keeps the text "
                                    "colour"));
            } else {
                for (const QJsonValue value : steps)
                    addStep(definition, value.toObject().value(QStringLiteral("value")),
                            value.toObject().value(QStringLiteral("color")).toString());
            }
            const QJsonObject options = m_panel.value(QStringLiteral("options")).toObject();
            const QJsonObject reduce = options.value(QStringLiteral("reduceOptions")).toObject();
            const QString calc = reduce.value(QStringLiteral("calcs")).toArray().at(0).toString();
            if (!calc.isEmpty() && calc != QLatin1String("lastNotNull") && calc != QLatin1String("last"))
                note(QStringLiteral("shows the newest value in the window, not its %1").arg(calc));
            if (reduce.value(QStringLiteral("values")).toBool())
                note(QStringLiteral("shows every value in Grafana (\"All values\"); the newest here"));
            const QString colorMode = options.value(QStringLiteral("colorMode")).toString();
            if (colorMode == QLatin1String("none"))
                definition.thresholds.clear(); // Grafana colours nothing either
            else if (colorMode.startsWith(QLatin1String("background")))
                m_extraLooks << QStringLiteral("a coloured background (the number is coloured instead)");
            if (options.value(QStringLiteral("graphMode")).toString() == QLatin1String("none"))
                m_extraLooks << QStringLiteral("no sparkline in Grafana");
        }

        // The old singlestat: "thresholds": "80,90" with three "colors", applied to the value
        // or the background when asked; "valueName" is what it reduces the window to.
        void readSinglestat(PanelDefinition &definition)
        {
            const QString valueName = m_panel.value(QStringLiteral("valueName")).toString(QStringLiteral("avg"));
            if (valueName != QLatin1String("current"))
                note(QStringLiteral("shows the newest value in the window, not its %1").arg(valueName));
            const bool colorValue = m_panel.value(QStringLiteral("colorValue")).toBool();
            const bool colorBackground = m_panel.value(QStringLiteral("colorBackground")).toBool();
            if (colorBackground)
                m_extraLooks << QStringLiteral("a coloured background (the number is coloured instead)");
            if (!m_panel.value(QStringLiteral("sparkline")).toObject().value(QStringLiteral("show")).toBool())
                m_extraLooks << QStringLiteral("no sparkline in Grafana");
            if (!colorValue && !colorBackground)
                return;
            const QJsonArray colors = m_panel.value(QStringLiteral("colors")).toArray();
            QStringList values = m_panel.value(QStringLiteral("thresholds")).toString().split(QLatin1Char(','));
            values.removeAll(QString());
            addStep(definition, QJsonValue(), colors.at(0).toString());
            for (qsizetype i = 0; i < values.size(); ++i)
                addStep(definition, numberOf(values[i].trimmed()), colors.at(i + 1).toString());
        }

        void addStep(PanelDefinition &definition, const QJsonValue &from, const QString &grafanaColor)
        {
            const QString color = GrafanaColor::toHex(grafanaColor);
            const double value =
                from.isNull() || from.isUndefined() ? -std::numeric_limits<double>::infinity() : numberOf(from);
            if (color.isEmpty() || std::isnan(value)) {
                note(QStringLiteral("threshold step %1 '%2' not understood; left out")
                         .arg(from.isDouble() ? formatNumber(from.toDouble()) : from.toString(), grafanaColor));
                return;
            }
            if (!definition.thresholds.empty() && value <= definition.thresholds.back().from)
                return; // Grafana sorts its steps; a repeated value adds nothing
            definition.thresholds.push_back({value, color});
        }

        // What only changes the look: one line per panel, so that it is said without burying
        // what matters. Chaoscope draws plain lines of its own width, without fill or points.
        void listLook()
        {
            QStringList look;
            const QJsonObject custom = m_defaults.value(QStringLiteral("custom")).toObject();
            if (m_graph) {
                if (const int fill = m_panel.value(QStringLiteral("fill")).toInt(1);
                    fill > 0 && m_panel.value(QStringLiteral("lines")).toBool(true))
                    look << QStringLiteral("area fill (fill %1)").arg(fill);
                if (m_panel.value(QStringLiteral("fillGradient")).toInt() > 0)
                    look << QStringLiteral("gradient fill");
                if (const int width = m_panel.value(QStringLiteral("linewidth")).toInt(1); width != 1)
                    look << QStringLiteral("line width %1").arg(width);
                if (m_panel.value(QStringLiteral("points")).toBool())
                    look << QStringLiteral("points");
                if (m_panel.value(QStringLiteral("dashes")).toBool())
                    look << QStringLiteral("dashed lines");
            } else {
                if (const double fill = numberOf(custom.value(QStringLiteral("fillOpacity"))); fill > 0)
                    look << QStringLiteral("area fill (fillOpacity %1)").arg(formatNumber(fill));
                if (const QString gradient = custom.value(QStringLiteral("gradientMode")).toString();
                    !gradient.isEmpty() && gradient != QLatin1String("none"))
                    look << QStringLiteral("%1 gradient").arg(gradient);
                if (const double width = numberOf(custom.value(QStringLiteral("lineWidth")));
                    std::isfinite(width) && width != 1)
                    look << QStringLiteral("line width %1").arg(formatNumber(width));
                if (custom.value(QStringLiteral("showPoints")).toString() == QLatin1String("always"))
                    look << QStringLiteral("points");
                if (const QString dash =
                        custom.value(QStringLiteral("lineStyle")).toObject().value(QStringLiteral("fill")).toString();
                    dash == QLatin1String("dash") || dash == QLatin1String("dot"))
                    look << QStringLiteral("%1ed lines")
                                .arg(dash == QLatin1String("dot") ? QStringLiteral("dott") : QStringLiteral("dash"));
            }
            if (m_defaults.contains(QStringLiteral("decimals")))
                look << QStringLiteral("%1 decimals").arg(m_defaults.value(QStringLiteral("decimals")).toInt());
            look << m_extraLooks << m_overrideLooks;
            if (!look.isEmpty())
                note(QStringLiteral("look not kept (drawn as %1): %2")
                         .arg(m_stat      ? QStringLiteral("a stat tile")
                              : m_heatmap ? QStringLiteral("a heatmap")
                                          : QStringLiteral("plain lines"),
                              look.join(QStringLiteral(", "))));
        }

        const Converter &m_dashboard;
        const QJsonObject m_panel;
        const QString m_where;
        const bool m_graph;
        const bool m_singlestat;
        const bool m_stat; // drawn as a stat tile: stat, singlestat, gauge
        const bool m_heatmap;
        const QJsonObject m_defaults;
        QStringList m_refIds; // of each converted series, for overrides by query
        QString m_rightUnitId;
        double m_leftFactor = 1;     // the left axis's unit scaling: thresholds are in Grafana's unit
        QStringList m_overrideLooks; // "custom.lineWidth for 'errors'"
        QStringList m_extraLooks;    // a stat's: "no sparkline in Grafana"
        QSet<QString> m_otherSources;
        bool m_otherSourcesOnly = true;
    };

    const QJsonObject m_dashboard;
    QHash<QString, QString> m_sourceTypes;        // "${DS_PROMETHEUS}", "$ds" -> "prometheus"
    QHash<QString, QStringList> m_selectedValues; // of each variable, for repeats
    QStringList m_notConverted;
    std::vector<int> m_widths;                              // grid width of each converted lines panel
    std::vector<int> m_statWidths;                          // and of each stat tile
    std::vector<std::pair<int, QString>> m_convertedPanels; // Grafana id and title of each converted panel
};

Error notADashboard(const QString &why)
{
    return Error::make(Error::Kind::Invalid, QStringLiteral("not a Grafana dashboard: %1").arg(why));
}

// Chaoscope's own files also have "panels"; converting one would list every panel as "not
// supported", which hides the real mistake.
bool looksLikeChaoscope(const QJsonArray &panels)
{
    bool anySeries = false;
    for (const QJsonValue value : panels) {
        const QJsonObject panel = value.toObject();
        if (panel.contains(QStringLiteral("type")) || panel.contains(QStringLiteral("targets")))
            return false;
        anySeries = anySeries || panel.contains(QStringLiteral("series"));
    }
    return anySeries;
}

} // namespace

Result<Conversion> fromJson(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("not valid JSON: %1").arg(JsonText::describeError(json, parseError)));
    }
    if (!document.isObject())
        return notADashboard(QStringLiteral("the top level is %1, not an object")
                                 .arg(document.isArray() ? QStringLiteral("an array") : QStringLiteral("empty")));
    QJsonObject dashboard = document.object();
    // The HTTP API's /api/dashboards/uid/<uid> wraps the model: {"dashboard": {...}, "meta": {...}}.
    if (dashboard.contains(QStringLiteral("dashboard")) && !dashboard.contains(QStringLiteral("panels"))) {
        const QJsonValue inner = dashboard.value(QStringLiteral("dashboard"));
        if (!inner.isObject())
            return notADashboard(QStringLiteral("\"dashboard\" is %1, not an object").arg(JsonText::typeName(inner)));
        dashboard = inner.toObject();
    }
    // Grafana 12's dashboard API: the v2 schema, or the classic model in a resource's "spec".
    if (GrafanaV2Schema::isV2(dashboard)) {
        Result<GrafanaV2Schema::Classic> classic = GrafanaV2Schema::toClassic(dashboard);
        if (!classic)
            return classic.error();
        Conversion conversion = Converter(classic->dashboard).run();
        conversion.notConverted = classic->notConverted + conversion.notConverted;
        return conversion;
    }
    if (dashboard.value(QStringLiteral("apiVersion")).toString().startsWith(QLatin1String("dashboard.grafana.app/")) &&
        dashboard.value(QStringLiteral("spec")).isObject())
        dashboard = dashboard.value(QStringLiteral("spec")).toObject();
    const QJsonValue panels = dashboard.value(QStringLiteral("panels"));
    const QJsonValue rows = dashboard.value(QStringLiteral("rows"));
    if (panels.isUndefined() && !rows.isArray())
        return notADashboard(QStringLiteral(
            "it has no \"panels\" (a Grafana dashboard's JSON model has \"panels\" and \"templating\")"));
    if (!panels.isUndefined() && !panels.isArray())
        return notADashboard(QStringLiteral("\"panels\" is %1, not an array").arg(JsonText::typeName(panels)));
    if (looksLikeChaoscope(panels.toArray()))
        return notADashboard(QStringLiteral(
            "its panels have \"series\", not \"type\" and \"targets\": it is a Chaoscope dashboard already "
            "(open it with --dashboard)"));
    return Converter(dashboard).run();
}

} // namespace GrafanaImporter
