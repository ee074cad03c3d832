// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/annotationscope.h"
#include "dashboard/dashboarddefinition.h"

#include <QWidget>
#include <vector>

class QHBoxLayout;
class QToolButton;

// The toolbar's switches of a dashboard's annotation queries: one checkable button per query
// ("restarts"), in the marks' colour, its query in the tooltip. Switching one off hides its
// marks on every panel (they are still fetched and recorded); the dock keeps listing them.
class AnnotationQueryBar : public QWidget
{
    Q_OBJECT
public:
    explicit AnnotationQueryBar(QWidget *parent = nullptr);

    // The dashboard's queries, each checked as the scope shows it.
    void setQueries(const std::vector<AnnotationQueryDefinition> &queries, const AnnotationScope &scope);
    bool isEmpty() const { return m_buttons.empty(); }

signals:
    void queryToggled(const QString &query, bool shown);

private:
    void applyTheme();

    QHBoxLayout *m_layout;
    std::vector<QToolButton *> m_buttons;
};
