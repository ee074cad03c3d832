// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboarddefinition.h"
#include "panelstatus.h"
#include "result.h"
#include "timerange.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <vector>

class PrometheusClient;
class SampleStore;
class TimeWindow;
struct PromQueryResult;

// Keeps the store filled for every series of a dashboard: on each refresh tick it fetches
// only what is new (from the newest sample, with an overlap so the last, provisional point
// is replaced), and when the visible range moves to time not yet fetched at the resolution
// the panel needs, it fetches that range. One query of a series is in flight at a time; an
// answer that arrives after the dashboard changed is dropped (generation counter).
class DashboardPoller : public QObject
{
    Q_OBJECT
public:
    // One series of a panel as it appears in the store (one query can yield many).
    struct SeriesBinding
    {
        int panel = 0;
        int query = 0; // index in PanelDefinition::series
        QString key;   // SampleStore key
        QString legend;
    };

    struct Stats
    {
        int succeeded = 0;     // query calls answered with data or an empty result
        int failed = 0;        // query calls that failed for any reason
        int sourceDown = 0;    // of those, failed because the source was unreachable
    };

    DashboardPoller(PrometheusClient *client, SampleStore *store, TimeWindow *window,
                    QObject *parent = nullptr);

    void setDashboard(const DashboardDefinition &dashboard);
    const DashboardDefinition &dashboard() const { return m_dashboard; }

    // The plot width of a panel in pixels: the step follows it (about a point per pixel).
    void setPanelWidth(int panel, int pixels);
    void setScrapeIntervalMs(qint64 scrapeIntervalMs);
    void setRefreshMs(int refreshMs);
    int refreshMs() const { return m_refresh.interval(); }

    void start();
    void stop();
    bool isRunning() const { return m_refresh.isActive(); }
    void pollNow();

    PanelStatus panelStatus(int panel) const;
    std::vector<SeriesBinding> seriesOfPanel(int panel) const;
    Stats stats() const { return m_stats; }

    static QString keyPrefix(int panel);

signals:
    void panelStatusChanged(int panel);
    void seriesAdded(int panel, const QString &key);
    void pollCycleFinished();

private:
    struct Fetched
    {
        TimeRange range;
        qint64 stepMs;
    };
    struct QueryState
    {
        int panel = 0;
        int query = 0;
        QString promql; // with variables substituted
        bool inFlight = false;
        bool answered = false;
        std::optional<Error> error;
        QStringList warnings;
        int seriesCount = 0;
        std::vector<Fetched> fetched; // what is in the store, at which resolution
        std::optional<qint64> newestMs;     // newest sample received
        std::optional<qint64> fetchedUntil; // end of the newest range answered
    };

    void onRangeChanged(const TimeRange &range);
    void pollQuery(QueryState &state, bool tail);
    void handleAnswer(int index, quint64 generation, const TimeRange &range, qint64 stepMs,
                      const Result<PromQueryResult> &result);
    qint64 stepFor(int panel, const TimeRange &range) const;
    static void recordFetched(QueryState &state, Fetched fetched);
    bool isCovered(const QueryState &state, const TimeRange &range, qint64 stepMs) const;
    void updatePanelStatus(int panel);

    PrometheusClient *m_client;
    SampleStore *m_store;
    TimeWindow *m_window;
    DashboardDefinition m_dashboard;
    std::vector<QueryState> m_queries;
    std::vector<int> m_panelWidths;
    std::vector<PanelStatus> m_panelStatus;
    QHash<QString, SeriesBinding> m_bindings;
    qint64 m_scrapeIntervalMs = 1000;
    quint64 m_generation = 0;
    int m_inFlight = 0;
    Stats m_stats;
    QTimer m_refresh;
};
