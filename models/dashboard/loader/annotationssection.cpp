// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/annotationssection.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

void AnnotationsSection::read(const QJsonValue &value, std::vector<AnnotationQueryDefinition> &queries)
{
    const QString path = QStringLiteral("annotations");
    if (value.isUndefined())
        return;
    if (!value.isArray()) {
        m_json.issue(path, QStringLiteral("must be an array such as [{\"name\": \"restarts\", \"query\": "
                                          "\"increase(kube_pod_container_status_restarts_total[2m]) > 0\"}]"));
        return;
    }
    const QJsonArray items = value.toArray();
    for (int i = 0; i < items.size(); ++i) {
        const QString itemPath = JsonSection::index(path, i);
        if (!items[i].isObject()) {
            m_json.issue(itemPath, QStringLiteral("must be an object with a \"name\" and a \"query\""));
            continue;
        }
        const QJsonObject item = items[i].toObject();
        m_json.checkKeys(item, itemPath,
                         {"name", "query", "title", "text", "tags", "step", "mode", "panels", "hidden"});
        AnnotationQueryDefinition query;
        if (auto name = m_json.readString(item, itemPath, QStringLiteral("name")))
            query.name = name->trimmed();
        if (query.name.isEmpty()) {
            m_json.issue(JsonSection::join(itemPath, QStringLiteral("name")),
                         QStringLiteral("missing: a short name the marks are listed by (\"restarts\")"));
            continue;
        }
        const bool twice = std::any_of(queries.cbegin(), queries.cend(),
                                       [&](const AnnotationQueryDefinition &q) { return q.name == query.name; });
        if (twice) {
            m_json.issue(JsonSection::join(itemPath, QStringLiteral("name")),
                         QStringLiteral("\"%1\" names another annotation query already").arg(query.name));
            continue;
        }
        const QString queryPath = JsonSection::join(itemPath, QStringLiteral("query"));
        if (auto text = m_json.readString(item, itemPath, QStringLiteral("query")))
            query.query = text->trimmed();
        if (query.query.isEmpty()) {
            m_json.issue(queryPath, QStringLiteral("missing: the PromQL whose samples become marks"));
            continue;
        }
        m_variables.checkQuery(query.query, queryPath);
        if (auto title = m_json.readString(item, itemPath, QStringLiteral("title")))
            query.title = *title;
        if (auto text = m_json.readString(item, itemPath, QStringLiteral("text")))
            query.text = *text;
        query.tagLabels = m_json.readStrings(item, itemPath, QStringLiteral("tags"),
                                             QStringLiteral("label names whose values become tags"));
        query.panels = m_json.readStrings(item, itemPath, QStringLiteral("panels"),
                                          QStringLiteral("titles of the panels its marks are drawn on"));
        if (item.contains(QStringLiteral("hidden"))) {
            if (item.value(QStringLiteral("hidden")).isBool())
                query.hidden = item.value(QStringLiteral("hidden")).toBool();
            else
                m_json.issue(JsonSection::join(itemPath, QStringLiteral("hidden")),
                             QStringLiteral("must be true (switched off at start) or false"));
        }
        if (item.contains(QStringLiteral("step"))) {
            if (auto step = m_json.readDuration(item, itemPath, QStringLiteral("step"))) {
                if (*step < 1000)
                    m_json.issue(JsonSection::join(itemPath, QStringLiteral("step")),
                                 QStringLiteral("must be 1s or longer"));
                else
                    query.stepMs = *step;
            }
        }
        if (auto mode = m_json.readString(item, itemPath, QStringLiteral("mode"))) {
            using Mode = AnnotationQueryDefinition::Mode;
            bool known = false;
            for (const Mode m : {Mode::Points, Mode::Regions, Mode::Changes}) {
                if (*mode == AnnotationQueryDefinition::modeName(m)) {
                    query.mode = m;
                    known = true;
                }
            }
            if (!known)
                m_json.issue(JsonSection::join(itemPath, QStringLiteral("mode")),
                             QStringLiteral("%1 must be \"points\", \"regions\" or \"changes\"")
                                 .arg(JsonSection::describe(QJsonValue(*mode))));
        }
        m_paths.insert(query.name, itemPath);
        queries.push_back(query);
    }
}

void AnnotationsSection::checkPanels(const DashboardDefinition &dashboard)
{
    for (std::size_t i = 0; i < dashboard.annotationQueries.size(); ++i) {
        const AnnotationQueryDefinition &query = dashboard.annotationQueries[i];
        for (const QString &title : query.panels) {
            const bool known = std::any_of(dashboard.panels.cbegin(), dashboard.panels.cend(),
                                           [&](const PanelDefinition &panel) { return panel.title == title; });
            if (!known)
                m_json.issue(JsonSection::join(m_paths.value(query.name), QStringLiteral("panels")),
                             QStringLiteral("no panel is titled \"%1\"").arg(title));
        }
    }
}
