// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/generation.h"
#include "base/result.h"
#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "fetching/dashboardsnapshot.h"
#include "fetching/fetchcoverage.h"
#include "fetching/historyplanner.h"
#include "fetching/panelstatus.h"
#include "fetching/revisionwindow.h"
#include "fetching/seriesbindings.h"
#include "fetching/tailbatches.h"
#include "prometheus/prometheustypes.h"
#include "store/serieskey.h"

#include <QList>
#include <QObject>
#include <QTimer>
#include <optional>
#include <vector>

class PrometheusClient;
class SampleStore;
class TimeWindow;

// Keeps the store filled for every series of a dashboard: on each refresh tick it fetches
// only what is new (from the newest sample, with an overlap so the last, provisional point
// is replaced), and when the visible range moves to time not yet fetched at the resolution
// the panel needs, it loads that history. An answer that arrives after the dashboard changed
// is dropped (Generation, the house's one "newer supersedes" helper).
//
// History is loaded coarse-to-fine (a picture at once, its detail soon after): what to ask
// for is the HistoryPlanner's, what each query has is its FetchCoverage's. Requests of all
// queries share one HistoryQueue with a bounded number in flight; tail polls of a query wait
// until its history is in.
//
// Answers are merged into the store in batches, because every merge makes its panel draw
// again: the tail polls of a refresh tick together with the window's advance to now (when
// the last one is in, at most 250 ms after the tick), history answers at most every 200 ms
// while more are coming.
class DashboardPoller : public QObject
{
    Q_OBJECT
public:
    using SeriesBinding = ::SeriesBinding;

    struct Stats
    {
        int succeeded = 0;      // query calls answered with data or an empty result
        int failed = 0;         // query calls that failed for any reason
        int sourceDown = 0;     // of those, failed because the source was unreachable
        qint64 revisedMs = 0;   // how far back the server was seen to revise its answers
        int mergedRequests = 0; // tail requests that asked several queries at once
    };

    DashboardPoller(PrometheusClient *client, SampleStore *store, TimeWindow *window, QObject *parent = nullptr);

    void setDashboard(const DashboardDefinition &dashboard);
    const DashboardDefinition &dashboard() const { return m_dashboard; }
    // A new value for a $variable (DashboardVariables::kAllValue for "All"). Every query whose
    // text changes with it is asked again for the whole visible range: its series are
    // replaced in the store (seriesReplaced, then seriesAdded as the answers come), since the
    // old samples belong to another value. False when no such variable is declared.
    bool setVariable(const QString &name, const QString &value);

    // The plot width of a panel in pixels: the step follows it (about a point per pixel).
    void setPanelWidth(int panel, int pixels);
    void setScrapeIntervalMs(qint64 scrapeIntervalMs);
    void setRefreshMs(int refreshMs);
    int refreshMs() const { return m_refresh.interval(); }
    // History requests in flight at once, over all queries (default 6: what
    // QNetworkAccessManager opens per host; more would only queue there).
    void setMaxHistoryRequestsInFlight(int requests);
    // Samples one query may load at the fine step (all its series together, default
    // 40,000: 8 h at 1 s for a query with one series); beyond it the fine step is coarser.
    void setFineSampleBudget(qint64 samplesPerQuery);
    // History detail: at most this many points per pixel column of a panel's step (default
    // kDetailPointsPerColumn; 0: the scrape interval, within the sample budget). The tail
    // goes on at the detail step; zooming in asks for more detail where it is shown.
    void setDetailPointsPerColumn(int points);
    static constexpr int kDetailPointsPerColumn = 8;

    void start();
    void stop();
    bool isRunning() const { return m_refresh.isActive(); }
    void pollNow();
    // A recording shown offline: binds every series already in the store to its panel (keys
    // "p<panel>/q<query>/…") and sets each panel's status from its samples, without querying.
    // `order` (keys as they first arrived live) keeps the colours they had; default: sorted.
    void bindStoredSeries(const QStringList &order = {});

    // Stops loading history (the user's Cancel): queued requests are dropped and no detail is
    // planned after coarse answers still in flight, which are used. What is drawn stays; the
    // tail polls go on from the newest sample. The visible range is not asked for again: its
    // coarse pass covers it. A later zoom or a new window loads as usual.
    void cancelHistory();
    // True while history requests are queued or in flight.
    bool isLoadingHistory() const { return m_progressDone < m_progressTotal; }

    PanelStatus panelStatus(int panel) const;
    std::vector<SeriesBinding> seriesOfPanel(int panel) const;
    // Everything a view of the dashboard shows now, for an owner building one; the signals
    // tell what changes after.
    DashboardSnapshot snapshot() const;
    Stats stats() const { return m_stats; }

    static QString keyPrefix(int panel);

signals:
    // Each carries what changed, so that a view never calls back to ask.
    void panelStatusChanged(int panel, const PanelStatus &status);
    // A series a panel draws from now on (a query's answer named it, or a recording has it).
    void seriesAdded(const SeriesBinding &binding);
    void pollCycleFinished();
    // A variable took a new value (setVariable), before its queries are asked again.
    void variableChanged(const QString &name, const QString &value);
    // These panels lost their queried series (a variable changed): views drop what they draw
    // and draw `now` instead.
    void seriesReplaced(const QList<int> &panels, const DashboardSnapshot &now);
    // History loading: requests answered of requests planned, for a progress bar. Each load
    // (opening a dashboard, a zoom into time not fetched yet) counts from (0, n); the total
    // may shrink once a query's series count is known (fewer fine chunks than reserved).
    // done == total: nothing is loading.
    void backfillProgress(int done, int total);

private:
    using Planner = HistoryPlanner;
    struct QueryState
    {
        int panel = 0;
        int query = 0;
        QString promql;                 // with variables substituted; built-ins are put in per request
        SeriesKey::Variables keyValues; // the variable values in its store keys (DashboardVariables::keyValues)
        Generation epoch;               // advanced when a variable changes the query: older answers are dropped
        bool inFlight = false;          // a tail poll
        bool mergeable = true;          // false once a merged request with it was refused
        int historyPending = 0;         // history requests queued or in flight
        Planner::LoadState load;        // the running history load
        bool answered = false;
        std::optional<Error> error;
        QStringList warnings;
        int seriesCount = 0;
        FetchCoverage coverage;         // what is in the store, at which resolution
        std::optional<qint64> newestMs; // newest sample received
    };

    void onRangeChanged(const TimeRange &range);
    void pollQuery(QueryState &state, bool tail);
    // What pollQuery would ask as a tail poll (history it needs is planned and queued).
    std::optional<TailBatches::Poll> planPoll(QueryState &state, bool tail);
    // One tail request: a query alone, or several merged (MergedQuery) and split on arrival.
    void sendTail(const TailBatches::Request &request);
    // An answer waiting to be merged (see arrived()).
    struct Answer
    {
        int query = 0;
        std::optional<HistoryQueue::Entry> history; // empty: a tail poll
        TimeRange range;
        qint64 stepMs = 0;
        Result<PromQueryResult> result = Error::make(Error::Kind::Invalid, QString());
    };
    // Answers are merged in batches: one render per chart for many answers.
    void arrived(Answer answer);
    void applyAnswers();
    void applyTailAnswer(const Answer &answer);
    QString keyOf(const QueryState &state, const PromSeries &series) const;
    // Compares a tail answer with what the store has before it is merged: a server that
    // revises older samples than the overlap asked for widens the overlap (RevisionWindow).
    void noteRevisions(const QueryState &state, const Answer &answer);
    // Merges a successful answer into the store; false (with the error kept) on failure.
    bool storeAnswer(QueryState &state, const Result<PromQueryResult> &result);
    void planHistory(QueryState &state, const TimeRange &wanted, qint64 panelStepMs);
    void enqueue(int query, const Planner::Request &request);
    void launchHistory();
    void applyHistoryAnswer(const HistoryQueue::Entry &request, const Result<PromQueryResult> &result);
    void dropQueuedHistory(int query);
    void setProgress(int done, int total);
    void addToProgress(int requests);
    // The planner with today's settings (the scrape interval, the budget, the server's limit).
    Planner planner() const;
    qint64 stepFor(int panel, const TimeRange &range) const;
    void updatePanelStatus(int panel);
    // The query as sent for one request: with $__interval and $__rate_interval of its step.
    QString requestQuery(const QueryState &state, qint64 stepMs) const;
    // Forgets what was fetched for a query whose text changed, and its series in the store.
    void resetQuery(QueryState &state, const QString &promql, SeriesKey::Variables keyValues);
    // Removes the derived series computed from these queries (ids, through formulas over
    // formulas) from the store; adds their panels.
    void dropDerivedOf(const std::vector<int> &queries, QList<int> &panels);
    // An answer of an older epoch was dropped: whatever waited for it may go on.
    void afterDroppedAnswer();

    PrometheusClient *m_client;
    SampleStore *m_store;
    TimeWindow *m_window;
    DashboardDefinition m_dashboard;
    std::vector<QueryState> m_queries;
    std::vector<int> m_panelWidths;
    std::vector<PanelStatus> m_panelStatus;
    SeriesBindings m_bindings;
    qint64 m_scrapeIntervalMs = 1000;
    RevisionWindow m_revisions;  // of the server: how far back the tail asks again
    Generation m_generation;     // advanced by setDashboard: older answers are dropped
    int m_inFlight = 0;          // tail and history requests
    HistoryQueue m_historyQueue; // not sent yet
    int m_historyInFlight = 0;
    int m_maxHistoryInFlight = 6;
    qint64 m_fineSampleBudget = Planner::Settings().fineSampleBudget;
    int m_detailPointsPerColumn = kDetailPointsPerColumn;
    int m_progressDone = 0;
    int m_progressTotal = 0;
    int m_tailOutstanding = 0;     // tail polls of the current tick still on their way
    std::vector<Answer> m_answers; // arrived, not merged yet
    QTimer m_apply;
    QTimer m_tailDeadline;
    bool m_advancePending = false; // the window moves when the tick's answers are merged
    Stats m_stats;
    QTimer m_refresh;
};
