// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboardpoller.h"

#include "legendformatter.h"
#include "prometheusclient.h"
#include "samplestore.h"
#include "stepplanner.h"
#include "timewindow.h"
#include "whenfinished.h"

#include <QFuture>

#include <algorithm>

namespace {

// How many steps of the newest data are fetched again on every tail poll: the newest point
// of a rate() is provisional until the next scrape lands, so it is replaced, not kept.
constexpr int kOverlapSteps = 2;
constexpr int kDefaultPanelWidth = 800;

QString substituteVariables(QString query, const QMap<QString, QString> &variables)
{
    // Longest names first, so $namespace_prefix is not cut short by $namespace.
    QStringList names = variables.keys();
    std::sort(names.begin(), names.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &name : names) {
        query.replace(QStringLiteral("${") + name + QLatin1Char('}'), variables.value(name));
        query.replace(QLatin1Char('$') + name, variables.value(name));
    }
    return query;
}

} // namespace

DashboardPoller::DashboardPoller(PrometheusClient *client, SampleStore *store, TimeWindow *window,
                                 QObject *parent)
    : QObject(parent), m_client(client), m_store(store), m_window(window)
{
    m_refresh.setInterval(5000);
    connect(&m_refresh, &QTimer::timeout, this, [this] {
        m_window->advanceToNow();
        pollNow();
    });
    connect(m_window, &TimeWindow::rangeChanged, this, &DashboardPoller::onRangeChanged);
}

QString DashboardPoller::keyPrefix(int panel)
{
    return QStringLiteral("p%1/").arg(panel);
}

void DashboardPoller::setDashboard(const DashboardDefinition &dashboard)
{
    ++m_generation; // answers to the old dashboard's queries are dropped
    m_dashboard = dashboard;
    m_queries.clear();
    m_bindings.clear();
    m_inFlight = 0;
    m_panelWidths.assign(dashboard.panels.size(), kDefaultPanelWidth);
    m_panelStatus.assign(dashboard.panels.size(), PanelStatus{});
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const auto &panel = dashboard.panels[std::size_t(p)];
        for (int q = 0; q < int(panel.series.size()); ++q) {
            QueryState state;
            state.panel = p;
            state.query = q;
            state.promql = substituteVariables(panel.series[std::size_t(q)].query, dashboard.variables);
            m_queries.push_back(std::move(state));
        }
        if (panel.series.empty())
            m_panelStatus[std::size_t(p)].state = PanelStatus::State::NoData;
    }
    if (dashboard.refreshSeconds > 0)
        setRefreshMs(dashboard.refreshSeconds * 1000);
}

void DashboardPoller::setPanelWidth(int panel, int pixels)
{
    if (panel < 0 || panel >= int(m_panelWidths.size()) || pixels <= 0)
        return;
    const qint64 before = stepFor(panel, m_window->range());
    m_panelWidths[std::size_t(panel)] = pixels;
    if (stepFor(panel, m_window->range()) < before)
        onRangeChanged(m_window->range()); // wider panel: finer data is worth fetching
}

void DashboardPoller::setScrapeIntervalMs(qint64 scrapeIntervalMs)
{
    m_scrapeIntervalMs = qMax<qint64>(scrapeIntervalMs, 1);
}

void DashboardPoller::setRefreshMs(int refreshMs)
{
    m_refresh.setInterval(qMax(refreshMs, 250));
}

void DashboardPoller::start()
{
    m_refresh.start();
    pollNow();
}

void DashboardPoller::stop()
{
    m_refresh.stop();
}

void DashboardPoller::pollNow()
{
    for (QueryState &state : m_queries)
        pollQuery(state, /*tail=*/true);
}

qint64 DashboardPoller::stepFor(int panel, const TimeRange &range) const
{
    const int width = panel < int(m_panelWidths.size()) ? m_panelWidths[std::size_t(panel)]
                                                        : kDefaultPanelWidth;
    return StepPlanner::chooseStepMs(range.length(), width, m_scrapeIntervalMs);
}

bool DashboardPoller::isCovered(const QueryState &state, const TimeRange &range, qint64 stepMs) const
{
    // Covered when fetches at this resolution or finer, taken together, span the range.
    std::vector<TimeRange> spans;
    for (const Fetched &f : state.fetched) {
        if (f.stepMs <= stepMs)
            spans.push_back(f.range);
    }
    std::sort(spans.begin(), spans.end(),
              [](const TimeRange &a, const TimeRange &b) { return a.startMs < b.startMs; });
    qint64 reached = range.startMs;
    for (const TimeRange &span : spans) {
        if (span.startMs > reached + stepMs)
            break;
        reached = std::max(reached, span.endMs);
        if (reached >= range.endMs - stepMs)
            return true;
    }
    return false;
}

void DashboardPoller::onRangeChanged(const TimeRange &)
{
    // A live window advancing is handled by the refresh tick's tail poll; here we only look
    // for history the new range shows that has not been fetched at the needed resolution.
    for (QueryState &state : m_queries)
        pollQuery(state, /*tail=*/false);
}

void DashboardPoller::pollQuery(QueryState &state, bool tail)
{
    if (state.inFlight || !m_client)
        return;
    const TimeRange visible = m_window->range();
    const qint64 step = stepFor(state.panel, visible);
    const qint64 now = m_window->now();

    // History is what the visible range shows up to where we have fetched; in live mode the
    // part after that is the tail, which the refresh tick fetches incrementally.
    TimeRange history = visible;
    if (m_window->isLive() && state.fetchedUntil)
        history.endMs = std::min(visible.endMs, *state.fetchedUntil);
    const bool historyCovered = state.fetchedUntil && isCovered(state, history, step);

    TimeRange wanted;
    if (!historyCovered) {
        wanted = visible;
        if (m_window->isLive())
            wanted.endMs = now;
    } else if (tail) {
        // Also while paused or zoomed: the tail keeps being recorded.
        const qint64 from = state.newestMs.value_or(*state.fetchedUntil);
        wanted = {from - kOverlapSteps * step, now};
    } else {
        return;
    }
    wanted = StepPlanner::alignToStep(wanted, step);
    if (wanted.isEmpty())
        return;

    state.inFlight = true;
    ++m_inFlight;
    const int index = int(&state - m_queries.data());
    const quint64 generation = m_generation;
    whenFinished(m_client->rangeQuery(state.promql, wanted, step), this,
                 [this, index, generation, wanted, step](const Result<PromQueryResult> &result) {
                     handleAnswer(index, generation, wanted, step, result);
                 });
}

void DashboardPoller::handleAnswer(int index, quint64 generation, const TimeRange &range,
                                   qint64 stepMs, const Result<PromQueryResult> &result)
{
    if (generation != m_generation || index >= int(m_queries.size()))
        return;
    QueryState &state = m_queries[std::size_t(index)];
    state.inFlight = false;
    --m_inFlight;
    state.answered = true;

    if (!result) {
        ++m_stats.failed;
        if (result.error().isSourceDown())
            ++m_stats.sourceDown;
        state.error = result.error();
    } else {
        ++m_stats.succeeded;
        state.error.reset();
        state.warnings = result->warnings;
        state.seriesCount = int(result->series.size());
        const auto &panel = m_dashboard.panels[std::size_t(state.panel)];
        const QString legendTemplate = panel.series[std::size_t(state.query)].legend;
        for (const PromSeries &series : result->series) {
            const QString key = keyPrefix(state.panel) + QStringLiteral("q%1/").arg(state.query)
                                + series.labelKey();
            const bool isNew = !m_bindings.contains(key);
            if (isNew) {
                m_bindings.insert(key, SeriesBinding{state.panel, state.query, key,
                                                     LegendFormatter::format(legendTemplate, series.labels)});
            }
            m_store->merge(key, series.labels, series.timestampsMs, series.values);
            if (!series.timestampsMs.empty()) {
                const qint64 newest = *std::max_element(series.timestampsMs.begin(), series.timestampsMs.end());
                state.newestMs = std::max(state.newestMs.value_or(newest), newest);
            }
            if (isNew)
                emit seriesAdded(state.panel, key);
        }
        // Record coverage up to the range's end even when the newest instants had no sample,
        // so an empty query is not refetched over and over.
        recordFetched(state, {range, stepMs});
        state.fetchedUntil = std::max(state.fetchedUntil.value_or(range.endMs), range.endMs);
    }
    updatePanelStatus(state.panel);
    if (m_inFlight == 0)
        emit pollCycleFinished();
}

void DashboardPoller::recordFetched(QueryState &state, Fetched fetched)
{
    // Tail polls touch the previous fetch at the same step: join them, so the list stays as
    // short as the number of distinct resolutions the user has looked at.
    for (auto it = state.fetched.begin(); it != state.fetched.end();) {
        const bool touches = it->stepMs == fetched.stepMs
                             && fetched.range.startMs <= it->range.endMs + fetched.stepMs
                             && fetched.range.endMs >= it->range.startMs - fetched.stepMs;
        if (touches) {
            fetched.range.startMs = std::min(fetched.range.startMs, it->range.startMs);
            fetched.range.endMs = std::max(fetched.range.endMs, it->range.endMs);
            it = state.fetched.erase(it);
        } else {
            ++it;
        }
    }
    state.fetched.push_back(fetched);
}

void DashboardPoller::updatePanelStatus(int panel)
{
    PanelStatus status;
    status.stepMs = stepFor(panel, m_window->range());
    bool anyAnswered = false;
    bool anyPending = false;
    int seriesCount = 0;
    for (const QueryState &state : m_queries) {
        if (state.panel != panel)
            continue;
        anyAnswered |= state.answered;
        anyPending |= !state.answered;
        seriesCount += state.seriesCount;
        status.warnings += state.warnings;
        if (state.newestMs)
            status.newestSampleMs = std::max(status.newestSampleMs.value_or(*state.newestMs), *state.newestMs);
        if (state.error) {
            const bool down = state.error->isSourceDown();
            // Source down outranks a query error: it explains every other failure.
            if (down || status.state != PanelStatus::State::SourceDown) {
                status.state = down ? PanelStatus::State::SourceDown : PanelStatus::State::QueryError;
                const auto &defs = m_dashboard.panels[std::size_t(panel)].series;
                status.message = down ? state.error->message
                                      : QStringLiteral("query %1 (%2): %3")
                                            .arg(state.query + 1)
                                            .arg(defs[std::size_t(state.query)].query.left(60),
                                                 state.error->message);
            }
        }
    }
    if (status.state == PanelStatus::State::Loading && anyAnswered) {
        if (seriesCount > 0 || status.newestSampleMs)
            status.state = PanelStatus::State::Ok;
        else if (!anyPending)
            status.state = PanelStatus::State::NoData;
    }
    status.warnings.removeDuplicates();
    if (status == m_panelStatus[std::size_t(panel)])
        return;
    m_panelStatus[std::size_t(panel)] = status;
    emit panelStatusChanged(panel);
}

PanelStatus DashboardPoller::panelStatus(int panel) const
{
    if (panel < 0 || panel >= int(m_panelStatus.size()))
        return {};
    return m_panelStatus[std::size_t(panel)];
}

std::vector<DashboardPoller::SeriesBinding> DashboardPoller::seriesOfPanel(int panel) const
{
    std::vector<SeriesBinding> out;
    for (const SeriesBinding &binding : m_bindings) {
        if (binding.panel == panel)
            out.push_back(binding);
    }
    std::sort(out.begin(), out.end(), [](const SeriesBinding &a, const SeriesBinding &b) {
        return a.query != b.query ? a.query < b.query : a.legend < b.legend;
    });
    return out;
}
