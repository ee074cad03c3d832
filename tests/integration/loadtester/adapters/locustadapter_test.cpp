// SPDX-License-Identifier: GPL-3.0-or-later
// The Locust adapter against the real Locust 2.x (Debian's python3-locust) whose users send
// to the real chaoscope-engine (tests/fixtures/locust/locustfile.py): users and spawn rate set
// through the adapter show up in Locust's own statistics, stop and resume work, and the
// in-flight limit is disabled with its reason; a scenario's ramp moves the users.
#include "annotations/annotationmodel.h"
#include "blockinghttp.h"
#include "freeport.h"
#include "loadtester/adapters/locustadapter.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtesterwatch.h"
#include "scenario/loadshapeplayer.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <gtest/gtest.h>
#include <optional>
#include <set>

namespace {

using Kind = Error::Kind;
using ActionKind = LoadTesterAction::Kind;

// Debian's Locust; `locust` on PATH may belong to another Python without it.
const QString kLocust = QStringLiteral("/usr/bin/locust");

std::optional<Result<LoadTesterStatus>> await(const LoadTesterAdapter::Reply &reply, int timeoutMs = 60000)
{
    return awaitResult(reply, timeoutMs);
}

std::string describe(const std::optional<Result<LoadTesterStatus>> &status)
{
    if (!status)
        return "no answer";
    if (!status->ok())
        return status->error().message.toStdString();
    return QStringLiteral("%1 users, state %2").arg(status->value().rate).arg(status->value().state).toStdString();
}

// Locust's web UI on a free loopback port; stopped on destruction.
class LocustProcess
{
public:
    ~LocustProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
    }

    bool start(const QString &targetUrl)
    {
        m_port = freeLoopbackPort();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        // A Python environment of the caller must not shadow Debian's packages.
        environment.remove(QStringLiteral("PYTHONPATH"));
        environment.remove(QStringLiteral("PYTHONHOME"));
        environment.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
        m_process.setProcessEnvironment(environment);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(kLocust,
                        {QStringLiteral("-f"), sourcePath(QStringLiteral("tests/fixtures/locust/locustfile.py")),
                         QStringLiteral("--web-host"), QStringLiteral("127.0.0.1"), QStringLiteral("--web-port"),
                         QString::number(m_port), QStringLiteral("--host"), targetUrl});
        if (!m_process.waitForStarted(10000))
            return false;
        // Importing gevent and Flask takes a few seconds; it is up when its statistics answer.
        return waitFor(
                   [this] {
                       if (m_process.state() != QProcess::Running)
                           return true;
                       return BlockingHttp::request("GET", url().toString() + QStringLiteral("/stats/requests"), {}, {},
                                                    1000)
                                  .status == 200;
                   },
                   60000) &&
               m_process.state() == QProcess::Running;
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port)); }
    QString log() { return m_log += QString::fromUtf8(m_process.readAll()); }

    // What Locust's statistics say right now (bypassing the adapter).
    QJsonObject stats() const { return BlockingHttp::get(url().toString() + QStringLiteral("/stats/requests")).json(); }

private:
    QProcess m_process;
    quint16 m_port = 0;
    QString m_log;
};

class LocustAdapterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!QFileInfo(kLocust).isExecutable())
            GTEST_SKIP() << "Locust is not installed (apt install python3-locust)";
        ASSERT_TRUE(m_engine.start(engineBinary(), {})) << m_engine.errorString().toStdString();
        ASSERT_TRUE(m_locust.start(m_engine.baseUrl())) << m_locust.log().toStdString();
        m_adapter = std::make_unique<LocustAdapter>(m_locust.url());
        // Fast enough for a test, and a known value to look for.
        m_adapter->setSpawnRate(10);
    }

    TestbedProcess m_engine;
    LocustProcess m_locust;
    std::unique_ptr<LocustAdapter> m_adapter;
};

TEST_F(LocustAdapterTest, AFreshLocustIsReadyWithNoUsers)
{
    const auto status = await(m_adapter->status());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().rate, 0);
    EXPECT_EQ(status->value().state, QStringLiteral("ready"));
    EXPECT_FALSE(status->value().paused);
    EXPECT_FALSE(status->value().inflightLimit.has_value());
    EXPECT_EQ(status->value().instance, m_locust.url().authority());
}

TEST_F(LocustAdapterTest, TheInflightLimitIsDisabledWithItsReason)
{
    const LoadTesterCapabilities capabilities = m_adapter->capabilities();
    EXPECT_EQ(capabilities.kind, QStringLiteral("Locust"));
    EXPECT_EQ(capabilities.rateLabel, QStringLiteral("users"));
    EXPECT_TRUE(capabilities.canSetRate);
    EXPECT_TRUE(capabilities.canPause);
    EXPECT_FALSE(capabilities.canSetInflightLimit);
    EXPECT_EQ(capabilities.inflightLimitUnavailable,
              QStringLiteral("Locust runs a closed model: the number of users is the limit."));

    const auto refused = await(m_adapter->setInflightLimit(100));
    ASSERT_TRUE(refused && !refused->ok());
    EXPECT_EQ(refused->error().kind, Kind::Invalid);
    EXPECT_EQ(refused->error().message, capabilities.inflightLimitUnavailable);
}

TEST_F(LocustAdapterTest, UsersSetThroughTheAdapterShowUpInLocustsStatistics)
{
    auto status = await(m_adapter->setRate(4));
    ASSERT_TRUE(status && status->ok()) << describe(status) << m_locust.log().toStdString();
    EXPECT_TRUE(
        LoadTesterController::mismatch({ActionKind::SetRate, 4}, status->value(), m_adapter->capabilities()).isEmpty())
        << describe(status);
    EXPECT_EQ(status->value().state, QStringLiteral("running"));
    EXPECT_EQ(m_locust.stats().value(QStringLiteral("user_count")).toInt(), 4);

    // The users really send to the engine.
    EXPECT_TRUE(waitFor(
        [this] {
            const auto current = await(m_adapter->status());
            return current && current->ok() && current->value().observedRate.value_or(0) > 0;
        },
        20000));

    status = await(m_adapter->setRate(2));
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().rate, 2);
    EXPECT_EQ(m_locust.stats().value(QStringLiteral("user_count")).toInt(), 2);
    EXPECT_EQ(m_adapter->resumeUsers(), 2);
}

TEST_F(LocustAdapterTest, StopAndResume)
{
    auto status = await(m_adapter->setRate(3));
    ASSERT_TRUE(status && status->ok() && status->value().rate == 3) << describe(status);

    status = await(m_adapter->pause());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_TRUE(status->value().paused);
    EXPECT_EQ(status->value().state, QStringLiteral("stopped"));
    EXPECT_EQ(status->value().rate, 0);
    EXPECT_EQ(m_locust.stats().value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));

    status = await(m_adapter->resume());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_FALSE(status->value().paused);
    EXPECT_EQ(status->value().state, QStringLiteral("running"));
    EXPECT_EQ(status->value().rate, 3);
}

TEST_F(LocustAdapterTest, PauseRemembersUsersSetElsewhere)
{
    // Someone started the swarm in Locust's own web UI; a fresh adapter only knows it from
    // the status it reads before stopping.
    const BlockingHttp::Answer swarm =
        BlockingHttp::request("POST", m_locust.url().toString() + QStringLiteral("/swarm"),
                              "user_count=2&spawn_rate=10", "application/x-www-form-urlencoded");
    ASSERT_EQ(swarm.status, 200);
    ASSERT_TRUE(waitFor(
        [this] {
            const QJsonObject stats = m_locust.stats();
            return stats.value(QStringLiteral("state")).toString() == QStringLiteral("running") &&
                   stats.value(QStringLiteral("user_count")).toInt() == 2;
        },
        20000));

    LocustAdapter fresh(m_locust.url());
    fresh.setSpawnRate(10);
    auto status = await(fresh.pause());
    ASSERT_TRUE(status && status->ok() && status->value().paused) << describe(status);
    EXPECT_EQ(fresh.resumeUsers(), 2);
    status = await(fresh.resume());
    ASSERT_TRUE(status && status->ok()) << describe(status);
    EXPECT_EQ(status->value().rate, 2);
}

TEST_F(LocustAdapterTest, LocustsOwnRampIsNotTakenForAChangeFromOutside)
{
    // Locust's users are a live count, not a set-point: while a swarm ramps (here one started
    // in Locust's own web UI), the polls read other numbers. None of them is "someone changed
    // the load": without a change counter there is no telling a ramp from a change.
    LoadTesterController controller;
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    replicas.push_back(std::make_unique<LocustAdapter>(m_locust.url()));
    controller.setReplicas(std::move(replicas));
    controller.setPollIntervalMs(200);
    AnnotationModel annotations;
    LoadTesterWatch watch(&controller, &annotations);
    watch.setCoalesceMs(100);
    controller.startPolling();
    ASSERT_TRUE(waitFor([&] { return controller.status(0).has_value(); }, 10000));

    const BlockingHttp::Answer swarm =
        BlockingHttp::request("POST", m_locust.url().toString() + QStringLiteral("/swarm"),
                              "user_count=12&spawn_rate=4", "application/x-www-form-urlencoded");
    ASSERT_EQ(swarm.status, 200);
    std::set<double> seen; // the ramp as the polls saw it
    ASSERT_TRUE(waitFor(
        [&] {
            if (const auto status = controller.status(0))
                seen.insert(status->rate);
            return controller.status(0) && controller.status(0)->rate == 12;
        },
        20000));
    EXPECT_GE(seen.size(), 2u) << "the polls saw the count change (0, 12, and what they caught between)";
    QSignalSpy polled(&controller, &LoadTesterController::statusUpdated);
    ASSERT_TRUE(waitFor([&] { return polled.size() >= 3; }, 5000)); // past the coalescing
    EXPECT_EQ(annotations.rowCount(), 0) << annotations.annotations().front().text.toStdString();
}

TEST_F(LocustAdapterTest, ResumeWithoutKnownUsersSaysWhatToDo)
{
    const auto status = await(m_adapter->resume());
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Invalid);
    EXPECT_TRUE(status->error().message.contains(QStringLiteral("set the users"))) << describe(status);
}

TEST_F(LocustAdapterTest, ASlowSpawnIsReportedAsItIsAtTheDeadline)
{
    m_adapter->setSpawnRate(1);
    m_adapter->setSettleTimeoutMs(500);
    const auto status = await(m_adapter->setRate(20));
    ASSERT_TRUE(status && status->ok()) << describe(status);
    // 20 users at one per second cannot be there after half a second: the answer says so.
    const QString mismatch =
        LoadTesterController::mismatch({ActionKind::SetRate, 20}, status->value(), m_adapter->capabilities());
    EXPECT_TRUE(mismatch.startsWith(QStringLiteral("users read back as "))) << mismatch.toStdString();
    EXPECT_TRUE(mismatch.contains(QStringLiteral(", not 20 (state "))) << mismatch.toStdString();
}

TEST_F(LocustAdapterTest, FractionalUsersAreRefused)
{
    const auto status = await(m_adapter->setRate(2.5));
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Invalid);
}

TEST_F(LocustAdapterTest, AScenarioRampMovesTheUsersAndIsMarkedAsOneRegionInUsers)
{
    // A scenario's {"ramp": {"from": 1, "to": 4, "over": "3s"}} on Locust: the same player as
    // for the starter, on users.
    LoadTesterController controller;
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    auto adapter = std::make_unique<LocustAdapter>(m_locust.url());
    adapter->setSpawnRate(10);
    replicas.push_back(std::move(adapter));
    controller.setReplicas(std::move(replicas));
    controller.setPollIntervalMs(200);
    controller.startPolling();
    ASSERT_TRUE(waitFor([&] { return controller.status(0).has_value(); }, 10000));
    AnnotationModel annotations;
    LoadShapePlayer player(&controller, &annotations);
    QSignalSpy finished(&player, &LoadShapePlayer::finished);
    LoadShape ramp;
    ramp.kind = LoadShape::Kind::Ramp;
    ramp.from = 1;
    ramp.to = 4;
    ramp.overMs = 3000;
    player.start(ramp);
    ASSERT_TRUE(finished.wait(30000) || !finished.isEmpty()) << m_locust.log().toStdString();
    EXPECT_TRUE(finished.front().at(0).toBool()) << finished.front().at(1).toString().toStdString();
    EXPECT_EQ(m_locust.stats().value(QStringLiteral("user_count")).toInt(), 4);
    ASSERT_EQ(annotations.annotations().size(), 1U) << "one region, not a mark per move";
    EXPECT_EQ(annotations.annotations().front().text, QStringLiteral("ramp 1 → 4 users over 3s"));
    EXPECT_TRUE(annotations.annotations().front().isRegion());
}

TEST(LocustAdapter, AStoppedLocustIsANetworkError)
{
    const QUrl url(QStringLiteral("http://127.0.0.1:%1").arg(freeLoopbackPort()));
    LocustAdapter adapter(url);
    const auto status = await(adapter.setRate(3));
    ASSERT_TRUE(status && !status->ok());
    EXPECT_EQ(status->error().kind, Kind::Network);
    EXPECT_TRUE(status->error().message.startsWith(
        QStringLiteral("Locust at %1/swarm refused the connection").arg(url.toString())))
        << status->error().message.toStdString();
}

} // namespace
