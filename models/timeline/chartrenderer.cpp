// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/chartrenderer.h"

#include "base/whenfinished.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QtConcurrent>
#include <algorithm>
#include <utility>

namespace {

// A change this far past the visible end may still be drawn: the line runs to the edge.
constexpr qint64 kAheadMs = 60'000;

} // namespace

ChartRenderer::ChartRenderer(const SampleStore *store, const TimeWindow *window, FrameSource frame, Sink sink,
                             QObject *parent)
    : QObject(parent), m_store(store), m_window(window), m_frame(std::move(frame)), m_sink(std::move(sink))
{
    m_delay.setSingleShot(true);
    m_delay.setInterval(kDelayMs);
    connect(&m_delay, &QTimer::timeout, this, &ChartRenderer::start);
    connect(m_store, &SampleStore::samplesChanged, this, &ChartRenderer::onSamplesChanged);
    connect(m_store, &SampleStore::seriesRemoved, this, [this] { m_changes.forgetAll(); });
    connect(m_store, &SampleStore::seriesRenamed, this, [this] { m_changes.forgetAll(); });
    connect(m_store, &SampleStore::cleared, this, [this] { m_changes.forgetAll(); });
    connect(m_window, &TimeWindow::rangeChanged, this, &ChartRenderer::schedule);
    schedule();
}

ChartRenderer::~ChartRenderer()
{
    m_job.waitForFinished();
}

void ChartRenderer::setKeys(std::vector<QString> keys)
{
    m_keys = std::move(keys);
    schedule();
}

void ChartRenderer::schedule()
{
    if (!m_delay.isActive())
        m_delay.start();
}

void ChartRenderer::onSamplesChanged(const QString &key, const TimeRange &span)
{
    if (std::find(m_keys.begin(), m_keys.end(), key) == m_keys.end())
        return;
    m_changes.add(key, span);
    const TimeRange visible = m_window->range();
    if (span.endMs < visible.startMs || span.startMs > visible.endMs + kAheadMs)
        return; // nothing visible changed
    schedule();
}

void ChartRenderer::start()
{
    if (m_running) {
        m_again = true; // the running job is superseded by the next one
        return;
    }
    const Frame frame = m_frame();
    ChartRenderInput input;
    input.store = m_store;
    input.caches = m_caches;
    input.range = m_window->range();
    input.columnMs = Decimator::columnMsFor(input.range, frame.plotWidthPx);
    input.gapMs = ChartRender::gapMsFor(frame.stepMs, input.columnMs);
    input.keys = m_keys;
    input.heatmap = frame.heatmap;
    input.heatmapColumnMs = Heatmap::columnMsFor(frame.stepMs, input.columnMs);
    ChartChangeLog::Taken changes = m_changes.take();
    input.changes = std::move(changes.changes);
    input.forgetAll = changes.forgetAll;
    m_running = true;
    const QFuture<ChartRenderOutput> job = QtConcurrent::run(ChartRender::run, std::move(input));
    m_job = job;
    whenFinished(job, this, [this](ChartRenderOutput output) {
        m_running = false;
        m_sink(std::move(output));
        if (m_again) {
            m_again = false;
            schedule();
        }
    });
}
