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
        m_json.checkKeys(item, itemPath, {"name", "query", "title", "text", "tags", "step", "mode"});
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
        const QJsonValue tags = item.value(QStringLiteral("tags"));
        const QString tagsPath = JsonSection::join(itemPath, QStringLiteral("tags"));
        if (!tags.isUndefined() && !tags.isArray())
            m_json.issue(tagsPath, QStringLiteral("must be an array of label names whose values become tags"));
        const QJsonArray labels = tags.toArray();
        for (int t = 0; t < labels.size(); ++t) {
            if (labels[t].isString() && !labels[t].toString().trimmed().isEmpty())
                query.tagLabels << labels[t].toString().trimmed();
            else
                m_json.issue(JsonSection::index(tagsPath, t),
                             QStringLiteral("%1 is not a label name").arg(JsonSection::describe(labels[t])));
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
        queries.push_back(query);
    }
}
