// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "fetching/fetchcoverage.h"
#include "prometheus/stepplanner.h"

#include <QStringList>
#include <optional>
#include <vector>

// What to ask Prometheus for, decided without asking it: the pure half of the poller.
//
// History is loaded coarse-to-fine, so a long window (a Chaos Day of 8 h) shows a picture at
// once and its detail soon after, without flooding the server:
//  - coarse: one request per query at the panel's step (about a point per pixel column);
//  - fine: the same range at the scrape interval (the raw samples, so that decimation keeps
//    every spike and a zoom needs no fetch), split into chunks within the server's points
//    limit, newest first. A query's fine step is coarsened when its series would exceed the
//    sample budget; ranges with few fine points skip the coarse pass (a single pass).
// Between history loads, tail polls fetch only what is new, from the newest sample with an
// overlap, so that the last, provisional point is replaced.
class HistoryPlanner
{
public:
    struct Settings
    {
        qint64 scrapeIntervalMs = 1000;
        // Samples one query may load at the fine step (all its series together): 8 h at 1 s
        // for a query with one series; beyond it the fine step is coarser.
        qint64 fineSampleBudget = 40'000;
        int maxPointsPerRequest = StepPlanner::kServerMaxPointsPerSeries;
        // The detail a panel gets is at most this many points per pixel column of the
        // panel's step (M4 draws each column from its extremes; more only costs the server):
        // at 8 an 8 h window 650 px wide gets 10 s detail, not 1 s. A zoom asks for more
        // detail, for the range it shows. 0: no cap, the scrape interval or the budget decide.
        int detailPointsPerColumn = 0;
    };
    // A history range with at most this many points per series at the fine step is fetched
    // in one pass: a coarse picture first would not arrive noticeably sooner.
    static constexpr qint64 kSinglePassPoints = 2000;
    // How many steps of the newest data a tail poll fetches again: the newest point of a
    // rate() is provisional until the next scrape lands, so it is replaced, not kept.
    static constexpr int kOverlapSteps = 2;
    static constexpr int kDefaultPanelWidth = 800;

    enum class Phase
    {
        Single,
        Coarse,
        Fine
    };
    struct Request
    {
        Phase phase = Phase::Single;
        TimeRange range;
        qint64 stepMs = 0;
        int rank = 0; // fine chunks: 0 is the newest
        bool operator==(const Request &) const = default;
    };
    // The detail of a coarse pass, planned once the coarse answer tells how many series the
    // query has.
    struct FinePlan
    {
        TimeRange range;        // unaligned: each step aligns it to its own grid
        int reservedChunks = 0; // counted in the progress total before the coarse answer
        bool operator==(const FinePlan &) const = default;
    };
    struct Plan
    {
        std::vector<Request> requests; // empty: nothing to load (an empty range)
        std::optional<FinePlan> fine;  // after the coarse request's answer
        qint64 fineStepMs = 0;
    };
    struct FineChunks
    {
        std::vector<Request> requests; // oldest first, ranked newest first
        qint64 fineStepMs = 0;         // the step the load ends at (the drawn one without chunks)
    };

    // Where one query's load stands: what its panel draws, at which step the tail goes on,
    // and whether the load failed or its detail was given up.
    struct LoadState
    {
        std::optional<FinePlan> finePlan; // planned, waiting for the coarse answer
        qint64 fineStepMs = 0;            // of the running load's fine pass
        qint64 drawnStepMs = 0;           // resolution of the data shown (the coarsest part)
        std::optional<qint64> tailStepMs; // tail polls continue at the step history used
        bool failed = false;              // of the running load
        bool detailCancelled = false;     // the fine pass was given up (Cancel)

        // A load starts: failure and cancel of the last one are forgotten. An empty plan
        // changes nothing else.
        void begin(const Plan &plan);
        // The fine plan, handed over once (to planFine, or to give its reservation back).
        std::optional<FinePlan> takeFinePlan();
        // An answer of this phase at this step is merged: a coarse or single pass is what the
        // panel shows now.
        void drawn(Phase phase, qint64 stepMs);
        // Every request of the load is answered: unless it failed, the panel shows the fine
        // step (the coarse one when the detail was cancelled) and the tail brings raw samples.
        void complete();
        // An answer failed: the rest of the load is given up. Returns the fine chunks that were
        // reserved and will not come.
        int fail();
        // Cancel: no detail is planned any more; with requests still pending, the panel keeps
        // the step it really has. Returns the fine chunks that were reserved.
        int cancel(bool pending);

        // "drawn 15s, tail 15s, fine 1s, 11 fine chunks reserved", and "failed", "cancelled".
        QString describe() const;
    };

    // What the poller looks at when it decides.
    struct View
    {
        TimeRange visible;
        bool live = true;
        qint64 nowMs = 0;
    };
    struct Query
    {
        const FetchCoverage &coverage;
        std::optional<qint64> newestMs; // newest sample received
        std::optional<qint64> tailStepMs;
        // How far back the server has been seen to revise its answers (RevisionWindow): the
        // tail asks again for at least that much, and never less than kOverlapSteps.
        qint64 revisedMs = 0;
    };
    struct Next
    {
        enum class Kind
        {
            Nothing,
            History, // load `range` (plan() it at the panel's step)
            Tail,    // poll `range` at `stepMs`
        };
        Kind kind = Kind::Nothing;
        TimeRange range;
        qint64 stepMs = 0;
    };

    HistoryPlanner(); // the default Settings
    explicit HistoryPlanner(const Settings &settings) : m_settings(settings) {}
    const Settings &settings() const { return m_settings; }

    // The step a panel of this width needs for this range: about a point per pixel column.
    qint64 panelStepMs(const TimeRange &visible, int widthPx) const;
    // The fine step for a range: the scrape interval, coarser when the query's series would
    // exceed the sample budget.
    qint64 fineStepFor(qint64 lengthMs, int seriesCount) const;
    // The finest step worth fetching for a panel drawn at this step (detailPointsPerColumn).
    qint64 detailStepFor(qint64 panelStepMs) const;
    // Requests needed for this range at this step within the points limit.
    int chunkCount(const TimeRange &range, qint64 stepMs) const;

    // History to load, a tail to poll, or nothing: history when the visible range (in live
    // mode up to where was fetched) is not covered at the panel's step; otherwise, on a
    // refresh tick (`tail`), what came since the newest sample.
    Next next(const View &view, qint64 panelStepMs, const Query &query, bool tail) const;
    // The load of `wanted` at the panel's step: a single pass, or a coarse request whose
    // detail is planned from its answer.
    Plan plan(const TimeRange &wanted, qint64 panelStepMs, int knownSeriesCount) const;
    // The fine chunks after the coarse answer: none for a query without series or when the
    // fine step would be no finer than what is drawn.
    FineChunks planFine(const FinePlan &plan, int seriesCount, qint64 drawnStepMs) const;

    // "coarse 0–8h step 30s", "fine 6h6m40s–8h step 1s rank 0"; times relative to originMs.
    static QString describe(const Request &request, qint64 originMs);
    // Its requests, then "reserve 3 fine chunks".
    static QStringList describe(const Plan &plan, qint64 originMs);
    static QStringList describe(const FineChunks &chunks, qint64 originMs);
    // "history 0–3h", "tail 2h59m58s–3h step 1s", "nothing".
    static QString describe(const Next &next, qint64 originMs);

private:
    Settings m_settings;
};

// The history requests of all queries not sent yet. The next to send: every query's picture
// (single and coarse passes) before any query's detail, detail newest first across panels,
// first come first served among equals.
class HistoryQueue
{
public:
    struct Entry
    {
        int query = 0;
        HistoryPlanner::Request request;
        quint64 order = 0;
    };

    void push(int query, const HistoryPlanner::Request &request);
    std::optional<Entry> takeNext();
    // Drops the requests of a query; returns how many.
    int dropQuery(int query);
    void clear() { m_entries.clear(); }
    bool isEmpty() const { return m_entries.empty(); }
    int size() const { return int(m_entries.size()); }

    // "q0 coarse 0–3h step 15s", in the order they would be sent.
    QStringList describe(qint64 originMs) const;

private:
    std::vector<Entry> m_entries;
    quint64 m_order = 0;
};
