// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "chart/annotationoverlay.h"
#include "chart/chartcrosshair.h"
#include "chart/serieslayer.h"
#include "dashboard/dashboarddefinition.h"
#include "fetching/panelstatus.h"
#include "store/seriesstatistics.h"
#include "timeline/chartgestures.h"
#include "timeline/chartrenderer.h"
#include "timeline/timeaxismap.h"
#include "timeline/timeticks.h"
#include "timeline/valuescale.h"

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointer>
#include <QPolygonF>
#include <QStringList>
#include <QTimer>
#include <optional>
#include <vector>

class AnnotationEditor;
class AnnotationPrompt;
class AnnotationModel;
class QDateTimeAxis;
class QValueAxis;
class SampleStore;
class TimeCursor;
class TimeWindow;

// One panel's plot: the series of one panel over the shared time window. It draws a
// decimated copy of the store's samples (computed on a worker thread) itself, as polylines
// (SeriesLayer): Qt Charts only lays out the plot area and draws the value grid. It keeps its
// plot area at fixed gutters so that every panel's time axis lines up, repaints only what a
// new render changes by half a pixel or more, and says in the plot when it is loading,
// empty, failing or its source down.
//
// It also draws the dashboard's annotations (lines, region bands, "+N" clusters) and the
// shared crosshair, and turns the mouse into requests: drag to zoom, Shift+drag or the wheel
// to pan, Ctrl+wheel to zoom around the mouse, double-click for live; Ctrl+click or Ctrl+drag
// to annotate, drag a marker or a band edge to move it (through the AnnotationEditor, so it
// can be undone).
//
// It keeps the setup, the labels and the state, and hands the rest to its parts: the render
// job to ChartRenderer (models/timeline, ChartRender), the value axes to ValueScale (as every
// export), the mouse to ChartGestures, the annotations to AnnotationOverlay and the crosshair
// to ChartCrosshair. The mouse events stay here: they arrive at the viewport.
class TimelineChart : public QChartView
{
    Q_OBJECT
public:
    // Fixed gutters (px) around the plot area: the same in every panel, so plot areas align.
    static constexpr int kLeftGutter = 64;
    static constexpr int kRightGutter = 64;
    static constexpr int kTopGutter = 10;
    static constexpr int kBottomGutter = 26;

    struct LegendEntry
    {
        QString key;
        QString name;
        QColor color;
        AxisSide axis = AxisSide::Left;
        SeriesStatistics stats;
        bool visible = true;
    };

    // A level the panel's series is judged against (a scenario's check: "pending growth < 150"),
    // drawn as a dashed line across the plot with its label; red once the check failed. The
    // value axis reaches it, so how far the series is from the line can be read.
    struct Threshold
    {
        double value = 0;
        QString label;
        AxisSide axis = AxisSide::Left;
        bool failed = false;
        bool operator==(const Threshold &) const = default;
    };

    TimelineChart(const PanelDefinition &panel, SampleStore *store, TimeWindow *window, QWidget *parent = nullptr);
    ~TimelineChart() override;

    // Adds a store series to the plot; queryIndex picks the definition (axis, style, colour).
    void addSeries(const QString &key, const QString &name, int queryIndex);
    void setStatus(const PanelStatus &status);
    // Hides or shows a series (the legend's toggle); a hidden one is not drawn and does not
    // count for the value axes.
    void setSeriesVisible(const QString &key, bool visible);
    bool isSeriesVisible(const QString &key) const;
    // The series' pen width (device pixels, cosmetic) and antialiasing.
    void setLineWidth(double px);
    void setAntialiasedLines(bool on);
    // The model's annotations are drawn here, those the scope shows on this panel (by
    // default: every one).
    void setAnnotationModel(AnnotationModel *annotations);
    void setAnnotationScope(const AnnotationScope &scope, int panel);
    // With an editor the annotations can also be made and moved here (and it sets the model).
    void setAnnotationEditor(AnnotationEditor *editor);
    // The dashboard's shared hover instant: drawn as the crosshair, set while the mouse is here.
    void setTimeCursor(TimeCursor *cursor);
    const PanelStatus &status() const { return m_status; }

    int plotWidth() const;
    QRectF plotRect() const;       // in widget coordinates
    int drawnPointCount() const;   // decimated points currently drawn
    qint64 timeAt(double x) const; // the time under a widget x coordinate
    const QList<LegendEntry> &legend() const { return m_legend; }

    // What the last paint drew, for tests and tools that check the picture, not the model.
    using DrawnAnnotation = AnnotationOverlay::DrawnAnnotation;
    using DrawnCluster = AnnotationOverlay::DrawnCluster;
    const QList<DrawnAnnotation> &drawnAnnotations() const { return m_overlay.drawnAnnotations(); }
    const QList<DrawnCluster> &drawnClusters() const { return m_overlay.drawnClusters(); }
    std::optional<double> drawnCrosshairX() const { return m_crosshair.drawnX(); }
    // The read-out's rows as text ("name = value @ hh:mm:ss"); empty when none was drawn.
    const QStringList &drawnReadout() const { return m_crosshair.drawnReadout(); }
    const QString &drawnReadoutTitle() const { return m_crosshair.drawnReadoutTitle(); }
    // The left value axis' labels the last paint drew, bottom to top.
    const QStringList &drawnValueLabels() const { return m_drawnValueLabels; }
    // The value axis on this side as drawn now.
    const ValueScale &valueScale(AxisSide side) const { return side == AxisSide::Right ? m_rightScale : m_leftScale; }
    // The boxes of the value and time labels the last paint drew (widget coordinates).
    const QList<QRectF> &drawnAxisLabelBoxes() const { return m_drawnAxisLabelBoxes; }
    void setThresholds(const std::vector<Threshold> &thresholds);
    const std::vector<Threshold> &thresholds() const { return m_thresholds; }
    // The threshold labels the last paint drew, with their line's y (widget coordinates).
    const QList<QPair<QString, double>> &drawnThresholds() const { return m_drawnThresholds; }
    // The polylines a paint draws for a series (one per run between gaps), widget coordinates.
    std::vector<QPolygonF> drawnPolylines(const QString &key) const;
    // A heatmap panel's grid of the last render; null for a lines or stat panel, or before
    // its first render.
    const HeatmapGrid *heatmap() const { return m_heatmap ? &*m_heatmap : nullptr; }
    // The bucket bounds its left axis drew last, bottom to top.
    const QStringList &drawnBucketLabels() const { return m_drawnBucketLabels; }

signals:
    void plotWidthChanged(int pixels);
    void legendChanged();
    void rangeSelected(const TimeRange &range); // drag to zoom
    void resetRequested();                      // double-click: back to live
    // A pan or wheel zoom, one call per mouse event; scrollFinished() ends the gesture.
    void scrollRequested(const TimeRange &range);
    void scrollFinished();
    void rendered(); // a new decimated copy is on screen

protected:
    void resizeEvent(QResizeEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    // Background, grid and the palette's series colours of the theme shown now (UiTheme).
    void applyTheme();
    struct Slot
    {
        QString key;
        QString name;
        int query = 0; // its definition's index in the panel
        QColor color;
        SeriesDefinition definition;
        bool visible = true;
        double low = 0; // of the last render, in the visible range
        double high = 0;
    };

    void scheduleRender() { m_renderer.schedule(); }
    void applyRender(ChartRenderOutput output);
    // Sets the value axes from the visible series' extents; true when a scale changed.
    bool updateScales();
    SeriesLayer::View layerView(const TimeRange &range) const;
    QValueAxis *axisFor(AxisSide side);
    bool usesRightAxis() const;
    void keepPlotAtGutters(const QRectF &plot);
    static bool applyScale(double low, double high, int targetTicks, ValueScale *scale);
    void drawValueLabels(QPainter *painter, const QRectF &plot);
    void drawThresholds(QPainter *painter, const QRectF &plot);
    void drawStatus(QPainter *painter, const QRectF &plot);
    void drawHeatmap(QPainter *painter, const QRectF &plot);
    bool isHeatmap() const { return m_panel.kind == PanelKind::Heatmap; }
    void drawTimeLabels(QPainter *painter, const QRectF &plot);
    void updateHover(const QPointF &pos);
    void onCursorChanged();
    ChartCrosshair::Context crosshairContext() const;
    void openPrompt(const QPointF &at, qint64 timeMs, std::optional<qint64> endMs);
    // A click on a detector's suggestion: a menu to accept or dismiss it.
    void offerSuggestion(quint64 id, const QPointF &at);
    TimeTicks::Ticks timeTicks() const;
    double xFor(qint64 timeMs) const; // scene x of an instant in the visible range
    TimeAxisMap axisMap() const;      // the visible range over the plot, now
    AnnotationOverlay::Context overlayContext() const;
    // Does what a gesture asks: signals, the prompt, a move, the suggestion menu, repaints.
    void apply(const ChartGestures::Outcome &outcome);

    PanelDefinition m_panel;
    SampleStore *m_store;
    TimeWindow *m_window;
    QChart *m_chart;
    QDateTimeAxis *m_timeAxis;
    QValueAxis *m_leftAxis;
    QValueAxis *m_rightAxis = nullptr;
    ValueScale m_leftScale;
    ValueScale m_rightScale;
    std::vector<Slot> m_slots;
    QList<LegendEntry> m_legend;
    PanelStatus m_status;
    SeriesLayer m_layer;

    ChartGestures m_gestures;
    AnnotationEditor *m_editor = nullptr;
    QPointer<AnnotationPrompt> m_prompt; // the note being typed at the mouse, if any
    QTimer m_scrollEnd;                  // the wheel has no "release": a pause ends it
    AnnotationOverlay m_overlay;
    ChartCrosshair m_crosshair;
    QStringList m_drawnValueLabels;
    QList<QRectF> m_drawnAxisLabelBoxes;
    std::vector<Threshold> m_thresholds;
    QList<QPair<QString, double>> m_drawnThresholds;
    std::optional<HeatmapGrid> m_heatmap;
    QStringList m_drawnBucketLabels;
    // Last: destroyed first, so that its job (which reads the store and hands its output to
    // this chart) is finished before anything it touches goes.
    ChartRenderer m_renderer;
};
