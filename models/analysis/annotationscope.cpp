// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/annotationscope.h"

AnnotationScope::AnnotationScope(const DashboardDefinition &dashboard)
{
    for (const PanelDefinition &panel : dashboard.panels) {
        QSet<QString> tags(panel.annotationTags.cbegin(), panel.annotationTags.cend());
        m_claimedTags.unite(tags);
        m_panelTags.push_back(std::move(tags));
    }
    for (const AnnotationQueryDefinition &query : dashboard.annotationQueries) {
        if (query.hidden)
            m_hiddenQueries.insert(query.name);
        if (query.panels.isEmpty())
            continue;
        QSet<int> &panels = m_queryPanels[query.name];
        for (int i = 0; i < int(dashboard.panels.size()); ++i) {
            if (query.panels.contains(dashboard.panels[std::size_t(i)].title))
                panels.insert(i);
        }
    }
}

void AnnotationScope::setQueryShown(const QString &query, bool shown)
{
    if (shown)
        m_hiddenQueries.remove(query);
    else
        m_hiddenQueries.insert(query);
}

bool AnnotationScope::shows(const Annotation &annotation, int panel) const
{
    if (annotation.source == Annotation::Source::Query) {
        if (m_hiddenQueries.contains(annotation.author))
            return false;
        if (const auto it = m_queryPanels.constFind(annotation.author); it != m_queryPanels.constEnd())
            return it->contains(panel);
    }
    bool claimed = false;
    for (const QString &tag : annotation.tags) {
        if (!m_claimedTags.contains(tag))
            continue;
        claimed = true;
        if (panel >= 0 && panel < int(m_panelTags.size()) && m_panelTags[std::size_t(panel)].contains(tag))
            return true;
    }
    return !claimed;
}
