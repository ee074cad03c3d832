// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboarddefinition.h"
#include "panelstatus.h"

#include <QFrame>

class QLabel;
class SampleStore;
class TimeWindow;
class TimelineChart;

// A panel in the grid: title, freshness (effective step, age of the newest sample, state),
// the plot, and a legend with last / min / max / mean over the visible range.
class PanelWidget : public QFrame
{
    Q_OBJECT
public:
    PanelWidget(const PanelDefinition &panel, SampleStore *store, TimeWindow *window,
                QWidget *parent = nullptr);

    TimelineChart *chart() const { return m_chart; }
    void setStatus(const PanelStatus &status);
    void refreshFreshness(); // the age text moves on even when no data arrives

private:
    void updateLegend();

    PanelDefinition m_panel;
    TimeWindow *m_window;
    TimelineChart *m_chart;
    QLabel *m_title;
    QLabel *m_freshness;
    QLabel *m_legend;
    PanelStatus m_status;
};
