// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/annotationscope.h"
#include "annotations/annotation.h"
#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "dashboard/panelchecks.h"
#include "report/comparedrun.h"

#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimeZone>
#include <optional>
#include <vector>

class AnnotationModel;
class DashboardPoller;
struct DashboardSnapshot;
class SampleStore;

// What an exported picture shows: which panels (with the store keys of their series), over
// which time range, with which annotations and words around it. Plain values, built from the
// running dashboard (fromDashboard) or by hand (tests, the comparison view).
struct ExportFigure
{
    struct Series
    {
        QString key;  // SampleStore key
        QString name; // legend
        SeriesDefinition definition;
    };
    struct Panel
    {
        QString title;
        QString unit;
        QString rightUnit;
        std::vector<Series> series;
        int dashboardPanel = -1;           // its index in the dashboard, for the annotation scope
        PanelKind kind = PanelKind::Lines; // a stat draws its newest values over the sparkline
        std::vector<ThresholdStep> thresholds = {};
        BucketScale buckets = BucketScale::Log; // a heatmap's rows
        std::vector<PanelCheck> checks = {};    // levels drawn on the plot, red where they failed
    };
    // Comparison: every panel drawn once per window, side by side, on the same value scale,
    // with the time axis counted from each window's zero ("+1:30"); or every window's series
    // overlaid on one time axis, each window a colour.
    struct Window
    {
        TimeRange range;
        qint64 zeroMs = 0;
        QString title; // "500 PI/s"
        // A run of its own (a recording, a variable's value): the figure's panels with this
        // run's series (same order and titles), the store they are in, and its marks. Empty,
        // null or unset: the figure's.
        std::vector<Panel> panels = {};
        const SampleStore *store = nullptr;
        std::optional<std::vector<Annotation>> annotations = std::nullopt;
    };
    enum class CompareView
    {
        SideBySide, // small multiples: a column per window, the same scales
        Overlay,    // one plot per panel, every window's series in it, aligned on their zeros
    };

    std::vector<Panel> panels;
    TimeRange range;             // when not comparing
    std::vector<Window> compare; // two (or more) windows: a comparison view
    CompareView compareView = CompareView::SideBySide;
    std::vector<Annotation> annotations; // all but unaccepted suggestions; each window draws those it touches
    AnnotationScope annotationScope;     // and each panel those the scope shows on it, as on screen
    // The kinds of marks drawn (selectAnnotations); none: every kind. Of Source::Query when it
    // is not in shownSources, the queries by name.
    std::optional<QSet<Annotation::Source>> shownSources;
    QSet<QString> shownQueries;
    int columns = 2; // panels per row (not comparing)
    QString title;
    QString subtitle;
    bool caption = true;                              // time range, queries, source, version
    QString source;                                   // the Prometheus URL, or the recording's file
    QString version;                                  // "Chaoscope 0.3.0"; empty: left out
    QTimeZone timeZone = QTimeZone::systemTimeZone(); // of the time axis and the caption's local time

    bool isComparison() const { return !compare.empty(); }
    // What a comparison's window draws: its own panels and marks, or the figure's.
    const std::vector<Panel> &panelsOf(const Window &window) const
    {
        return window.panels.empty() ? panels : window.panels;
    }
    const std::vector<Annotation> &annotationsOf(const Window &window) const
    {
        return window.annotations ? *window.annotations : annotations;
    }

    // Runs compared (2 to 8): each a window with its own panels, store and marks; the panels
    // are the first run's. Overlaid, a panel draws one quantity per run: the series named in
    // `overlaid` (ids or legends) that it has, else its first series; heatmaps overlay nothing
    // and are left out.
    static ExportFigure fromRuns(const std::vector<ComparedRun> &runs, CompareView view,
                                 const QStringList &overlaid = {});

    // The dashboard's panels with the series bound to them, over `range`; the annotations
    // each panel draws as `scope` says (the view's, with its queries switched off).
    static ExportFigure fromDashboard(const DashboardSnapshot &now, const AnnotationModel *annotations,
                                      const TimeRange &range, const AnnotationScope &scope);
    // The same for the poller's snapshot of now, scoped as its dashboard says.
    static ExportFigure fromDashboard(const DashboardPoller &poller, const AnnotationModel *annotations,
                                      const TimeRange &range);
    // Whether the panel draws the annotation.
    bool panelShows(const Panel &panel, const Annotation &annotation) const
    {
        return kindShown(annotation) && annotationScope.shows(annotation, panel.dashboardPanel);
    }
    // Whether selectAnnotations kept the annotation's kind (every kind when it was not asked).
    bool kindShown(const Annotation &annotation) const;
    // Keeps only the panels with these titles (case-insensitive), in the order given. An
    // unknown title is an error naming the panels that exist; nothing is changed then.
    std::optional<QString> selectPanels(const QStringList &titles);
    // Keeps only the marks of these kinds: a source's name ("action", "query") or
    // "query:NAME" for one annotation query (of `queryNames`, the dashboard's). The queries
    // named this way are drawn even when switched off. An unknown kind or query is an error
    // naming what there is; nothing is changed then. Empty: every mark, as the panels show.
    std::optional<QString> selectAnnotations(const QStringList &kinds, const QStringList &queryNames);
    // The queries of every series in the picture, shortened for a caption: a series' id or
    // legend when it has one, else its query cut to 60 characters.
    QStringList queryShortNames() const;
    // Whether any series has a sample in the shown range(s) (a window with a store of its own
    // is looked for there).
    bool hasData(const SampleStore &store) const;
};
