// SPDX-License-Identifier: GPL-3.0-or-later
#include "grafana/grafanav2schema.h"

#include "base/jsontext.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <algorithm>
#include <vector>

namespace GrafanaV2Schema {
namespace {

constexpr int kGridColumns = 24;
// An auto grid's cells have no height in the file; the classic model's usual one keeps the
// order without meaning anything else.
constexpr int kAutoGridRowHeight = 8;
constexpr int kAutoGridDefaultColumns = 3; // the schema's default maxColumnCount

QString text(const QJsonObject &object, const QString &key)
{
    return object.value(key).toString();
}

QJsonObject objectAt(const QJsonObject &object, const QString &key)
{
    return object.value(key).toObject();
}

// A query in either spelling. v2beta1 and later: {"kind": "DataQuery", "group": "prometheus",
// "datasource": {"name": "<uid>"}, "spec": {...}}; v2alpha1: {"kind": "prometheus", "spec":
// {...}}, with the data source beside it as {"type", "uid"}.
struct DataQuery
{
    QString type; // the plugin: "prometheus"
    QString uid;  // the data source, or a variable naming one ("${ds}")
    QJsonObject spec;
};

DataQuery readDataQuery(const QJsonObject &query, const QJsonObject &dataSourceBeside)
{
    DataQuery result;
    result.spec = objectAt(query, QStringLiteral("spec"));
    const QString kind = text(query, QStringLiteral("kind"));
    if (kind == QLatin1String("DataQuery")) {
        result.type = text(query, QStringLiteral("group"));
        result.uid = text(objectAt(query, QStringLiteral("datasource")), QStringLiteral("name"));
    } else {
        result.type = kind;
    }
    if (result.type.isEmpty())
        result.type = text(dataSourceBeside, QStringLiteral("type"));
    if (result.uid.isEmpty())
        result.uid = text(dataSourceBeside, QStringLiteral("uid"));
    return result;
}

// The classic {"type", "uid"}; nothing when the query names no source (the default one).
void putDataSource(const DataQuery &query, QJsonObject &into)
{
    QJsonObject source;
    if (!query.type.isEmpty())
        source.insert(QStringLiteral("type"), query.type);
    if (!query.uid.isEmpty())
        source.insert(QStringLiteral("uid"), query.uid);
    if (!source.isEmpty())
        into.insert(QStringLiteral("datasource"), source);
}

// The classic templating type of each variable kind.
QString classicVariableType(const QString &kind)
{
    static const QHash<QString, QString> types{
        {QStringLiteral("QueryVariable"), QStringLiteral("query")},
        {QStringLiteral("CustomVariable"), QStringLiteral("custom")},
        {QStringLiteral("ConstantVariable"), QStringLiteral("constant")},
        {QStringLiteral("TextVariable"), QStringLiteral("textbox")},
        {QStringLiteral("IntervalVariable"), QStringLiteral("interval")},
        {QStringLiteral("DatasourceVariable"), QStringLiteral("datasource")},
        {QStringLiteral("AdhocVariable"), QStringLiteral("adhoc")},
        {QStringLiteral("GroupByVariable"), QStringLiteral("groupby")},
        {QStringLiteral("SwitchVariable"), QStringLiteral("switch")},
    };
    return types.value(kind, kind);
}

QJsonObject classicVariable(const QJsonObject &variable)
{
    const QString kind = text(variable, QStringLiteral("kind"));
    const QJsonObject spec = objectAt(variable, QStringLiteral("spec"));
    QJsonObject classic = spec;
    classic.insert(QStringLiteral("type"), classicVariableType(kind));
    if (kind == QLatin1String("QueryVariable")) {
        // The label_values(...) text is in the query's spec ({"query": ..., "qryType": ...}),
        // as in a classic query variable's object form.
        const DataQuery query =
            readDataQuery(objectAt(spec, QStringLiteral("query")), objectAt(spec, QStringLiteral("datasource")));
        // Grafana's own conversion keeps a classic string query as "__legacyStringValue".
        const QJsonValue legacy = query.spec.value(QStringLiteral("__legacyStringValue"));
        classic.insert(QStringLiteral("query"), legacy.isString() ? legacy : QJsonValue(query.spec));
        classic.remove(QStringLiteral("datasource"));
        putDataSource(query, classic);
    } else if (kind == QLatin1String("DatasourceVariable")) {
        classic.insert(QStringLiteral("query"), text(spec, QStringLiteral("pluginId")));
    }
    return classic;
}

class Translator
{
public:
    explicit Translator(const QJsonObject &spec) : m_spec(spec), m_elements(objectAt(spec, QStringLiteral("elements")))
    {}

    Classic run()
    {
        QJsonObject dashboard;
        dashboard.insert(QStringLiteral("title"), m_spec.value(QStringLiteral("title")));
        readTime(dashboard);
        for (const QJsonValue variable : m_spec.value(QStringLiteral("variables")).toArray())
            addVariable(variable.toObject());
        readAnnotations(dashboard);
        const QJsonValue layout = m_spec.value(QStringLiteral("layout"));
        if (layout.isObject())
            place(layout.toObject(), Section{});
        else if (!m_elements.isEmpty())
            note(QStringLiteral("the dashboard has no \"layout\"; its panels are placed in the order of \"elements\""));
        placeUnplacedElements(layout.isObject());
        dashboard.insert(QStringLiteral("templating"), QJsonObject{{QStringLiteral("list"), m_variables}});
        dashboard.insert(QStringLiteral("panels"), m_panels);
        return Classic{dashboard, m_notes};
    }

private:
    // Where a layout sits, for messages, and the repeat a row or tab passes to its panels.
    struct Section
    {
        QString where;  // "row 'Brokers'"; empty at the top
        QString repeat; // the variable a row or tab repeats by
    };

    void note(const QString &what) { m_notes << what; }

    void readTime(QJsonObject &dashboard) const
    {
        const QJsonObject time = objectAt(m_spec, QStringLiteral("timeSettings"));
        if (time.isEmpty())
            return;
        dashboard.insert(QStringLiteral("time"),
                         QJsonObject{{QStringLiteral("from"), time.value(QStringLiteral("from"))},
                                     {QStringLiteral("to"), time.value(QStringLiteral("to"))}});
        dashboard.insert(QStringLiteral("refresh"), time.value(QStringLiteral("autoRefresh")));
    }

    // A dashboard variable, or one a row or tab declares; the latter become dashboard
    // variables, unless the dashboard already has one of that name.
    bool addVariable(const QJsonObject &variable)
    {
        const QJsonObject classic = classicVariable(variable);
        const QString name = text(classic, QStringLiteral("name"));
        if (!name.isEmpty() && m_variableNames.contains(name))
            return false;
        m_variableNames.insert(name);
        m_variables.append(classic);
        return true;
    }

    void readAnnotations(QJsonObject &dashboard) const
    {
        QJsonArray list;
        for (const QJsonValue value : m_spec.value(QStringLiteral("annotations")).toArray()) {
            const QJsonObject spec = objectAt(value.toObject(), QStringLiteral("spec"));
            // Options of the data source's own (Prometheus: expr, step, titleFormat, tagKeys,
            // textFormat, useValueForTime) sat at the top of a classic annotation.
            QJsonObject classic = objectAt(spec, QStringLiteral("legacyOptions"));
            for (const QString &key : {QStringLiteral("name"), QStringLiteral("enable"), QStringLiteral("hide"),
                                       QStringLiteral("iconColor"), QStringLiteral("filter")}) {
                if (spec.contains(key))
                    classic.insert(key, spec.value(key));
            }
            classic.insert(QStringLiteral("builtIn"), spec.value(QStringLiteral("builtIn")).toBool() ? 1 : 0);
            const DataQuery query =
                readDataQuery(objectAt(spec, QStringLiteral("query")), objectAt(spec, QStringLiteral("datasource")));
            classic.remove(QStringLiteral("datasource"));
            putDataSource(query, classic);
            classic.insert(QStringLiteral("target"), query.spec);
            list.append(classic);
        }
        dashboard.insert(QStringLiteral("annotations"), QJsonObject{{QStringLiteral("list"), list}});
    }

    void place(const QJsonObject &layout, const Section &section)
    {
        const QString kind = text(layout, QStringLiteral("kind"));
        const QJsonObject spec = objectAt(layout, QStringLiteral("spec"));
        if (kind == QLatin1String("GridLayout"))
            placeGrid(spec.value(QStringLiteral("items")).toArray(), section);
        else if (kind == QLatin1String("AutoGridLayout"))
            placeAutoGrid(spec, section);
        else if (kind == QLatin1String("RowsLayout"))
            placeSections(spec.value(QStringLiteral("rows")).toArray(), QStringLiteral("row"), section);
        else if (kind == QLatin1String("TabsLayout"))
            placeSections(spec.value(QStringLiteral("tabs")).toArray(), QStringLiteral("tab"), section);
        else
            note(QStringLiteral("%1layout kind '%2' not understood; its panels are left out")
                     .arg(prefix(section), kind.isEmpty() ? QStringLiteral("(none)") : kind));
    }

    static QString prefix(const Section &section)
    {
        return section.where.isEmpty() ? QString() : section.where + QStringLiteral(": ");
    }

    // Rows and tabs have no counterpart: their panels follow one another, each section's
    // below the last.
    void placeSections(const QJsonArray &sections, const QString &what, const Section &outer)
    {
        for (const QJsonValue value : sections) {
            const QJsonObject spec = objectAt(value.toObject(), QStringLiteral("spec"));
            Section section;
            const QString title = text(spec, QStringLiteral("title"));
            section.where = prefix(outer) + (title.isEmpty() ? QStringLiteral("untitled %1").arg(what)
                                                             : QStringLiteral("%1 '%2'").arg(what, title));
            section.repeat = outer.repeat;
            QStringList notes;
            notes << QStringLiteral("%1s not supported; its panels are placed in order").arg(what);
            const QJsonObject repeat = objectAt(spec, QStringLiteral("repeat"));
            if (const QString by = text(repeat, QStringLiteral("value")); !by.isEmpty()) {
                section.repeat = by;
                notes << QStringLiteral("repeated for each $%1 in Grafana; here each of its panels is repeated on its "
                                        "own")
                             .arg(by);
            }
            noteConditions(spec, &notes);
            QStringList moved;
            for (const QJsonValue variable : spec.value(QStringLiteral("variables")).toArray()) {
                const QString name =
                    text(objectAt(variable.toObject(), QStringLiteral("spec")), QStringLiteral("name"));
                if (addVariable(variable.toObject()))
                    moved << QStringLiteral("$") + name;
                else
                    notes << QStringLiteral("its own $%1 not supported; the dashboard's $%1 is used").arg(name);
            }
            if (!moved.isEmpty())
                notes << QStringLiteral("its variables (%1) are the dashboard's here")
                             .arg(moved.join(QStringLiteral(", ")));
            note(section.where + QStringLiteral(": ") + notes.join(QStringLiteral("; ")));
            const QJsonValue layout = spec.value(QStringLiteral("layout"));
            if (layout.isObject())
                place(layout.toObject(), section);
        }
    }

    static void noteConditions(const QJsonObject &spec, QStringList *notes)
    {
        if (spec.contains(QStringLiteral("conditionalRendering")))
            *notes << QStringLiteral("shown only under conditions in Grafana (conditional rendering); always shown");
    }

    void placeGrid(const QJsonArray &items, const Section &section)
    {
        struct Item
        {
            QJsonObject spec;
            int x = 0, y = 0;
        };
        std::vector<Item> sorted;
        for (const QJsonValue value : items) {
            const QJsonObject spec = objectAt(value.toObject(), QStringLiteral("spec"));
            sorted.push_back({spec, spec.value(QStringLiteral("x")).toInt(), spec.value(QStringLiteral("y")).toInt()});
        }
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const Item &a, const Item &b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
        const int top = m_nextY;
        int bottom = top;
        for (const Item &item : sorted) {
            const int width =
                std::clamp(item.spec.value(QStringLiteral("width")).toInt(kGridColumns / 2), 1, kGridColumns);
            const int height = std::max(1, item.spec.value(QStringLiteral("height")).toInt(kAutoGridRowHeight));
            const int y = top + std::max(0, item.y);
            placeElement(item.spec, section,
                         QJsonObject{{QStringLiteral("x"), std::clamp(item.x, 0, kGridColumns - 1)},
                                     {QStringLiteral("y"), y},
                                     {QStringLiteral("w"), width},
                                     {QStringLiteral("h"), height}});
            bottom = std::max(bottom, y + height);
        }
        m_nextY = bottom;
    }

    void placeAutoGrid(const QJsonObject &spec, const Section &section)
    {
        const int columns =
            std::clamp(spec.value(QStringLiteral("maxColumnCount")).toInt(kAutoGridDefaultColumns), 1, kGridColumns);
        const int width = kGridColumns / columns;
        const QJsonArray items = spec.value(QStringLiteral("items")).toArray();
        const int top = m_nextY;
        for (qsizetype i = 0; i < items.size(); ++i) {
            const QJsonObject item = objectAt(items.at(i).toObject(), QStringLiteral("spec"));
            placeElement(item, section,
                         QJsonObject{{QStringLiteral("x"), int(i % columns) * width},
                                     {QStringLiteral("y"), top + int(i / columns) * kAutoGridRowHeight},
                                     {QStringLiteral("w"), width},
                                     {QStringLiteral("h"), kAutoGridRowHeight}});
        }
        const int rows = int((items.size() + columns - 1) / columns);
        m_nextY = top + rows * kAutoGridRowHeight;
    }

    void placeElement(const QJsonObject &item, const Section &section, const QJsonObject &gridPos)
    {
        const QString name = text(objectAt(item, QStringLiteral("element")), QStringLiteral("name"));
        const QJsonValue element = m_elements.value(name);
        if (!element.isObject()) {
            note(prefix(section) + QStringLiteral("the layout places element '%1', which is not among the elements; "
                                                  "left out")
                                       .arg(name));
            return;
        }
        m_placed.insert(name);
        QJsonObject panel = classicPanel(name, element.toObject(), section);
        if (panel.isEmpty())
            return;
        panel.insert(QStringLiteral("gridPos"), gridPos);
        const QJsonObject repeat = objectAt(item, QStringLiteral("repeat"));
        const QString by = repeat.isEmpty() ? section.repeat : text(repeat, QStringLiteral("value"));
        if (!by.isEmpty())
            panel.insert(QStringLiteral("repeat"), by);
        QStringList conditions;
        noteConditions(item, &conditions);
        for (const QString &condition : conditions)
            note(QStringLiteral("panel '%1' (%2): %3")
                     .arg(text(panel, QStringLiteral("title")), text(panel, QStringLiteral("type")), condition));
        m_panels.append(panel);
    }

    // Grafana draws only what a layout places; a file written by hand may have more.
    void placeUnplacedElements(bool hadLayout)
    {
        for (auto it = m_elements.constBegin(); it != m_elements.constEnd(); ++it) {
            if (m_placed.contains(it.key()))
                continue;
            if (hadLayout) {
                note(QStringLiteral("element '%1' is in no layout, so Grafana does not show it; left out")
                         .arg(it.key()));
                continue;
            }
            QJsonObject panel = classicPanel(it.key(), it.value().toObject(), Section{});
            if (panel.isEmpty())
                continue;
            panel.insert(
                QStringLiteral("gridPos"),
                QJsonObject{{QStringLiteral("x"), 0}, {QStringLiteral("y"), m_nextY}, {QStringLiteral("w"), 12}});
            m_nextY += 1;
            m_panels.append(panel);
        }
    }

    QJsonObject classicPanel(const QString &name, const QJsonObject &element, const Section &section)
    {
        const QString kind = text(element, QStringLiteral("kind"));
        const QJsonObject spec = objectAt(element, QStringLiteral("spec"));
        QJsonObject panel;
        panel.insert(QStringLiteral("id"), spec.value(QStringLiteral("id")));
        panel.insert(QStringLiteral("title"), spec.value(QStringLiteral("title")));
        if (kind == QLatin1String("LibraryPanel")) {
            panel.insert(QStringLiteral("libraryPanel"), spec.value(QStringLiteral("libraryPanel")));
            return panel;
        }
        if (kind != QLatin1String("Panel")) {
            note(prefix(section) +
                 QStringLiteral("element '%1' of kind '%2' not understood; left out").arg(name, kind));
            return {};
        }
        // v2beta1: {"kind": "VizConfig", "group": "timeseries"}; v2alpha1: {"kind": "timeseries"}.
        const QJsonObject viz = objectAt(spec, QStringLiteral("vizConfig"));
        const QString vizKind = text(viz, QStringLiteral("kind"));
        panel.insert(QStringLiteral("type"),
                     vizKind == QLatin1String("VizConfig") ? text(viz, QStringLiteral("group")) : vizKind);
        const QJsonObject vizSpec = objectAt(viz, QStringLiteral("spec"));
        panel.insert(QStringLiteral("options"), vizSpec.value(QStringLiteral("options")));
        panel.insert(QStringLiteral("fieldConfig"), vizSpec.value(QStringLiteral("fieldConfig")));

        const QJsonObject data = objectAt(objectAt(spec, QStringLiteral("data")), QStringLiteral("spec"));
        QJsonArray targets;
        for (const QJsonValue value : data.value(QStringLiteral("queries")).toArray()) {
            const QJsonObject querySpec = objectAt(value.toObject(), QStringLiteral("spec"));
            const DataQuery query = readDataQuery(objectAt(querySpec, QStringLiteral("query")),
                                                  objectAt(querySpec, QStringLiteral("datasource")));
            QJsonObject target = query.spec;
            target.remove(QStringLiteral("datasource"));
            putDataSource(query, target);
            target.insert(QStringLiteral("refId"),
                          querySpec.value(QStringLiteral("refId")).toString(QStringLiteral("A")));
            if (querySpec.value(QStringLiteral("hidden")).toBool())
                target.insert(QStringLiteral("hide"), true);
            targets.append(target);
        }
        panel.insert(QStringLiteral("targets"), targets);
        QJsonArray transformations;
        for (const QJsonValue value : data.value(QStringLiteral("transformations")).toArray()) {
            const QJsonObject transformation = value.toObject();
            QJsonObject config = objectAt(transformation, QStringLiteral("spec"));
            if (text(config, QStringLiteral("id")).isEmpty())
                config.insert(QStringLiteral("id"), text(transformation, QStringLiteral("kind")));
            if (!config.value(QStringLiteral("disabled")).toBool())
                transformations.append(config);
        }
        if (!transformations.isEmpty())
            panel.insert(QStringLiteral("transformations"), transformations);
        const QJsonObject queryOptions = objectAt(data, QStringLiteral("queryOptions"));
        for (const QString &key :
             {QStringLiteral("timeFrom"), QStringLiteral("timeShift"), QStringLiteral("interval")}) {
            if (queryOptions.contains(key))
                panel.insert(key, queryOptions.value(key));
        }
        return panel;
    }

    const QJsonObject m_spec;
    const QJsonObject m_elements;
    QJsonArray m_variables;
    QSet<QString> m_variableNames;
    QJsonArray m_panels;
    QSet<QString> m_placed; // element names a layout placed
    int m_nextY = 0;        // the top of the next layout, below everything placed so far
    QStringList m_notes;
};

} // namespace

bool isV2(const QJsonObject &object)
{
    const QString apiVersion = text(object, QStringLiteral("apiVersion"));
    if (apiVersion.startsWith(QLatin1String("dashboard.grafana.app/")))
        return apiVersion.startsWith(QLatin1String("dashboard.grafana.app/v2"));
    const QJsonObject spec = objectAt(object, QStringLiteral("spec"));
    const auto hasV2Shape = [](const QJsonObject &o) {
        return o.contains(QStringLiteral("elements")) && o.contains(QStringLiteral("layout"));
    };
    return hasV2Shape(object) || hasV2Shape(spec);
}

Result<Classic> toClassic(const QJsonObject &resource)
{
    const bool wrapped = resource.contains(QStringLiteral("spec"));
    const QJsonValue spec = wrapped ? resource.value(QStringLiteral("spec")) : QJsonValue(resource);
    if (!spec.isObject())
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("not a Grafana dashboard: \"spec\" is %1, not an object").arg(JsonText::typeName(spec)));
    const QJsonValue elements = spec.toObject().value(QStringLiteral("elements"));
    if (!elements.isUndefined() && !elements.isObject())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("not a Grafana dashboard: \"spec.elements\" is %1, not an object")
                               .arg(JsonText::typeName(elements)));
    return Translator(spec.toObject()).run();
}

} // namespace GrafanaV2Schema
