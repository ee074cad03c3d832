// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "chart/timelinechart.h"
#include "dashboard/dashboarddefinition.h"
#include "dashboard/panelchecks.h"

#include <QDialog>
#include <vector>

class AnnotationModel;
class PhaseStatisticsModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QTableView;
class SampleStore;

// Last / min / max / mean (and p95 on request) of each series of a panel over the visible
// range and per phase between consecutive annotations, and whether each check on the panel
// held there (its worst value and when, or when it failed; green or red), as a table the user
// copies into a report: as tab-separated text (a spreadsheet) or as a Markdown table.
class PhaseStatisticsDialog : public QDialog
{
    Q_OBJECT
public:
    struct SeriesRef
    {
        QString key;  // in the store
        QString name; // as the legend shows it
        QString unit; // of its axis
    };
    struct PanelSeries
    {
        QString title;
        std::vector<SeriesRef> series;
        std::vector<PanelCheck> checks; // judged per phase on the series they apply to
    };
    // A panel's series as its chart draws them, each with the unit of its axis, and its checks.
    static PanelSeries panelSeries(const PanelDefinition &definition, const QList<TimelineChart::LegendEntry> &legend,
                                   const std::vector<PanelCheck> &checks = {});

    PhaseStatisticsDialog(SampleStore *store, AnnotationModel *annotations, QWidget *parent = nullptr);

    void setPanels(std::vector<PanelSeries> panels, int current = 0);
    void setRange(const TimeRange &range);

    QTableView *table() const { return m_table; }
    PhaseStatisticsModel *model() const { return m_model; }
    void copyAsText();
    void copyAsMarkdown();

private:
    void recompute();

    SampleStore *m_store;
    AnnotationModel *m_annotations;
    std::vector<PanelSeries> m_panels;
    TimeRange m_range;
    PhaseStatisticsModel *m_model;
    QComboBox *m_panelPicker;
    QCheckBox *m_p95;
    QLabel *m_rangeLabel;
    QTableView *m_table;
};
