// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "timeline/chartrender.h"

#include <QFuture>
#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <vector>

class SampleStore;
class TimeWindow;

// Runs a chart's render job (ChartRender) off the UI thread whenever what it shows changed:
// a store change to one of its series near the visible range, a new range, or a call to
// schedule(). Changes within one frame (40 ms) cause one job (PlotJuggler coalesces the same
// way); a change while a job runs causes one more after it. The caches and the change log
// between jobs are its own. The output goes to the sink, on the UI thread.
class ChartRenderer : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDelayMs = 40;

    // What the chart looks like when a job starts.
    struct Frame
    {
        int plotWidthPx = 1;
        qint64 stepMs = 0;    // the poll step of its data, 0 when unknown
        bool heatmap = false; // its series are drawn as a heatmap (ChartRenderInput::heatmap)
    };
    using FrameSource = std::function<Frame()>;
    using Sink = std::function<void(ChartRenderOutput)>;

    ChartRenderer(const SampleStore *store, const TimeWindow *window, FrameSource frame, Sink sink,
                  QObject *parent = nullptr);
    // Waits for the running job: it reads the store in place, so it must not outlive this (nor,
    // so, the store).
    ~ChartRenderer() override;

    // The store keys of the series drawn, in the chart's order; a render follows.
    void setKeys(std::vector<QString> keys);
    const std::vector<QString> &keys() const { return m_keys; }
    // A render within the next frame, unless one is due already.
    void schedule();
    bool isRunning() const { return m_running; }

private:
    void start();
    void onSamplesChanged(const QString &key, const TimeRange &span);

    const SampleStore *m_store;
    const TimeWindow *m_window;
    FrameSource m_frame;
    Sink m_sink;
    std::vector<QString> m_keys;
    // A QTimer, not a posted event: the render benchmark tells the coalescing wait from the
    // work by this single-shot timer's firing.
    QTimer m_delay;
    bool m_running = false;
    bool m_again = false;
    std::shared_ptr<ChartRenderCaches> m_caches = std::make_shared<ChartRenderCaches>();
    ChartChangeLog m_changes;
    QFuture<void> m_job; // the running one
};
