// SPDX-License-Identifier: GPL-3.0-or-later
// The fan-out controller over three real chaoscope-starter replicas sending to the real
// engine: an action reaches every replica at once, each replica's outcome is reported (one
// replica down does not hide the others' success), and polling keeps each status fresh.
#include "freeport.h"
#include "loadtester/adapters/adapterfactory.h"
#include "loadtester/adapters/starteradapter.h"
#include "loadtester/loadtestercontroller.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QSignalSpy>
#include <array>
#include <csignal>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <sys/types.h>
#include <vector>

namespace {

using Kind = Error::Kind;
using ActionKind = LoadTesterAction::Kind;

class LoadTesterControllerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_engine.start(engineBinary(), {})) << m_engine.errorString().toStdString();
        const std::array<const char *, 3> names{"starter-a", "starter-b", "starter-c"};
        for (size_t i = 0; i < m_starters.size(); ++i) {
            ASSERT_TRUE(m_starters[i].start(starterBinary(),
                                            {QStringLiteral("--target"), m_engine.baseUrl(), QStringLiteral("--rate"),
                                             QStringLiteral("20"), QStringLiteral("--max-rate"), QStringLiteral("1000"),
                                             QStringLiteral("--instance"), QString::fromLatin1(names[i])}))
                << m_starters[i].errorString().toStdString();
            m_urls.push_back(QUrl(m_starters[i].baseUrl()));
        }
        connectReplicas();
    }

    void connectReplicas()
    {
        std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
        for (const QUrl &url : m_urls)
            replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), url));
        m_controller.setReplicas(std::move(replicas));
        QObject::connect(&m_controller, &LoadTesterController::actionFinished, &m_controller,
                         [this](const ActionReport &report) { m_reports.push_back(report); });
    }

    // Polls until every replica has a status or an error.
    bool pollOnce()
    {
        m_controller.startPolling();
        return waitFor(
            [this] {
                for (int i = 0; i < m_controller.replicaCount(); ++i) {
                    if (!m_controller.status(i) && !m_controller.statusError(i))
                        return false;
                }
                return true;
            },
            15000);
    }

    std::optional<ActionReport> applyAndWait(const LoadTesterAction &action, int timeoutMs = 30000)
    {
        const size_t before = m_reports.size();
        if (!m_controller.apply(action))
            return std::nullopt;
        if (!waitFor([&] { return m_reports.size() > before; }, timeoutMs))
            return std::nullopt;
        return m_reports.back();
    }

    TestbedProcess m_engine;
    std::array<TestbedProcess, 3> m_starters;
    std::vector<QUrl> m_urls;
    LoadTesterController m_controller;
    std::vector<ActionReport> m_reports;
};

TEST_F(LoadTesterControllerTest, AllReplicasConfirm)
{
    ASSERT_TRUE(pollOnce());
    EXPECT_EQ(m_controller.capabilities().kind, QStringLiteral("Chaoscope starter"));

    QSignalSpy started(&m_controller, &LoadTesterController::actionStarted);
    auto report = applyAndWait({ActionKind::SetRate, 50});
    ASSERT_TRUE(report);
    EXPECT_EQ(started.count(), 1);
    ASSERT_EQ(report->replicas.size(), 3u);
    EXPECT_TRUE(report->allConfirmed());
    EXPECT_LE(report->requestedAtMs, report->finishedAtMs);
    for (size_t i = 0; i < 3; ++i) {
        const ReplicaOutcome &outcome = report->replicas[i];
        EXPECT_EQ(outcome.endpoint, m_urls[i]);
        ASSERT_TRUE(outcome.before && outcome.after);
        EXPECT_EQ(outcome.before->rate, 20);
        EXPECT_EQ(outcome.after->rate, 50);
        EXPECT_FALSE(outcome.error);
        EXPECT_TRUE(outcome.mismatch.isEmpty());
        EXPECT_EQ(m_controller.status(int(i))->rate, 50); // the answer is the newest status
    }
    EXPECT_EQ(report->replicas[1].instance, QStringLiteral("starter-b"));
    EXPECT_EQ(report->summary(m_controller.capabilities()),
              QStringLiteral("rate 20 → 50 /s each (Chaoscope starter, 3/3 replicas, 150 /s in all)"));

    report = applyAndWait({ActionKind::SetInflightLimit, 5000});
    ASSERT_TRUE(report && report->allConfirmed());
    EXPECT_EQ(report->summary(m_controller.capabilities()),
              QStringLiteral("in-flight limit unlimited → 5000 each (Chaoscope starter, 3/3 replicas, 15000 in all)"));

    report = applyAndWait({ActionKind::Pause, 0});
    ASSERT_TRUE(report && report->allConfirmed());
    EXPECT_EQ(report->summary(m_controller.capabilities()), QStringLiteral("pause (Chaoscope starter, 3/3 replicas)"));
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(m_controller.status(i)->paused);

    report = applyAndWait({ActionKind::Resume, 0});
    ASSERT_TRUE(report && report->allConfirmed());
}

TEST_F(LoadTesterControllerTest, OneReplicaDownDoesNotHideTheOthers)
{
    ASSERT_EQ(m_starters[2].stop(), 0);
    ASSERT_TRUE(pollOnce());
    EXPECT_TRUE(m_controller.status(0));
    EXPECT_FALSE(m_controller.status(2));
    ASSERT_TRUE(m_controller.statusError(2));
    EXPECT_EQ(m_controller.statusError(2)->kind, Kind::Network);

    const auto report = applyAndWait({ActionKind::SetRate, 500});
    ASSERT_TRUE(report);
    EXPECT_EQ(report->confirmedCount(), 2);
    EXPECT_TRUE(report->replicas[0].confirmed);
    EXPECT_TRUE(report->replicas[1].confirmed);
    const ReplicaOutcome &down = report->replicas[2];
    EXPECT_FALSE(down.confirmed);
    EXPECT_FALSE(down.before);
    EXPECT_FALSE(down.after);
    ASSERT_TRUE(down.error);
    EXPECT_EQ(down.error->kind, Kind::Network);
    const QString reason =
        QStringLiteral(
            "The starter at %1/admin/rate refused the connection; is it running, and are host and port right?")
            .arg(m_urls[2].toString());
    EXPECT_EQ(down.error->message, reason);
    EXPECT_EQ(report->summary(m_controller.capabilities()),
              QStringLiteral("rate → 500 /s failed on 1 of 3 replicas: ") + reason);
}

TEST_F(LoadTesterControllerTest, ARefusalIsReportedForEveryReplica)
{
    ASSERT_TRUE(pollOnce());
    const auto report = applyAndWait({ActionKind::SetRate, 5000});
    ASSERT_TRUE(report);
    EXPECT_EQ(report->confirmedCount(), 0);
    for (const ReplicaOutcome &outcome : report->replicas) {
        ASSERT_TRUE(outcome.error);
        EXPECT_EQ(outcome.error->httpStatus, 400);
    }
    const QString summary = report->summary(m_controller.capabilities());
    EXPECT_TRUE(summary.startsWith(QStringLiteral("rate → 5000 /s failed on 3 of 3 replicas: The starter at ")))
        << summary.toStdString();
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(m_controller.status(i)->rate, 20);
}

TEST_F(LoadTesterControllerTest, ApplyRefusesWhileBusyAndAFrozenReplicaTimesOut)
{
    ASSERT_TRUE(pollOnce());
    m_controller.stopPolling();
    std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
    for (const QUrl &url : m_urls) {
        replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), url));
        replicas.back()->setTimeoutMs(800);
    }
    m_controller.setReplicas(std::move(replicas));

    ASSERT_EQ(::kill(pid_t(m_starters[1].pid()), SIGSTOP), 0);
    QSignalSpy finished(&m_controller, &LoadTesterController::actionFinished);
    ASSERT_TRUE(m_controller.apply({ActionKind::SetRate, 30}));
    EXPECT_TRUE(m_controller.isBusy());
    EXPECT_FALSE(m_controller.apply({ActionKind::SetRate, 40}));
    EXPECT_EQ(finished.count(), 0); // never from inside apply()
    const bool done = waitFor([&] { return !m_reports.empty(); }, 15000);
    ::kill(pid_t(m_starters[1].pid()), SIGCONT);
    ASSERT_TRUE(done);
    EXPECT_FALSE(m_controller.isBusy());
    const ActionReport &report = m_reports.back();
    EXPECT_TRUE(report.replicas[0].confirmed);
    EXPECT_TRUE(report.replicas[2].confirmed);
    ASSERT_TRUE(report.replicas[1].error);
    EXPECT_EQ(report.replicas[1].error->kind, Kind::Timeout);
    EXPECT_EQ(report.summary(m_controller.capabilities()),
              QStringLiteral("rate → 30 /s failed on 1 of 3 replicas: The starter at %1/admin/rate did not answer "
                             "within 800 ms.")
                  .arg(m_urls[1].toString()));
}

TEST_F(LoadTesterControllerTest, PollingFollowsChangesMadeElsewhere)
{
    m_controller.setPollIntervalMs(200);
    ASSERT_TRUE(pollOnce());
    EXPECT_EQ(m_controller.status(1)->rate, 20);

    QSignalSpy updated(&m_controller, &LoadTesterController::statusUpdated);
    StarterAdapter elsewhere(m_urls[1]); // another dashboard, or curl
    const auto reply = elsewhere.setRate(75);
    ASSERT_TRUE(waitFor([&] { return reply.isFinished(); }, 10000));
    ASSERT_TRUE(waitFor([&] { return m_controller.status(1) && m_controller.status(1)->rate == 75; }, 10000));
    EXPECT_GT(updated.count(), 0);

    // A replica that goes away turns into an error on the next poll.
    ASSERT_EQ(m_starters[0].stop(), 0);
    ASSERT_TRUE(waitFor([&] { return m_controller.statusError(0).has_value(); }, 10000));
    EXPECT_FALSE(m_controller.status(0));
    EXPECT_TRUE(m_controller.statusError(0)->isSourceDown());
    EXPECT_TRUE(m_controller.status(2)); // the others carry on
}

TEST_F(LoadTesterControllerTest, ReplacingTheReplicasFinishesTheActionInFlight)
{
    ASSERT_TRUE(pollOnce());
    m_controller.stopPolling();
    ASSERT_EQ(::kill(pid_t(m_starters[0].pid()), SIGSTOP), 0);
    QSignalSpy updated(&m_controller, &LoadTesterController::statusUpdated);
    ASSERT_TRUE(m_controller.apply({ActionKind::Pause, 0}));
    // The two live replicas answer; the frozen one keeps the action open.
    ASSERT_TRUE(waitFor([&] { return updated.count() == 2; }, 10000));
    EXPECT_TRUE(m_controller.isBusy());
    EXPECT_TRUE(m_reports.empty());
    m_controller.setReplicas({});
    ::kill(pid_t(m_starters[0].pid()), SIGCONT);
    ASSERT_EQ(m_reports.size(), 1u);
    EXPECT_FALSE(m_controller.isBusy());
    ASSERT_TRUE(m_reports[0].replicas[0].error);
    EXPECT_FALSE(m_controller.apply({ActionKind::Resume, 0})); // no replicas
    EXPECT_FALSE(m_controller.capabilities().canSetRate);
    EXPECT_TRUE(m_reports[0].replicas[1].confirmed);
    EXPECT_TRUE(m_reports[0].replicas[2].confirmed);
    // Late answers (the canceled request of the replaced replica) are ignored.
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    EXPECT_EQ(m_reports.size(), 1u);
}

} // namespace
