// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/dashboardpoller.h"

#include "base/format.h"
#include "base/generation.h"
#include "dashboard/dashboardvariables.h"
#include "dashboard/loadtesterfield.h"
#include "prometheus/mergedquery.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "timeline/timewindow.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QSet>
#include <algorithm>

namespace {

// Answers are merged into the store in batches, so that a chart draws once for many of them
// (each merge would otherwise start a render of its panel, and a render is costly):
// history answers at most every kHistoryBatchMs while more are coming; the tail polls of a
// refresh tick all at once with the window's advance, when the last one is in or
// kTailDeadlineMs after the tick, whichever is first.
constexpr int kHistoryBatchMs = 200;
// How long one turn of applying answers may take before it yields to the event loop.
constexpr qint64 kApplyBudgetMs = 8;
constexpr int kTailDeadlineMs = 250;
// Clocks a little apart are normal; a sample further ahead than this is worth a warning.
constexpr qint64 kFutureToleranceMs = 60'000;

} // namespace

DashboardPoller::DashboardPoller(PrometheusClient *client, SampleStore *store, TimeWindow *window, QObject *parent)
    : QObject(parent), m_client(client), m_store(store), m_window(window)
{
    m_refresh.setInterval(5000);
    connect(&m_refresh, &QTimer::timeout, this, [this] {
        // The last tick's answers still waiting for their turn (a loaded machine can bring this
        // tick before that turn) land before the window moves again, in the last tick's moment.
        if (m_tailOutstanding == 0 && !m_answers.empty())
            applyAnswers();
        pollNow();
        // The window moves with the answers, so that the charts draw once for both.
        if (m_tailOutstanding == 0) {
            m_window->advanceToNow();
        } else {
            m_advancePending = true;
            m_tailDeadline.start();
        }
    });
    connect(m_window, &TimeWindow::rangeChanged, this, &DashboardPoller::onRangeChanged);
    m_apply.setSingleShot(true);
    connect(&m_apply, &QTimer::timeout, this, &DashboardPoller::applyAnswers);
    m_tailDeadline.setSingleShot(true);
    m_tailDeadline.setInterval(kTailDeadlineMs);
    connect(&m_tailDeadline, &QTimer::timeout, this, &DashboardPoller::applyAnswers);
}

QString DashboardPoller::keyPrefix(int panel)
{
    return SeriesKey::panelPrefix(panel);
}

void DashboardPoller::setDashboard(const DashboardDefinition &dashboard)
{
    m_generation.advance(); // answers to the old dashboard's queries are dropped
    m_dashboard = dashboard;
    m_queries.clear();
    m_bindings.clear();
    m_inFlight = 0;
    m_historyQueue.clear();
    m_historyInFlight = 0;
    m_tailOutstanding = 0;
    m_answers.clear();
    m_apply.stop();
    m_tailDeadline.stop();
    if (m_advancePending) {
        m_advancePending = false;
        m_window->advanceToNow();
    }
    setProgress(0, 0);
    m_panelWidths.assign(dashboard.panels.size(), Planner::kDefaultPanelWidth);
    m_panelStatus.assign(dashboard.panels.size(), PanelStatus{});
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const auto &panel = dashboard.panels[std::size_t(p)];
        bool anyQuery = false;
        for (int q = 0; q < int(panel.series.size()); ++q) {
            const SeriesDefinition &definition = panel.series[std::size_t(q)];
            if (definition.loadTester != LoadTesterField::None) {
                // Not queried: the load tester's recorder fills this key. Bound now, so the
                // panel draws it from the first status on.
                const QString key = LoadTesterFields::storeKey(definition.loadTester);
                const QString legend = definition.legend.isEmpty()
                                           ? LoadTesterFields::defaultLegend(definition.loadTester)
                                           : definition.legend;
                m_bindings.bindUnqueried({p, q, key, legend});
                continue;
            }
            if (!definition.kubernetes.isEmpty()) {
                // Not queried: the cluster's recorder fills it from its watches.
                const QString legend =
                    !definition.legend.isEmpty() ? definition.legend
                    : !definition.env.isEmpty()
                        ? QStringLiteral("%1 %2").arg(definition.workload, definition.env)
                        : QStringLiteral("%1 %2 replicas").arg(definition.workload, definition.kubernetes);
                m_bindings.bindUnqueried(
                    {p, q, SeriesKey::kubernetes(definition.workload, definition.kubernetesField()), legend});
                continue;
            }
            if (!definition.derive.isEmpty()) {
                // Not queried either: DerivedSeriesUpdater computes it from its inputs.
                const QString key = SeriesKey::derived(p, q);
                m_bindings.bindUnqueried(
                    {p, q, key, definition.legend.isEmpty() ? definition.derive : definition.legend});
                continue;
            }
            anyQuery = true;
            QueryState state;
            state.panel = p;
            state.query = q;
            state.promql = DashboardVariables::substitute(definition.query, dashboard.variableDefinitions);
            state.keyValues = DashboardVariables::keyValues(definition.query, dashboard.variableDefinitions);
            m_queries.push_back(std::move(state));
        }
        if (panel.series.empty())
            m_panelStatus[std::size_t(p)].state = PanelStatus::State::NoData;
        else if (!anyQuery)
            m_panelStatus[std::size_t(p)].state = PanelStatus::State::Ok;
    }
    if (dashboard.refreshSeconds > 0)
        setRefreshMs(dashboard.refreshSeconds * 1000);
}

bool DashboardPoller::setVariable(const QString &name, const QString &value)
{
    auto &variables = m_dashboard.variableDefinitions;
    const auto variable =
        std::find_if(variables.begin(), variables.end(), [&](const VariableDefinition &v) { return v.name == name; });
    if (variable == variables.end())
        return false;
    if (variable->value == value)
        return true;
    variable->value = value;
    emit variableChanged(name, value);
    QList<int> panels;
    std::vector<int> changed;
    for (int i = 0; i < int(m_queries.size()); ++i) {
        QueryState &state = m_queries[std::size_t(i)];
        const QString query = m_dashboard.panels[std::size_t(state.panel)].series[std::size_t(state.query)].query;
        const QString promql = DashboardVariables::substitute(query, variables);
        SeriesKey::Variables values = DashboardVariables::keyValues(query, variables);
        if (promql == state.promql && values == state.keyValues)
            continue;
        resetQuery(state, promql, std::move(values));
        changed.push_back(i);
        if (!panels.contains(state.panel))
            panels.append(state.panel);
    }
    if (panels.isEmpty())
        return true;
    dropDerivedOf(changed, panels);
    emit seriesReplaced(panels, snapshot());
    for (int i : changed) {
        if (isRunning()) // else start() fetches them
            pollQuery(m_queries[std::size_t(i)], /*tail=*/false);
    }
    for (int panel : panels)
        updatePanelStatus(panel);
    return true;
}

void DashboardPoller::resetQuery(QueryState &state, const QString &promql, SeriesKey::Variables keyValues)
{
    const int index = int(&state - m_queries.data());
    dropQueuedHistory(index);
    if (const std::optional<Planner::FinePlan> fine = state.load.takeFinePlan())
        setProgress(m_progressDone, m_progressTotal - fine->reservedChunks);
    // Answers that arrived but are not merged yet are of the old value: count them as done.
    for (auto it = m_answers.begin(); it != m_answers.end();) {
        if (it->query != index) {
            ++it;
            continue;
        }
        if (it->history)
            setProgress(m_progressDone + 1, m_progressTotal);
        else
            state.inFlight = false;
        it = m_answers.erase(it);
    }
    QueryState fresh;
    fresh.panel = state.panel;
    fresh.query = state.query;
    fresh.promql = promql;
    fresh.keyValues = std::move(keyValues);
    fresh.epoch = state.epoch;
    fresh.epoch.advance(); // requests still on their way are dropped when they return
    state = std::move(fresh);

    // The old value's series leave the store (the session recorder has them already) and
    // their bindings with them; the new value's arrive under other keys.
    m_bindings.unbindQuery(state.panel, state.query);
    for (const QString &key : m_store->keysWithPrefix(SeriesKey::queryPrefix(state.panel, state.query)))
        m_store->remove(key);
}

void DashboardPoller::dropDerivedOf(const std::vector<int> &queries, QList<int> &panels)
{
    // Formulas over the old value's series would keep their old results between the new
    // ones: they go too, and DerivedSeriesUpdater computes them again as the new inputs come.
    QStringList changedIds;
    for (int i : queries) {
        const QueryState &state = m_queries[std::size_t(i)];
        const QString id = m_dashboard.panels[std::size_t(state.panel)].series[std::size_t(state.query)].id;
        if (!id.isEmpty())
            changedIds.append(id);
    }
    for (bool more = !changedIds.isEmpty(); more;) { // formulas over formulas: until none is added
        more = false;
        for (int p = 0; p < int(m_dashboard.panels.size()); ++p) {
            const auto &series = m_dashboard.panels[std::size_t(p)].series;
            for (int q = 0; q < int(series.size()); ++q) {
                const SeriesDefinition &definition = series[std::size_t(q)];
                if (definition.derive.isEmpty())
                    continue;
                const QList<QString> inputs = definition.deriveInputs.values();
                const bool affected = std::any_of(inputs.begin(), inputs.end(),
                                                  [&](const QString &id) { return changedIds.contains(id); });
                const QString key = SeriesKey::derived(p, q);
                if (!affected || !m_store->contains(key))
                    continue;
                m_store->remove(key);
                if (!panels.contains(p))
                    panels.append(p);
                if (!definition.id.isEmpty() && !changedIds.contains(definition.id)) {
                    changedIds.append(definition.id);
                    more = true;
                }
            }
        }
    }
}

void DashboardPoller::afterDroppedAnswer()
{
    launchHistory();
    if (m_tailOutstanding == 0 && (m_advancePending || !m_answers.empty()))
        m_apply.start(0);
}

QString DashboardPoller::requestQuery(const QueryState &state, qint64 stepMs) const
{
    return DashboardVariables::substituteBuiltins(state.promql, {stepMs, m_scrapeIntervalMs});
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

void DashboardPoller::setMaxHistoryRequestsInFlight(int requests)
{
    m_maxHistoryInFlight = qMax(requests, 1);
}

void DashboardPoller::setFineSampleBudget(qint64 samplesPerQuery)
{
    m_fineSampleBudget = qMax<qint64>(samplesPerQuery, 1);
}

void DashboardPoller::setDetailPointsPerColumn(int points)
{
    m_detailPointsPerColumn = std::max(points, 0);
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
    std::vector<TailBatches::Poll> polls;
    for (QueryState &state : m_queries) {
        if (const std::optional<TailBatches::Poll> poll = planPoll(state, /*tail=*/true))
            polls.push_back(*poll);
    }
    for (const TailBatches::Request &request : TailBatches::group(polls))
        sendTail(request);
}

DashboardPoller::Planner DashboardPoller::planner() const
{
    Planner::Settings settings;
    settings.scrapeIntervalMs = m_scrapeIntervalMs;
    settings.fineSampleBudget = m_fineSampleBudget;
    settings.detailPointsPerColumn = m_detailPointsPerColumn;
    if (m_client)
        settings.maxPointsPerRequest = m_client->connection().maxPointsPerRequest;
    return Planner(settings);
}

qint64 DashboardPoller::stepFor(int panel, const TimeRange &range) const
{
    const int width =
        panel < int(m_panelWidths.size()) ? m_panelWidths[std::size_t(panel)] : Planner::kDefaultPanelWidth;
    return planner().panelStepMs(range, width);
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
    if (const std::optional<TailBatches::Poll> poll = planPoll(state, tail))
        sendTail({{poll->query}, poll->range, poll->stepMs});
}

std::optional<TailBatches::Poll> DashboardPoller::planPoll(QueryState &state, bool tail)
{
    if (state.inFlight || state.historyPending > 0 || !m_client)
        return std::nullopt;
    const TimeRange visible = m_window->range();
    const qint64 step = stepFor(state.panel, visible);
    const Planner::View view{visible, m_window->isLive(), m_window->now()};
    const Planner::Next next = planner().next(
        view, step, {state.coverage, state.newestMs, state.load.tailStepMs, m_revisions.learnedMs()}, tail);
    if (next.kind == Planner::Next::Kind::History) {
        planHistory(state, next.range, step);
        return std::nullopt;
    }
    if (next.kind != Planner::Next::Kind::Tail)
        return std::nullopt;
    return TailBatches::Poll{int(&state - m_queries.data()), next.range, next.stepMs, state.mergeable};
}

void DashboardPoller::sendTail(const TailBatches::Request &request)
{
    const bool merged = request.queries.size() > 1;
    std::vector<Generation::Ticket> epochs;
    QStringList promql;
    for (const int query : request.queries) {
        QueryState &state = m_queries[std::size_t(query)];
        state.inFlight = true;
        ++m_tailOutstanding;
        epochs.push_back(state.epoch.current());
        promql.append(requestQuery(state, request.stepMs));
    }
    ++m_inFlight;
    if (merged)
        ++m_stats.mergedRequests;
    // Dropped when the dashboard changed meanwhile; counted, then dropped, when a variable did.
    const QString asked = merged ? MergedQuery::combine(promql) : promql.first();
    whenFinishedIfCurrent(
        m_client->rangeQuery(asked, request.range, request.stepMs), this, m_generation,
        [this, request, epochs, merged](const Result<PromQueryResult> &result) {
            --m_inFlight;
            m_tailOutstanding -= int(request.queries.size());
            if (merged && !result &&
                (result.error().kind == Error::Kind::Query || result.error().kind == Error::Kind::TooLarge)) {
                // One of them cannot be tagged (a scalar, say), or together they are too
                // much: each is asked alone, now and from now on, and shows its own error.
                for (const int query : request.queries) {
                    m_queries[std::size_t(query)].mergeable = false;
                    m_queries[std::size_t(query)].inFlight = false;
                }
                for (std::size_t i = 0; i < request.queries.size(); ++i) {
                    QueryState &state = m_queries[std::size_t(request.queries[i])];
                    if (state.epoch.isCurrent(epochs[i]))
                        pollQuery(state, /*tail=*/true);
                }
                afterDroppedAnswer();
                return;
            }
            std::vector<PromQueryResult> parts;
            if (merged && result)
                parts = MergedQuery::split(result.value(), int(request.queries.size()));
            for (std::size_t i = 0; i < request.queries.size(); ++i) {
                if (!m_queries[std::size_t(request.queries[i])].epoch.isCurrent(epochs[i])) {
                    afterDroppedAnswer(); // asked with a variable's old value
                    continue;
                }
                Answer answer;
                answer.query = request.queries[i];
                answer.range = request.range;
                answer.stepMs = request.stepMs;
                if (!result)
                    answer.result = result.error();
                else if (merged)
                    answer.result = std::move(parts[i]);
                else
                    answer.result = result.value();
                arrived(std::move(answer));
            }
        });
}

void DashboardPoller::planHistory(QueryState &state, const TimeRange &wanted, qint64 panelStepMs)
{
    const int index = int(&state - m_queries.data());
    const Planner::Plan plan = planner().plan(wanted, panelStepMs, state.seriesCount);
    state.load.begin(plan);
    if (plan.requests.empty())
        return;
    // The fine chunks are reserved in the progress before the coarse request is queued, so
    // the load never looks finished in between.
    if (plan.fine)
        addToProgress(plan.fine->reservedChunks);
    for (const Planner::Request &request : plan.requests)
        enqueue(index, request);
    launchHistory();
}

void DashboardPoller::enqueue(int query, const Planner::Request &request)
{
    ++m_queries[std::size_t(query)].historyPending;
    m_historyQueue.push(query, request);
    addToProgress(1);
}

void DashboardPoller::addToProgress(int requests)
{
    if (m_progressDone == m_progressTotal)
        setProgress(0, requests); // a new load starts
    else
        setProgress(m_progressDone, m_progressTotal + requests);
}

void DashboardPoller::launchHistory()
{
    while (m_historyInFlight < m_maxHistoryInFlight && !m_historyQueue.isEmpty()) {
        const HistoryQueue::Entry request = *m_historyQueue.takeNext();
        ++m_historyInFlight;
        ++m_inFlight;
        const QueryState &state = m_queries[std::size_t(request.query)];
        const Planner::Request &asked = request.request;
        whenFinishedIfCurrent(m_client->rangeQuery(requestQuery(state, asked.stepMs), asked.range, asked.stepMs), this,
                              m_generation,
                              [this, request, epoch = state.epoch.current()](const Result<PromQueryResult> &result) {
                                  --m_historyInFlight;
                                  --m_inFlight;
                                  if (!m_queries[std::size_t(request.query)].epoch.isCurrent(epoch)) {
                                      // Asked with a variable's old value: done, without a trace.
                                      setProgress(m_progressDone + 1, m_progressTotal);
                                      afterDroppedAnswer();
                                      return;
                                  }
                                  Answer answer;
                                  answer.query = request.query;
                                  answer.history = request;
                                  answer.range = request.request.range;
                                  answer.stepMs = request.request.stepMs;
                                  answer.result = result;
                                  if (!result) {
                                      // No more of this load: what is queued would fail alike.
                                      m_queries[std::size_t(request.query)].load.failed = true;
                                      dropQueuedHistory(request.query);
                                  }
                                  arrived(std::move(answer));
                                  launchHistory(); // keep the pipe full while this one waits
                              });
    }
}

void DashboardPoller::arrived(Answer answer)
{
    const bool history = answer.history.has_value();
    m_answers.push_back(std::move(answer));
    if (m_tailOutstanding > 0)
        return; // the rest of the tick's answers, or its deadline
    const bool moreHistory = m_historyInFlight > 0 || !m_historyQueue.isEmpty();
    if (!history || !moreHistory) {
        m_apply.start(0); // nothing else to wait for
    } else if (!m_apply.isActive()) {
        m_apply.start(kHistoryBatchMs);
    }
}

void DashboardPoller::applyAnswers()
{
    m_apply.stop();
    m_tailDeadline.stop();
    if (m_advancePending) {
        m_advancePending = false;
        m_window->advanceToNow();
    }
    // A refresh tick's tail answers are applied together, in this turn: were they spread over
    // turns, a refresh coming between two turns would move the window first and split the tick
    // across two moves (a chart drawing twice, half its panels a tick behind). A query never has
    // a tail and history on their way at once (planPoll), so taking the tails first keeps each
    // query's answers in the order they came.
    // History answers are applied for at most kApplyBudgetMs at a time; the rest wait for the
    // next turn of the event loop, so that a backfill's batch of chunks does not hold up input
    // and painting for the whole of its merges.
    QElapsedTimer budget;
    budget.start();
    std::vector<Answer> answers;
    answers.swap(m_answers);
    const auto firstHistory =
        std::stable_partition(answers.begin(), answers.end(), [](const Answer &answer) { return !answer.history; });
    const std::size_t tails = std::size_t(firstHistory - answers.begin());
    std::vector<int> panels;
    std::size_t applied = 0;
    while (applied < answers.size() && (applied <= tails || budget.elapsed() < kApplyBudgetMs)) {
        const Answer &answer = answers[applied++];
        if (answer.query >= int(m_queries.size()))
            continue;
        if (answer.history)
            applyHistoryAnswer(*answer.history, answer.result);
        else
            applyTailAnswer(answer);
        panels.push_back(m_queries[std::size_t(answer.query)].panel);
    }
    if (applied < answers.size()) {
        // Before any that arrived meanwhile: answers are applied in the order they came.
        m_answers.insert(m_answers.begin(), std::make_move_iterator(answers.begin() + std::ptrdiff_t(applied)),
                         std::make_move_iterator(answers.end()));
        m_apply.start(0);
    }
    std::sort(panels.begin(), panels.end());
    panels.erase(std::unique(panels.begin(), panels.end()), panels.end());
    launchHistory(); // fine chunks planned by coarse answers
    for (int panel : panels)
        updatePanelStatus(panel);
    if (!panels.empty() && m_inFlight == 0 && m_historyQueue.isEmpty() && m_answers.empty())
        emit pollCycleFinished();
}

void DashboardPoller::applyHistoryAnswer(const HistoryQueue::Entry &request, const Result<PromQueryResult> &result)
{
    QueryState &state = m_queries[std::size_t(request.query)];
    const Planner::Request &asked = request.request;
    --state.historyPending;
    state.answered = true;
    setProgress(m_progressDone + 1, m_progressTotal);

    if (!storeAnswer(state, result)) {
        // The rest of this load would fail the same way: drop it. The next refresh tick loads
        // again whatever the panel's step still lacks (a failed coarse pass, not the detail:
        // the picture is complete without it, and a zoom asks for finer data anyway).
        setProgress(m_progressDone, m_progressTotal - state.load.fail());
        dropQueuedHistory(request.query);
        return;
    }
    state.coverage.record(asked.range, asked.stepMs);
    state.load.drawn(asked.phase, asked.stepMs); // before the detail is planned from it
    if (asked.phase == Planner::Phase::Coarse) {
        if (const std::optional<Planner::FinePlan> fine = state.load.takeFinePlan()) {
            const Planner::FineChunks chunks =
                planner().planFine(*fine, int(result->series.size()), state.load.drawnStepMs);
            state.load.fineStepMs = chunks.fineStepMs;
            for (const Planner::Request &chunk : chunks.requests)
                enqueue(request.query, chunk);
            // The chunks are counted as they are queued (above, so the load never looks
            // finished in between); now give back the reservation.
            setProgress(m_progressDone, m_progressTotal - fine->reservedChunks);
        }
    }
    if (state.historyPending == 0)
        state.load.complete();
}

void DashboardPoller::cancelHistory()
{
    for (int query = 0; query < int(m_queries.size()); ++query) {
        QueryState &state = m_queries[std::size_t(query)];
        setProgress(m_progressDone, m_progressTotal - state.load.cancel(state.historyPending > 0));
        dropQueuedHistory(query);
    }
}

void DashboardPoller::dropQueuedHistory(int query)
{
    const int count = m_historyQueue.dropQuery(query);
    m_queries[std::size_t(query)].historyPending -= count;
    setProgress(m_progressDone, m_progressTotal - count);
}

void DashboardPoller::setProgress(int done, int total)
{
    if (done == m_progressDone && total == m_progressTotal)
        return;
    m_progressDone = done;
    m_progressTotal = total;
    emit backfillProgress(done, total);
}

void DashboardPoller::applyTailAnswer(const Answer &answer)
{
    QueryState &state = m_queries[std::size_t(answer.query)];
    state.inFlight = false;
    state.answered = true;
    if (answer.result)
        noteRevisions(state, answer);
    if (storeAnswer(state, answer.result)) {
        // Record coverage up to the range's end even when the newest instants had no sample,
        // so an empty query is not refetched over and over.
        state.coverage.record(answer.range, answer.stepMs);
    }
}

QString DashboardPoller::keyOf(const QueryState &state, const PromSeries &series) const
{
    return SeriesKey::ofQuery(state.panel, state.query, state.keyValues, series.labelKey());
}

void DashboardPoller::noteRevisions(const QueryState &state, const Answer &answer)
{
    std::optional<qint64> oldest;
    const auto note = [&](std::optional<qint64> revised) {
        if (revised)
            oldest = std::min(oldest.value_or(*revised), *revised);
    };
    const std::optional<qint64> askedUntil = state.coverage.fetchedUntil();
    QSet<QString> answered;
    for (const PromSeries &series : answer.result->series) {
        const QString key = keyOf(state, series);
        answered.insert(key);
        const SampleStore::Series *stored = m_store->series(key);
        note(stored ? RevisionWindow::oldestRevision(stored->timestampsMs(), stored->values(), series.timestampsMs,
                                                     series.values, answer.range, askedUntil)
                    : RevisionWindow::oldestRevision({}, {}, series.timestampsMs, series.values, answer.range,
                                                     askedUntil));
    }
    // A series of this query the answer left out, where it had samples.
    for (const SeriesBinding &binding : m_bindings.ofPanel(state.panel)) {
        if (binding.query != state.query || answered.contains(binding.key))
            continue;
        if (const SampleStore::Series *stored = m_store->series(binding.key))
            note(RevisionWindow::oldestRevision(stored->timestampsMs(), stored->values(), {}, {}, answer.range,
                                                askedUntil));
    }
    if (m_revisions.observe(answer.range, answer.stepMs, oldest))
        m_stats.revisedMs = m_revisions.learnedMs();
}

bool DashboardPoller::storeAnswer(QueryState &state, const Result<PromQueryResult> &result)
{
    if (!result) {
        ++m_stats.failed;
        if (result.error().isSourceDown())
            ++m_stats.sourceDown;
        state.error = result.error();
        return false;
    }
    ++m_stats.succeeded;
    state.error.reset();
    state.warnings = result->warnings;
    state.seriesCount = int(result->series.size());
    // Tail polls go on from the newest sample: one stamped in the future (a server clock
    // far ahead) must not make them wait for that moment, so "newest" never passes now.
    const qint64 now = m_window->now();
    qint64 furthestAheadMs = 0;
    const auto &panel = m_dashboard.panels[std::size_t(state.panel)];
    const QString legendTemplate = panel.series[std::size_t(state.query)].legend;
    for (const PromSeries &series : result->series) {
        const QString key = keyOf(state, series);
        const std::optional<SeriesBinding> added =
            m_bindings.bindQueried(state.panel, state.query, key, legendTemplate, series.labels);
        m_store->merge(key, series.labels, series.timestampsMs, series.values);
        if (!series.timestampsMs.empty()) {
            const qint64 latest = *std::max_element(series.timestampsMs.begin(), series.timestampsMs.end());
            furthestAheadMs = std::max(furthestAheadMs, latest - now);
            const qint64 newest = std::min(latest, now);
            state.newestMs = std::max(state.newestMs.value_or(newest), newest);
        }
        if (added)
            emit seriesAdded(*added);
    }
    if (furthestAheadMs > kFutureToleranceMs) {
        state.warnings.append(QStringLiteral("Samples are stamped up to %1 ahead of this computer's "
                                             "clock; is the server's clock right?")
                                  .arg(Format::duration(furthestAheadMs)));
    }
    return true;
}

void DashboardPoller::updatePanelStatus(int panel)
{
    PanelStatus status;
    // The resolution drawn: the coarsest part counts, so that a coarse picture still being
    // refined is not mistaken for samples with gaps between them.
    status.stepMs = 0;
    bool anyAnswered = false;
    bool anyPending = false;
    int seriesCount = 0;
    for (const QueryState &state : m_queries) {
        if (state.panel != panel)
            continue;
        anyAnswered |= state.answered;
        anyPending |= !state.answered;
        status.stepMs = std::max(status.stepMs, state.load.drawnStepMs > 0 ? state.load.drawnStepMs
                                                                           : stepFor(panel, m_window->range()));
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
                                            .arg(defs[std::size_t(state.query)].query.left(60), state.error->message);
            }
        }
    }
    if (status.state == PanelStatus::State::SourceDown || status.state == PanelStatus::State::QueryError) {
        // A failing panel still shows its last curves: say how old they are, so that a flat
        // stale line is never taken for a healthy one.
        status.message += status.newestSampleMs ? QStringLiteral(" Last good sample %1 ago.")
                                                      .arg(Format::duration(m_window->now() - *status.newestSampleMs))
                                                : QStringLiteral(" No sample received yet.");
    }
    if (status.state == PanelStatus::State::Loading && anyAnswered) {
        if (seriesCount > 0 || status.newestSampleMs)
            status.state = PanelStatus::State::Ok;
        else if (!anyPending)
            status.state = PanelStatus::State::NoData;
    }
    if (status.stepMs == 0)
        status.stepMs = stepFor(panel, m_window->range());
    status.warnings.removeDuplicates();
    if (status == m_panelStatus[std::size_t(panel)])
        return;
    m_panelStatus[std::size_t(panel)] = status;
    emit panelStatusChanged(panel, status);
}

PanelStatus DashboardPoller::panelStatus(int panel) const
{
    if (panel < 0 || panel >= int(m_panelStatus.size()))
        return {};
    return m_panelStatus[std::size_t(panel)];
}

std::vector<DashboardPoller::SeriesBinding> DashboardPoller::seriesOfPanel(int panel) const
{
    return m_bindings.ofPanel(panel);
}

DashboardSnapshot DashboardPoller::snapshot() const
{
    DashboardSnapshot now;
    now.dashboard = m_dashboard;
    now.status = m_panelStatus;
    now.series = m_bindings.byPanel(int(m_dashboard.panels.size()));
    now.refreshMs = refreshMs();
    return now;
}

void DashboardPoller::bindStoredSeries(const QStringList &order)
{
    for (const QString &key : order + m_store->keys()) {
        if (!m_store->contains(key))
            continue;
        const std::optional<SeriesKey::Parsed> parsed = SeriesKey::parse(key);
        if (!parsed)
            continue;
        const int panel = parsed->panel;
        const int query = parsed->query;
        if (panel >= int(m_dashboard.panels.size()) ||
            query >= int(m_dashboard.panels[std::size_t(panel)].series.size()))
            continue;
        const std::optional<SeriesBinding> added = m_bindings.bindQueried(
            panel, query, key, m_dashboard.panels[std::size_t(panel)].series[std::size_t(query)].legend,
            m_store->series(key)->labels());
        if (added)
            emit seriesAdded(*added);
    }
    for (int panel = 0; panel < int(m_panelStatus.size()); ++panel) {
        PanelStatus status;
        status.stepMs = stepFor(panel, m_window->range());
        for (const SeriesBinding &binding : seriesOfPanel(panel)) {
            if (const auto newest = m_store->newestTimestamp(binding.key))
                status.newestSampleMs = std::max(status.newestSampleMs.value_or(*newest), *newest);
        }
        status.state = status.newestSampleMs ? PanelStatus::State::Ok : PanelStatus::State::NoData;
        m_panelStatus[std::size_t(panel)] = status;
        emit panelStatusChanged(panel, status);
    }
}
