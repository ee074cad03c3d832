// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboarddefinition.h"

#include <QTimer>
#include <QWidget>

#include <vector>

class AnnotationModel;
class DashboardPoller;
class PanelWidget;
class SampleStore;
class TimeWindow;
class QGridLayout;

// The panels of a dashboard in a grid, all on the shared time window. It shows and forwards:
// new series and panel states come from the poller, plot widths go back to it, a drag on any
// panel zooms all of them, a double-click returns to live.
class DashboardView : public QWidget
{
    Q_OBJECT
public:
    DashboardView(DashboardPoller *poller, SampleStore *store, TimeWindow *window,
                  QWidget *parent = nullptr);

    void setAnnotationModel(AnnotationModel *annotations);
    // Rebuilds the grid for the poller's current dashboard.
    void rebuild();
    const std::vector<PanelWidget *> &panels() const { return m_panels; }

private:
    DashboardPoller *m_poller;
    SampleStore *m_store;
    TimeWindow *m_window;
    QGridLayout *m_grid;
    AnnotationModel *m_annotations = nullptr;
    std::vector<PanelWidget *> m_panels;
    QTimer m_freshnessTick;
};
