// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboarddefinition.h"
#include "panelstatus.h"
#include "seriesstatistics.h"
#include "timeticks.h"
#include "timerange.h"

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QTimer>

#include <optional>
#include <vector>

class AnnotationModel;
class QAreaSeries;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;
class SampleStore;
class TimeWindow;

// One panel's plot: the series of one panel over the shared time window. It draws a
// decimated copy of the store's samples (computed on a worker thread, handed over with one
// replace() per series), keeps its plot area at fixed gutters so that every panel's time
// axis lines up, and says in the plot when it is loading, empty, failing or its source down.
class TimelineChart : public QChartView
{
    Q_OBJECT
public:
    // Fixed gutters (px) around the plot area: the same in every panel, so plot areas align.
    static constexpr int kLeftGutter = 64;
    static constexpr int kRightGutter = 64;
    static constexpr int kTopGutter = 10;
    static constexpr int kBottomGutter = 26;

    struct RenderInput;  // what a render job copies from the store (defined in the .cpp)
    struct RenderOutput; // what it hands back to the UI thread

    struct LegendEntry
    {
        QString key;
        QString name;
        QColor color;
        AxisSide axis = AxisSide::Left;
        SeriesStatistics stats;
    };

    TimelineChart(const PanelDefinition &panel, SampleStore *store, TimeWindow *window,
                  QWidget *parent = nullptr);
    ~TimelineChart() override;

    // Adds a store series to the plot; queryIndex picks the definition (axis, style, colour).
    void addSeries(const QString &key, const QString &name, int queryIndex);
    void setStatus(const PanelStatus &status);
    // Every annotation of the dashboard is drawn on every panel.
    void setAnnotationModel(AnnotationModel *annotations);
    const PanelStatus &status() const { return m_status; }

    int plotWidth() const;
    QRectF plotRect() const;            // in widget coordinates
    int drawnPointCount() const;        // points currently handed to Qt Charts
    qint64 timeAt(double x) const;      // the time under a widget x coordinate
    const QList<LegendEntry> &legend() const { return m_legend; }

signals:
    void plotWidthChanged(int pixels);
    void legendChanged();
    void rangeSelected(const TimeRange &range); // drag to zoom
    void resetRequested();                      // double-click: back to live
    void rendered();                            // a new decimated copy is on screen

protected:
    void resizeEvent(QResizeEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    struct Slot
    {
        QString key;
        QString name;
        QColor color;
        SeriesDefinition definition;
        QLineSeries *line = nullptr;
        QAreaSeries *area = nullptr;
    };

    void scheduleRender();
    void startRender();
    void applyRender(const RenderOutput &output);
    QValueAxis *axisFor(AxisSide side);
    struct ValueScale
    {
        double low = 0;
        double high = 1;
        double tick = 0.25;
    };
    static void applyScale(QValueAxis *axis, double low, double high, ValueScale *scale);
    void drawValueLabels(QPainter *painter, const QRectF &plot);
    void drawStatus(QPainter *painter, const QRectF &plot);
    void drawTimeLabels(QPainter *painter, const QRectF &plot);
    void drawAnnotations(QPainter *painter, const QRectF &plot);
    TimeTicks::Ticks timeTicks() const;
    double xFor(qint64 timeMs) const; // scene x of an instant in the visible range

    PanelDefinition m_panel;
    SampleStore *m_store;
    AnnotationModel *m_annotations = nullptr;
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
    QTimer m_renderDelay;
    bool m_renderRunning = false;
    bool m_renderAgain = false;
    int m_drawnPoints = 0;
    std::optional<QPointF> m_dragStart;
    QPointF m_dragCurrent;
};
