// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "annotations/annotation.h"
#include "dashboard/dashboarddefinition.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <vector>

// Which annotations a panel draws. Every panel draws every annotation unless the dashboard
// narrows it:
// - an annotation query's "panels" keeps that query's marks to the panels named;
// - a panel's "annotationTags" claims the annotations carrying one of those tags: they are
//   drawn on the panels claiming them and on no other (an annotation with no claimed tag
//   stays on every panel).
// Besides that, a query switched off in the toolbar is drawn on no panel. A value: the view
// holds one and hands it to its charts and to an export, so a picture shows what its panels
// show.
class AnnotationScope
{
public:
    AnnotationScope() = default; // every annotation on every panel
    explicit AnnotationScope(const DashboardDefinition &dashboard);

    void setQueryShown(const QString &query, bool shown);
    bool isQueryShown(const QString &query) const { return !m_hiddenQueries.contains(query); }
    // Whether the panel at this index (of the dashboard's panels) draws the annotation; a
    // panel the dashboard does not have (-1: not a dashboard's panel) draws what is not
    // narrowed to others.
    bool shows(const Annotation &annotation, int panel) const;

    bool operator==(const AnnotationScope &) const = default;

private:
    QHash<QString, QSet<int>> m_queryPanels; // query name → the panels its marks are drawn on
    std::vector<QSet<QString>> m_panelTags;  // by panel index: the tags it claims
    QSet<QString> m_claimedTags;             // every tag some panel claims
    QSet<QString> m_hiddenQueries;           // switched off in the toolbar
};
