// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"
#include "dashboard/panelchecks.h"
#include "fetching/panelstatus.h"

#include <QFrame>
#include <QHash>
#include <QPointer>
#include <vector>

class AnnotationModel;
class LegendView;
class PanelTitle;
class QLabel;
class StatValues;
class SampleStore;
class TimeCursor;
class TimeWindow;
class TimelineChart;

// What a user asks of a panel from its right-click menu, when the dashboard may be edited.
enum class PanelEdit
{
    Edit, // the panel editor: title, units, series
    Rename,
    AddDerived, // a series computed from others
    MoveLeft,
    MoveRight,
    MoveUp,
    MoveDown,
    Remove
};

// A panel in the grid: title, freshness (effective step, age of the newest sample, state),
// the plot, and a legend with last / min / max / mean over the visible range.
class PanelWidget : public QFrame
{
    Q_OBJECT
public:
    PanelWidget(const PanelDefinition &panel, SampleStore *store, TimeWindow *window, QWidget *parent = nullptr);

    TimelineChart *chart() const { return m_chart; }
    StatValues *statValues() const { return m_statValues; } // null unless a stat panel
    QString heatmapSummary() const;                         // empty unless a heatmap panel
    void setStatus(const PanelStatus &status);
    void refreshFreshness(); // the age text moves on even when no data arrives
    // What each derived series (by store key) computes, shown as the legend's tooltip.
    void setFormulaDescriptions(const QHash<QString, QString> &descriptions);
    QString legendToolTip() const;
    // The checks this panel draws as levels and judges over the visible range, per phase
    // between the annotations: a legend row says "✓ ≤ 0" or "✗ 5.2k at 11:03:10".
    void setChecks(std::vector<PanelCheck> checks, const AnnotationModel *annotations);
    // The dashboard's shared crosshair: the chart draws it; a stat tile's numbers follow it,
    // reading each series at the crosshair's instant while it is on any panel.
    void setTimeCursor(TimeCursor *cursor);
    const std::vector<PanelCheck> &checks() const { return m_checks; }
    // The right-click menu offers the edits (the grid says which moves there is room for).
    struct Moves
    {
        bool left = false;
        bool right = false;
        bool up = false;
        bool down = false;
    };
    void setEditable(bool editable, Moves moves);

signals:
    // Right-click ▸ Statistics per phase.
    void phaseStatisticsRequested();
    void editRequested(PanelEdit edit);

private:
    void updateLegend();
    void updateStatValues(); // a stat tile's numbers: the newest values, or those at the crosshair
    void applyTheme();       // the card, title and status colours of the theme shown now

    void showMenu(const QPoint &at);

    PanelDefinition m_panel;
    bool m_editable = false;
    Moves m_moves;
    TimeWindow *m_window;
    TimelineChart *m_chart;
    PanelTitle *m_title;
    QLabel *m_freshness;
    LegendView *m_legend;
    StatValues *m_statValues = nullptr; // a stat panel's numbers; null for a lines panel
    QLabel *m_heatmapSummary = nullptr; // a heatmap's buckets, in the legend's place
    PanelStatus m_status;
    QHash<QString, QString> m_formulas;
    SampleStore *m_store;
    std::vector<PanelCheck> m_checks;
    const AnnotationModel *m_annotations = nullptr;
    QMetaObject::Connection m_annotationsChanged;
    QPointer<TimeCursor> m_cursor;
    QMetaObject::Connection m_cursorChanged;
};
