// SPDX-License-Identifier: GPL-3.0-or-later
// Loading the history of a long window (a Chaos Day): a coarse picture per query first, then
// the raw samples in chunks within the server's points limit, newest first, a bounded number
// in flight, with progress a main window can show. A loopback fake of the query_range API
// answers every request from a formula, so the requests themselves can be checked; the real
// Prometheus is exercised by the integration suite and the backfill benchmark.
#include "fetching/dashboardpoller.h"
#include "httprequest.h"
#include "prometheus/prometheusclient.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QPointer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>

namespace {

constexpr qint64 kNow = 1'700'000'040'000; // a whole minute
constexpr qint64 kHour = 3'600'000;

// Answers /api/v1/query_range like Prometheus would for a metric scraped every second:
// one value per instant, value = f(t). The query names how many series answer: "m1" one,
// "m20" twenty, "empty" none, "broken" fails with a Prometheus error.
class FakePrometheus : public QObject
{
public:
    struct Request
    {
        QString query;
        qint64 startMs = 0;
        qint64 endMs = 0;
        qint64 stepMs = 0;
        qint64 points() const { return (endMs - startMs) / stepMs + 1; }
    };

    FakePrometheus()
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0))
            ADD_FAILURE() << "cannot listen: " << m_server.errorString().toStdString();
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(m_server.serverPort())); }

    // Requests with a step below holdBelowMs wait until release(): lets a test look at the
    // coarse picture before the detail arrives.
    void holdStepsBelow(qint64 stepMs) { m_holdBelowMs = stepMs; }
    void release()
    {
        m_holdBelowMs = 0;
        const auto held = std::move(m_held);
        m_held.clear();
        for (const auto &[socket, request] : held)
            respond(socket, request);
    }
    // Requests with this step fail (a Prometheus error answer).
    void failStep(qint64 stepMs) { m_failStepMs = stepMs; }

    QList<Request> requests;
    int inFlight = 0;
    int maxInFlight = 0;
    int answerDelayMs = 15;
    int jitterMs = 0; // added at random to each answer's delay

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        while (const std::optional<HttpRequest> http = takeHttpRequest(buffer)) {
            const QUrlQuery params = http->params();
            Request request;
            request.query = params.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded);
            request.startMs = qRound64(params.queryItemValue(QStringLiteral("start")).toDouble() * 1000);
            request.endMs = qRound64(params.queryItemValue(QStringLiteral("end")).toDouble() * 1000);
            request.stepMs = qRound64(params.queryItemValue(QStringLiteral("step")).toDouble() * 1000);
            requests.append(request);
            maxInFlight = std::max(maxInFlight, ++inFlight);
            if (m_holdBelowMs > 0 && request.stepMs < m_holdBelowMs) {
                m_held.push_back({QPointer<QTcpSocket>(socket), request});
                continue;
            }
            // A little latency, so that requests overlap as they do against a real server.
            const int delay = answerDelayMs + (jitterMs > 0 ? int(QRandomGenerator::global()->bounded(jitterMs)) : 0);
            QTimer::singleShot(delay, this,
                               [this, socket = QPointer<QTcpSocket>(socket), request] { respond(socket, request); });
        }
    }

    // The queries of a request with the label text each one's series carry: one query
    // untagged, or the parts of a merged tail request (MergedQuery), each with its tag.
    static std::vector<std::pair<QString, QByteArray>> parts(const QString &query)
    {
        static const QRegularExpression tagged(
            QStringLiteral(R"re(label_replace\((.*?), "chaoscope_query", "(\d+)", "", ""\))re"));
        std::vector<std::pair<QString, QByteArray>> out;
        for (auto it = tagged.globalMatch(query); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            out.emplace_back(match.captured(1), R"(,"chaoscope_query":")" + match.captured(2).toUtf8() + "\"");
        }
        if (out.empty())
            out.emplace_back(query, QByteArray());
        return out;
    }

    static double valueAt(qint64 t, int series) { return double((t / 1000) % 97) + series * 1000; }

    void respond(const QPointer<QTcpSocket> &socket, const Request &request)
    {
        --inFlight;
        if (!socket)
            return;
        QByteArray body;
        int status = 200;
        const auto asked = parts(request.query);
        const bool broken = std::any_of(asked.begin(), asked.end(),
                                        [](const auto &part) { return part.first == QLatin1String("broken"); });
        if (broken || request.stepMs == m_failStepMs) {
            status = 422;
            body =
                R"({"status":"error","errorType":"execution","error":"query processing would load too many samples"})";
        } else {
            body = R"({"status":"success","data":{"resultType":"matrix","result":[)";
            bool firstSeries = true;
            for (const auto &[query, tag] : parts(request.query)) {
                const int series = query == QLatin1String("empty") ? 0 : query.trimmed().mid(1).toInt();
                for (int s = 0; s < series; ++s) {
                    body += (firstSeries ? "" : ",") + QByteArray(R"({"metric":{"__name__":"m","s":")") +
                            QByteArray::number(s) + "\"" + tag + R"(},"values":[)";
                    firstSeries = false;
                    bool first = true;
                    for (qint64 t = request.startMs; t <= request.endMs; t += request.stepMs) {
                        body += (first ? "[" : ",[") + QByteArray::number(double(t) / 1000, 'f', 3) + ",\"" +
                                QByteArray::number(valueAt(t, s)) + "\"]";
                        first = false;
                    }
                    body += "]}";
                }
            }
            body += "]}}";
        }
        socket->write("HTTP/1.1 " + QByteArray::number(status) +
                      " X\r\nContent-Type: application/json\r\n"
                      "Content-Length: " +
                      QByteArray::number(body.size()) + "\r\n\r\n" + body);
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    qint64 m_holdBelowMs = 0;
    qint64 m_failStepMs = -1;
    std::vector<std::pair<QPointer<QTcpSocket>, Request>> m_held;
};

DashboardDefinition dashboardOf(const QStringList &queries)
{
    DashboardDefinition dashboard;
    dashboard.refreshSeconds = 3600; // the tests poll by hand
    PanelDefinition panel;
    panel.title = QStringLiteral("p");
    for (const QString &query : queries) {
        SeriesDefinition series;
        series.query = query;
        panel.series.push_back(series);
    }
    dashboard.panels.push_back(panel);
    return dashboard;
}

// The poller and what it talks to, with a clock that stands still at kNow.
struct Rig
{
    explicit Rig(FakePrometheus &server, qint64 windowMs, int maxPointsPerRequest = 1000)
        : client([&] {
              PrometheusConnection connection;
              connection.baseUrl = server.url();
              connection.maxPointsPerRequest = maxPointsPerRequest;
              return connection;
          }()),
          poller(&client, &store, &window)
    {
        window.setClock([this] { return now; });
        window.setWindowMs(windowMs);
        poller.setScrapeIntervalMs(1000);
        poller.setPanelWidth(0, 800);
        // These tests follow the coarse pass and its raw detail, chunk by chunk: no cap on
        // the detail (HistoryPlanner's tests cover the cap).
        poller.setDetailPointsPerColumn(0);
        QObject::connect(&poller, &DashboardPoller::backfillProgress, &poller, [this](int done, int total) {
            progress.push_back({done, total});
        });
    }

    bool loaded(int timeoutMs = 20000)
    {
        return waitFor([&] { return !poller.isLoadingHistory() && !progress.empty(); }, timeoutMs);
    }

    const SampleStore::Series *onlySeries(int query = 0) const
    {
        const QStringList keys = store.keysWithPrefix(QStringLiteral("p0/q%1/").arg(query));
        return keys.size() == 1 ? store.series(keys.front()) : nullptr;
    }

    qint64 now = kNow;
    PrometheusClient client;
    SampleStore store;
    TimeWindow window;
    DashboardPoller poller;
    std::vector<std::pair<int, int>> progress;
};

std::vector<FakePrometheus::Request> withStep(const QList<FakePrometheus::Request> &requests, const QString &query,
                                              qint64 stepMs)
{
    std::vector<FakePrometheus::Request> out;
    for (const auto &r : requests) {
        if (r.query == query && r.stepMs == stepMs)
            out.push_back(r);
    }
    return out;
}

} // namespace

TEST(Backfill, CoarsePictureFirstThenRawChunksNewestFirstWithinTheLimit)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour); // 800 px over 3 h: a 15 s step; the raw samples are 1 s apart
    rig.poller.setMaxHistoryRequestsInFlight(3);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1"), QStringLiteral("m1 "), QStringLiteral("m1  ")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());

    const TimeRange window{kNow - 3 * kHour, kNow};
    const QStringList queries{QStringLiteral("m1"), QStringLiteral("m1 "), QStringLiteral("m1  ")};
    for (int q = 0; q < 3; ++q) {
        const QString &query = queries[q];
        // One coarse request over the whole window, at the panel's step.
        const auto coarse = withStep(server.requests, query, 15'000);
        ASSERT_EQ(coarse.size(), 1u) << q;
        EXPECT_EQ(coarse.front().startMs, window.startMs);
        EXPECT_EQ(coarse.front().endMs, window.endMs);

        // The raw samples in chunks of at most the server's limit, together exactly the window.
        auto fine = withStep(server.requests, query, 1000);
        ASSERT_EQ(fine.size(), 11u) << q; // 10,801 instants, 1000 a request
        for (const auto &chunk : fine)
            EXPECT_LE(chunk.points(), 1000);
        // Newest first: the chunk at the live edge is asked for before the oldest one.
        const auto newest =
            std::find_if(fine.begin(), fine.end(), [&](const auto &r) { return r.endMs == window.endMs; });
        const auto oldest =
            std::find_if(fine.begin(), fine.end(), [&](const auto &r) { return r.startMs == window.startMs; });
        ASSERT_NE(newest, fine.end());
        ASSERT_NE(oldest, fine.end());
        EXPECT_LT(newest - fine.begin(), oldest - fine.begin());
        std::sort(fine.begin(), fine.end(), [](const auto &a, const auto &b) { return a.startMs < b.startMs; });
        for (std::size_t i = 1; i < fine.size(); ++i)
            EXPECT_EQ(fine[i].startMs, fine[i - 1].endMs + 1000) << "hole or overlap at chunk " << i;

        // Every fine request came after this query's coarse one.
        const auto firstFine = std::find_if(server.requests.begin(), server.requests.end(),
                                            [&](const auto &r) { return r.query == query && r.stepMs == 1000; });
        const auto coarseAt = std::find_if(server.requests.begin(), server.requests.end(),
                                           [&](const auto &r) { return r.query == query && r.stepMs == 15'000; });
        EXPECT_LT(coarseAt - server.requests.begin(), firstFine - server.requests.begin());

        // The store holds every raw sample once.
        const SampleStore::Series *series = rig.onlySeries(q);
        ASSERT_NE(series, nullptr);
        EXPECT_EQ(series->size(), 10'801u);
        EXPECT_EQ(series->timestampsMs().front(), window.startMs);
        EXPECT_EQ(series->timestampsMs().back(), window.endMs);
    }
    EXPECT_EQ(server.requests.size(), 3 * (1 + 11));
    // Parallel, but never more than allowed.
    EXPECT_LE(server.maxInFlight, 3);
    EXPECT_GE(server.maxInFlight, 2);
    EXPECT_EQ(rig.poller.panelStatus(0).stepMs, 1000);
    EXPECT_EQ(rig.poller.panelStatus(0).state, PanelStatus::State::Ok);
}

TEST(Backfill, ProgressCountsUpToTheRequestsMade)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1"), QStringLiteral("m20")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());

    ASSERT_FALSE(rig.progress.empty());
    int lastDone = 0;
    for (const auto &[done, total] : rig.progress) {
        EXPECT_GE(done, lastDone) << "progress went back";
        EXPECT_LE(done, total);
        lastDone = done;
    }
    const auto [done, total] = rig.progress.back();
    EXPECT_EQ(done, total);
    EXPECT_EQ(total, int(server.requests.size()));
    // Not done before the end.
    for (std::size_t i = 0; i + 1 < rig.progress.size(); ++i)
        EXPECT_LT(rig.progress[i].first, rig.progress[i].second) << "looked finished at " << i;
}

TEST(Backfill, ThePanelShowsTheCoarseStepUntilTheDetailIsIn)
{
    FakePrometheus server;
    server.holdStepsBelow(15'000);
    Rig rig(server, 3 * kHour);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1")}));
    rig.poller.pollNow();

    // The coarse picture is drawn: 721 points over 3 h, and the panel says so, which keeps
    // the chart from taking 15 s between points for gaps.
    ASSERT_TRUE(waitFor([&] { return rig.onlySeries() && rig.onlySeries()->size() == 721; }, 10000));
    ASSERT_TRUE(waitFor([&] { return rig.poller.panelStatus(0).state == PanelStatus::State::Ok; }, 10000));
    EXPECT_EQ(rig.poller.panelStatus(0).stepMs, 15'000);
    EXPECT_TRUE(rig.poller.isLoadingHistory());
    ASSERT_FALSE(rig.progress.empty());
    EXPECT_LT(rig.progress.back().first, rig.progress.back().second);

    server.release();
    ASSERT_TRUE(rig.loaded());
    EXPECT_EQ(rig.onlySeries()->size(), 10'801u);
    EXPECT_EQ(rig.poller.panelStatus(0).stepMs, 1000);
}

TEST(Backfill, AShortWindowIsOneRequestPerQueryAtTheRawStep)
{
    FakePrometheus server;
    Rig rig(server, 15 * 60'000);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1"), QStringLiteral("m1 ")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    ASSERT_EQ(server.requests.size(), 2);
    for (const auto &request : server.requests) {
        EXPECT_EQ(request.stepMs, 1000);
        EXPECT_EQ(request.points(), 901);
    }
    EXPECT_EQ(rig.poller.panelStatus(0).stepMs, 1000);
    EXPECT_EQ(rig.progress.back(), std::make_pair(2, 2));
}

TEST(Backfill, AQueryWithManySeriesGetsACoarserRawStep)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour);
    rig.poller.setFineSampleBudget(40'000);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m20")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    // 40,000 samples over 20 series: 2000 points each over 3 h, about 5.4 s: a 10 s step.
    ASSERT_FALSE(withStep(server.requests, QStringLiteral("m20"), 15'000).empty());
    EXPECT_TRUE(withStep(server.requests, QStringLiteral("m20"), 1000).empty());
    const auto fine = withStep(server.requests, QStringLiteral("m20"), 10'000);
    ASSERT_EQ(fine.size(), 2u); // 1081 instants, 1000 a request
    EXPECT_LE(rig.store.sampleCount(), 20 * (1081 + 721));
    EXPECT_EQ(rig.poller.panelStatus(0).stepMs, 10'000);
}

TEST(Backfill, AQueryWithoutSeriesStopsAfterTheCoarsePass)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("empty")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    EXPECT_EQ(server.requests.size(), 1);
    EXPECT_EQ(rig.progress.back(), std::make_pair(1, 1));
    EXPECT_EQ(rig.poller.panelStatus(0).state, PanelStatus::State::NoData);
}

TEST(Backfill, TheTailContinuesAtTheRawStepFromTheNewestSample)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    const qsizetype before = server.requests.size();

    rig.now += 10'000;
    rig.window.advanceToNow();
    rig.poller.pollNow();
    ASSERT_TRUE(waitFor([&] { return rig.onlySeries()->timestampsMs().back() == rig.now; }, 10000));
    ASSERT_EQ(server.requests.size(), before + 1);
    const auto &tail = server.requests.back();
    EXPECT_EQ(tail.stepMs, 1000);
    EXPECT_EQ(tail.startMs, kNow - 2000); // the provisional newest points are fetched again
    EXPECT_EQ(tail.endMs, rig.now);
    EXPECT_EQ(rig.onlySeries()->size(), 10'811u);
    EXPECT_FALSE(rig.poller.isLoadingHistory());
}

TEST(Backfill, AFailedChunkStopsTheLoadAndShowsTheError)
{
    FakePrometheus server;
    server.failStep(1000);
    Rig rig(server, 3 * kHour);
    rig.poller.setMaxHistoryRequestsInFlight(2);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1")}));
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    // The coarse picture stays; the detail stopped at the first failures instead of asking
    // for all 11 chunks.
    EXPECT_EQ(rig.onlySeries()->size(), 721u);
    EXPECT_LE(withStep(server.requests, QStringLiteral("m1"), 1000).size(), 2u);
    EXPECT_EQ(rig.progress.back().first, rig.progress.back().second);
    const PanelStatus status = rig.poller.panelStatus(0);
    EXPECT_EQ(status.state, PanelStatus::State::QueryError);
    EXPECT_TRUE(status.message.contains(QStringLiteral("too many samples"))) << status.message.toStdString();
    EXPECT_EQ(status.stepMs, 15'000);
}

TEST(Backfill, CancelKeepsTheCoarsePictureStopsTheDetailAndTheTailGoesOn)
{
    FakePrometheus server;
    server.holdStepsBelow(15'000); // the detail waits, so there is a load to cancel
    Rig rig(server, 3 * kHour);
    rig.poller.setMaxHistoryRequestsInFlight(2);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1")}));
    rig.poller.pollNow();
    ASSERT_TRUE(waitFor([&] { return rig.onlySeries() && rig.onlySeries()->size() == 721; }, 30000));
    ASSERT_TRUE(waitFor([&] { return withStep(server.requests, QStringLiteral("m1"), 1000).size() == 2; }, 30000));
    ASSERT_TRUE(rig.poller.isLoadingHistory());

    rig.poller.cancelHistory();
    server.release(); // the two chunks already asked for still come, and are used
    ASSERT_TRUE(rig.loaded());
    EXPECT_EQ(rig.progress.back().first, rig.progress.back().second) << "the progress bar goes away";
    EXPECT_EQ(withStep(server.requests, QStringLiteral("m1"), 1000).size(), 2u) << "nothing more is asked for";
    // The coarse picture plus the raw samples of the two chunks (some of which fall on coarse
    // instants), far from the whole 10,801.
    EXPECT_GT(rig.onlySeries()->size(), 721u + 1500u);
    EXPECT_LT(rig.onlySeries()->size(), 721u + 2000u);
    EXPECT_EQ(rig.poller.panelStatus(0).stepMs, 15'000) << "the panel says the detail is not there";

    // Live polling goes on, and the cancelled detail is not planned again on the next tick.
    const qsizetype before = server.requests.size();
    rig.now += 10'000;
    rig.window.advanceToNow();
    rig.poller.pollNow();
    ASSERT_TRUE(waitFor([&] { return rig.onlySeries()->timestampsMs().back() == rig.now; }, 30000));
    EXPECT_EQ(server.requests.size(), before + 1) << "one tail request";
    EXPECT_FALSE(rig.poller.isLoadingHistory());
}

TEST(Backfill, LoadTesterSeriesAreNotQueried)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour);
    DashboardDefinition dashboard = dashboardOf({QStringLiteral("m1")});
    SeriesDefinition rate;
    rate.loadTester = LoadTesterField::Rate;
    dashboard.panels.front().series.push_back(rate);
    rig.poller.setDashboard(dashboard);
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    for (const auto &request : server.requests)
        EXPECT_EQ(request.query, QStringLiteral("m1"));
}

TEST(Backfill, ANewDashboardDropsTheLoadInProgress)
{
    FakePrometheus server;
    server.holdStepsBelow(15'000);
    Rig rig(server, 3 * kHour);
    rig.poller.setDashboard(dashboardOf({QStringLiteral("m1")}));
    rig.poller.pollNow();
    ASSERT_TRUE(waitFor([&] { return rig.onlySeries() && rig.onlySeries()->size() == 721; }, 10000));
    ASSERT_TRUE(rig.poller.isLoadingHistory());

    rig.poller.setDashboard(dashboardOf({QStringLiteral("empty")}));
    EXPECT_FALSE(rig.poller.isLoadingHistory());
    EXPECT_EQ(rig.progress.back(), std::make_pair(0, 0));
    server.release(); // answers to the old dashboard arrive and are dropped
    rig.poller.pollNow();
    ASSERT_TRUE(rig.loaded());
    EXPECT_EQ(rig.store.keysWithPrefix(QStringLiteral("p0/")).size(), 1); // only the old series
    EXPECT_EQ(rig.onlySeries()->size(), 721u);
}

TEST(Backfill, TheAnswersOfARefreshTickLandTogetherWithTheWindowsMove)
{
    // Answers spread over 60 ms would each start a render of their panel; merged at once,
    // with the window's advance, every chart draws once per tick.
    FakePrometheus server;
    server.jitterMs = 60;
    Rig rig(server, 15 * 60'000);
    QElapsedTimer clock;
    clock.start();
    rig.window.setClock([&] { return kNow + clock.elapsed(); });
    const QStringList queries{QStringLiteral("m1"),    QStringLiteral("m1 "),    QStringLiteral("m1  "),
                              QStringLiteral("m1   "), QStringLiteral("m1    "), QStringLiteral("m1     ")};
    rig.poller.setDashboard(dashboardOf(queries));
    rig.poller.setRefreshMs(1000);
    rig.poller.start();
    ASSERT_TRUE(rig.loaded());

    struct Event
    {
        qint64 atMs;
        bool windowMoved;
    };
    std::vector<Event> events;
    QObject::connect(&rig.store, &SampleStore::samplesChanged, &rig.poller, [&] {
        events.push_back({clock.elapsed(), false});
    });
    QObject::connect(&rig.window, &TimeWindow::rangeChanged, &rig.poller, [&] {
        events.push_back({clock.elapsed(), true});
    });
    ASSERT_TRUE(waitFor(
        [&] { return std::count_if(events.begin(), events.end(), [](const Event &e) { return e.windowMoved; }) >= 5; },
        15000));

    // A moment starts at each move of the window and lasts until the next: a tick's batch must
    // land whole within it (all 6 series, or none when nothing was new), never split across
    // ticks. Grouping by the move rather than by a few ms of wall time keeps this a check of
    // batching, not of how fast a loaded (sanitized) build merges 6 series.
    std::vector<int> changesPerMoment;
    for (const Event &event : events) {
        if (event.windowMoved)
            changesPerMoment.push_back(0);
        else if (!changesPerMoment.empty())
            ++changesPerMoment.back();
    }
    changesPerMoment.pop_back(); // the last tick may still be arriving
    int full = 0;
    for (int changes : changesPerMoment) {
        EXPECT_TRUE(changes == 0 || changes == 6) << changes << " series changed in one tick";
        full += changes == 6;
    }
    EXPECT_GE(full, 3);
    rig.poller.stop();
}

// A variable chosen while the window is still loading: what was asked with the old value is
// dropped as it comes back, the new value's whole window loads, and the progress finishes.
TEST(Backfill, AVariableChosenMidLoadReplacesTheSeriesAndStillFinishes)
{
    FakePrometheus server;
    Rig rig(server, 3 * kHour);
    DashboardDefinition dashboard = dashboardOf({QStringLiteral("m$n"), QStringLiteral("m1")});
    SeriesDefinition derived; // a formula over the query that changes
    derived.derive = QStringLiteral("x * 2");
    derived.deriveInputs.insert(QStringLiteral("x"), QStringLiteral("first"));
    dashboard.panels[0].series[0].id = QStringLiteral("first");
    dashboard.panels[0].series.push_back(derived);
    VariableDefinition n;
    n.name = QStringLiteral("n");
    n.choices = {QStringLiteral("1"), QStringLiteral("3")};
    n.value = QStringLiteral("1");
    dashboard.variableDefinitions.push_back(n);
    rig.poller.setDashboard(dashboard);
    server.holdStepsBelow(15'000); // the coarse picture comes, the raw detail waits
    rig.poller.start();
    ASSERT_TRUE(waitFor([&] { return rig.onlySeries(0) != nullptr && rig.onlySeries(1) != nullptr; }, 20000));
    const QString oldKey = rig.store.keysWithPrefix(QStringLiteral("p0/q0/")).value(0);
    EXPECT_TRUE(oldKey.startsWith(QStringLiteral("p0/q0/$n=1/"))) << oldKey.toStdString();
    const QString unchangedKey = rig.store.keysWithPrefix(QStringLiteral("p0/q1/")).value(0);
    rig.store.merge(QStringLiteral("derived/p0/q2"), {}, std::vector<qint64>{kNow}, std::vector<double>{2});

    QSignalSpy replaced(&rig.poller, &DashboardPoller::seriesReplaced);
    ASSERT_TRUE(rig.poller.setVariable(QStringLiteral("n"), QStringLiteral("3")));
    EXPECT_EQ(replaced.size(), 1);
    EXPECT_FALSE(rig.store.contains(oldKey));
    EXPECT_FALSE(rig.store.contains(QStringLiteral("derived/p0/q2"))) << "its input's value changed";
    EXPECT_TRUE(rig.store.contains(unchangedKey)) << "a query without the variable keeps its series";
    server.release(); // the old value's detail comes back now, and must be dropped
    ASSERT_TRUE(rig.loaded());
    ASSERT_TRUE(waitFor([&] { return !rig.poller.isLoadingHistory() && server.inFlight == 0; }, 20000));

    const QStringList keys = rig.store.keysWithPrefix(QStringLiteral("p0/q0/"));
    ASSERT_EQ(keys.size(), 3) << keys.join(QLatin1Char(' ')).toStdString();
    for (const QString &key : keys) {
        EXPECT_TRUE(key.startsWith(QStringLiteral("p0/q0/$n=3/"))) << key.toStdString();
        const SampleStore::Series *series = rig.store.series(key);
        EXPECT_EQ(series->timestampsMs().front(), kNow - 3 * kHour) << "the whole window, not only from now on";
    }
    EXPECT_EQ(rig.poller.seriesOfPanel(0).size(), 1u + 3u + 1u) << "m1, the three of m3, the formula";
    EXPECT_FALSE(withStep(server.requests, QStringLiteral("m3"), 15'000).empty());
    EXPECT_EQ(rig.progress.back().first, rig.progress.back().second) << "the progress finished";
    EXPECT_EQ(rig.poller.panelStatus(0).state, PanelStatus::State::Ok)
        << rig.poller.panelStatus(0).message.toStdString();
}
