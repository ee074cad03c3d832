// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/annotationscope.h"
#include "dashboard/dashboarddefinition.h"
#include "fetching/dashboardsnapshot.h"
#include "panels/panelwidget.h"

#include <QHash>
#include <QTimer>
#include <QWidget>
#include <vector>

class AnnotationEditor;
class AnnotationModel;
class DashboardPoller;
class PanelWidget;
class SampleStore;
class TimeCursor;
class TimeWindow;
class QGridLayout;

// The panels of a dashboard in a grid, all on the shared time window. It shows and forwards:
// new series and panel states come from the poller's signals, with what changed (the view
// never asks the poller), plot widths go back to it, a drag on any panel zooms all of them, a
// double-click returns to live, Shift+drag or the wheel pans.
// It owns the shared hover instant, so that one crosshair runs through every panel.
class DashboardView : public QWidget
{
    Q_OBJECT
public:
    DashboardView(DashboardPoller *poller, SampleStore *store, TimeWindow *window, QWidget *parent = nullptr);

    void setAnnotationModel(AnnotationModel *annotations);
    // Lets the user make and move annotations on every chart (and shows the editor's model).
    void setAnnotationEditor(AnnotationEditor *editor);
    // Which annotations each panel draws: the dashboard's scopes, and the queries switched
    // off (kept while the dashboard is rebuilt for another variable value).
    const AnnotationScope &annotationScope() const { return m_scope; }
    void setQueryShown(const QString &query, bool shown);
    TimeCursor *timeCursor() const { return m_cursor; }
    // Another view's hover instant instead of its own, so that one crosshair runs through both
    // (Explore's preview and the dashboard). Set before rebuild().
    void shareTimeCursor(TimeCursor *cursor) { m_cursor = cursor; }
    // Rebuilds the grid for this picture of the dashboard (a poller's snapshot()).
    void rebuild(const DashboardSnapshot &now);
    // The same with the poller's snapshot of now: for owners and tests.
    void rebuild();
    // What the grid shows: the snapshot it was built from, kept current by the signals.
    const DashboardSnapshot &shown() const { return m_shown; }
    const std::vector<PanelWidget *> &panels() const { return m_panels; }
    // Scrolls the page holding the grid (a QScrollArea it is in) so that the panel is in
    // view, once the grid has laid it out: a panel added from Explore at the bottom of a long
    // dashboard is seen at once.
    void bringIntoView(int panel);
    // Columns the grid shows now: the dashboard's, or fewer when the view is too narrow for
    // them (panels reflow rather than hide behind a horizontal scrollbar).
    int shownColumns() const { return m_columns; }
    // The narrowest a panel may be before the grid takes a column away.
    static constexpr int kMinPanelWidth = 380;

    // A running scenario's checks (its expectations and guards), drawn besides the dashboard's
    // own on every panel that shows their query; `failed` once the scenario judged it so.
    // Kept across rebuilds.
    struct ScenarioCheck
    {
        Check check;
        QString label; // put in front of the line's words: "guard"
        bool failed = false;
    };
    void setScenarioChecks(const std::vector<ScenarioCheck> &checks);
    // Panels offer their edits in their right-click menu.
    void setEditable(bool editable);

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

signals:
    void phaseStatisticsRequested(int panel); // a panel's right-click ▸ Statistics per phase
    // A panel's right-click ▸ Edit panel…, Rename…, Add derived series…, Remove panel.
    void panelEditRequested(int panel, PanelEdit edit);
    // Move left / right / up / down: the panel and the one where it goes, as the grid shows
    // them now (fewer columns than the dashboard's in a narrow window), change places.
    void panelsSwapRequested(int panel, int other);

private:
    int columnsFor(int width) const;
    void onPanelEdit(int panel, PanelEdit edit);
    // Puts the panels into the grid in `columns` columns, in reading order.
    void placePanels(int columns);
    void applyChecks(); // the dashboard's checks and the scenario's, panel by panel

    DashboardPoller *m_poller;
    SampleStore *m_store;
    TimeWindow *m_window;
    QGridLayout *m_grid;
    bool m_editable = false;
    AnnotationModel *m_annotations = nullptr;
    AnnotationScope m_scope;
    QHash<QString, bool> m_queryToggles; // name → shown, as the user switched them
    AnnotationEditor *m_editor = nullptr;
    TimeCursor *m_cursor;
    DashboardSnapshot m_shown;
    std::vector<PanelWidget *> m_panels;
    std::vector<ScenarioCheck> m_scenarioChecks;
    int m_columns = 1;
    QTimer m_freshnessTick;
};
