// SPDX-License-Identifier: GPL-3.0-or-later
// What happens to the real starter that Chaoscope did not do lands on the timelines: a rate
// changed with curl, a restart that brought back the start-up rate, and a starter that runs
// but sends nothing (its in-flight limit full while the engine is frozen, as good as seed
// 000's zombie) — shown in the dock while it lasts and closed as a region when it sends again.
#include "annotations/annotationmodel.h"
#include "blockinghttp.h"
#include "loadtester/actionannotator.h"
#include "loadtester/adapters/adapterfactory.h"
#include "loadtester/loadtestercontroller.h"
#include "loadtester/loadtesterwatch.h"
#include "steering/controlpanel.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QSignalSpy>
#include <csignal>
#include <gtest/gtest.h>

namespace {

class LoadTesterWatchTest : public ::testing::Test
{
protected:
    void startStack(const QStringList &starterArguments)
    {
        ASSERT_TRUE(engine.start(engineBinary(), {QStringLiteral("--workers"), QStringLiteral("4")}))
            << engine.errorString().toStdString();
        ASSERT_TRUE(
            starter.start(starterBinary(), QStringList{QStringLiteral("--target"), engine.baseUrl(),
                                                       QStringLiteral("--instance"), QStringLiteral("starter-a")} +
                                               starterArguments))
            << starter.errorString().toStdString();
        connectController();
    }

    void connectController()
    {
        std::vector<std::unique_ptr<LoadTesterAdapter>> replicas;
        replicas.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), QUrl(starter.baseUrl())));
        controller.setReplicas(std::move(replicas));
        controller.setPollIntervalMs(200);
        controller.startPolling();
        ASSERT_TRUE(waitFor([&] { return controller.status(0).has_value(); }, 10000))
            << (controller.statusError(0) ? controller.statusError(0)->message.toStdString() : std::string("no answer"))
            << " from " << starter.baseUrl().toStdString();
    }

    // Chaoscope's own change, applied and answered.
    void applyAndWait(LoadTesterAction action)
    {
        QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
        ASSERT_TRUE(controller.apply(action));
        ASSERT_TRUE(finished.wait(10000));
    }

    // The watch's annotations (not ActionAnnotator's).
    std::vector<Annotation> watched() const
    {
        std::vector<Annotation> found;
        for (const Annotation &annotation : annotations.annotations()) {
            if (annotation.tags.contains(QStringLiteral("load tester")))
                found.push_back(annotation);
        }
        return found;
    }

    TestbedProcess engine;
    TestbedProcess starter;
    LoadTesterController controller;
    AnnotationModel annotations;
};

} // namespace

TEST_F(LoadTesterWatchTest, ARateChangedFromOutsideIsMarkedAndChaoscopesOwnIsNot)
{
    startStack({QStringLiteral("--rate"), QStringLiteral("20")});
    ActionAnnotator actions(&controller, &annotations);
    LoadTesterWatch watch(&controller, &annotations);
    watch.setCoalesceMs(300);
    QSignalSpy seen(&controller, &LoadTesterController::statusUpdated); // the watch has seen rate 20
    ASSERT_TRUE(waitFor([&] { return seen.size() >= 2; }, 5000));

    // A colleague's curl.
    const auto answer = BlockingHttp::request("PUT", starter.baseUrl() + QStringLiteral("/admin/rate"),
                                              R"({"rate": 45})", "application/json");
    ASSERT_EQ(answer.status, 200) << answer.body.toStdString();
    ASSERT_TRUE(waitFor([&] { return !watched().empty(); }, 10000));
    const Annotation outside = watched().front();
    EXPECT_EQ(outside.text, QStringLiteral("rate 20 → 45 /s on starter-a, not by Chaoscope"));
    EXPECT_TRUE(outside.tags.contains(QStringLiteral("outside change")));
    EXPECT_EQ(outside.source, Annotation::Source::Detector);

    // Chaoscope's own change is ActionAnnotator's alone, however many polls see it.
    QSignalSpy finished(&controller, &LoadTesterController::actionFinished);
    ASSERT_TRUE(controller.apply({LoadTesterAction::Kind::SetRate, 50}));
    ASSERT_TRUE(finished.wait(10000));
    QSignalSpy polled(&controller, &LoadTesterController::statusUpdated);
    ASSERT_TRUE(waitFor([&] { return polled.size() >= 5; }, 10000));
    EXPECT_EQ(watched().size(), 1u);
    EXPECT_EQ(annotations.rowCount(), 2); // the curl's and the action's
}

TEST_F(LoadTesterWatchTest, ARestartIsMarkedWithTheValuesItCameBackWith)
{
    startStack({QStringLiteral("--rate"), QStringLiteral("20")});
    LoadTesterWatch watch(&controller, &annotations);
    watch.setCoalesceMs(300);
    applyAndWait({LoadTesterAction::Kind::SetRate, 30});
    applyAndWait({LoadTesterAction::Kind::SetInflightLimit, 8});

    // Restarted on the same port with its start-up values, as a crashed pod comes back.
    const QString port = QString::number(starter.port());
    starter.stop();
    ASSERT_TRUE(waitFor([&] { return controller.statusError(0).has_value(); }, 10000));
    ASSERT_TRUE(starter.start(starterBinary(), {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                                QStringLiteral("20"), QStringLiteral("--instance"),
                                                QStringLiteral("starter-a"), QStringLiteral("--port"), port}))
        << starter.errorString().toStdString();
    ASSERT_TRUE(waitFor([&] { return !watched().empty(); }, 15000));
    EXPECT_EQ(watched().front().text,
              QStringLiteral("starter-a restarted: rate 30 → 20 /s, in-flight limit 8 → unlimited"));
    EXPECT_TRUE(watched().front().tags.contains(QStringLiteral("restart")));
}

TEST_F(LoadTesterWatchTest, ARestartFoundAgainAtAnotherAddressIsMarkedToo)
{
    startStack({QStringLiteral("--rate"), QStringLiteral("20")});
    LoadTesterWatch watch(&controller, &annotations);
    watch.setCoalesceMs(300);
    applyAndWait({LoadTesterAction::Kind::SetRate, 30});

    // A pod restarted elsewhere: discovery hands the controller a new set of replicas, the
    // same instance at a new port, back at its start-up rate.
    starter.stop();
    TestbedProcess elsewhere;
    ASSERT_TRUE(elsewhere.start(starterBinary(),
                                {QStringLiteral("--target"), engine.baseUrl(), QStringLiteral("--rate"),
                                 QStringLiteral("20"), QStringLiteral("--instance"), QStringLiteral("starter-a")}))
        << elsewhere.errorString().toStdString();
    ASSERT_NE(elsewhere.port(), starter.port());
    std::vector<std::unique_ptr<LoadTesterAdapter>> found;
    found.push_back(makeLoadTesterAdapter(QStringLiteral("starter"), QUrl(elsewhere.baseUrl())));
    controller.setReplicas(std::move(found));
    ASSERT_TRUE(waitFor([&] { return !watched().empty(); }, 15000));
    EXPECT_EQ(watched().front().text, QStringLiteral("starter-a restarted: rate 30 → 20 /s"));
}

TEST_F(LoadTesterWatchTest, AStarterThatRunsButSendsNothingIsShownUntilItSendsAgain)
{
    // A full in-flight limit and a frozen engine: the starter says "running" and sends nothing.
    startStack({QStringLiteral("--rate"), QStringLiteral("50"), QStringLiteral("--inflight-limit"), QStringLiteral("2"),
                QStringLiteral("--deadline"), QStringLiteral("120")});
    LoadTesterWatch watch(&controller, &annotations);
    watch.setSilenceThresholdMs(1500);
    ControlPanel dock(&controller);
    dock.setWatch(&watch);
    QSignalSpy polled(&controller, &LoadTesterController::statusUpdated);
    ASSERT_TRUE(waitFor([&] { return polled.size() >= 10; }, 10000));
    EXPECT_FALSE(watch.silentForMs(0).has_value()) << "a starter that sends is not silent";
    EXPECT_TRUE(watched().empty());

    ASSERT_EQ(::kill(pid_t(engine.pid()), SIGSTOP), 0);
    const bool silent = waitFor([&] { return watch.silentForMs(0).has_value(); }, 15000);
    ::kill(pid_t(engine.pid()), SIGCONT);
    ASSERT_TRUE(silent);
    EXPECT_TRUE(dock.statusText().contains(QStringLiteral("sent nothing for"))) << dock.statusText().toStdString();
    ASSERT_EQ(watched().size(), 1u);
    const Annotation opened = watched().front();
    EXPECT_EQ(opened.text,
              QStringLiteral("starter-a sends nothing although running at 50 /s (in flight 2 of limit 2)"));
    EXPECT_FALSE(opened.endMs.has_value());

    // The engine answers again: the region closes, the warning goes.
    ASSERT_TRUE(waitFor([&] { return !watch.silentForMs(0).has_value(); }, 15000));
    ASSERT_EQ(watched().size(), 1u);
    const Annotation closed = watched().front();
    ASSERT_TRUE(closed.endMs.has_value());
    EXPECT_GT(*closed.endMs, closed.timeMs);
    EXPECT_TRUE(closed.text.startsWith(QStringLiteral("starter-a sent nothing for "))) << closed.text.toStdString();
    EXPECT_FALSE(dock.statusText().contains(QStringLiteral("sent nothing"))) << dock.statusText().toStdString();
}
