// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's jobs without HTTP (JobModel, time injected): fan-out and sequences, push at
// creation versus polling of the backlog (seed 004's inversion), time-outs and the rejected
// late completion; and the --process spelling (ProcessDefinition).
#include "jobmodel.h"
#include "processdefinition.h"

#include <gtest/gtest.h>

namespace {

ProcessDefinition process(const QString &spec)
{
    QString error;
    const std::optional<ProcessDefinition> definition = ProcessDefinition::parse(spec, &error);
    EXPECT_TRUE(definition.has_value()) << error.toStdString();
    return definition.value_or(ProcessDefinition{});
}

// Completes every job a poll of `type` finds; returns how many.
int pollAndComplete(JobModel &model, const QString &type, double now, int max = 1000)
{
    const auto jobs = model.activate(type, QStringLiteral("w"), max, 10, now);
    for (const auto &job : jobs)
        EXPECT_EQ(model.complete(job.key, job.activation, now), JobModel::Completion::Accepted);
    return static_cast<int>(jobs.size());
}

} // namespace

TEST(ProcessDefinition, ReadsStepsFanOutAndSequences)
{
    const ProcessDefinition definition = process(QStringLiteral("extract, [proof vendor_info]*50 ,refunding*50"));
    ASSERT_EQ(definition.steps.size(), 3);
    EXPECT_EQ(definition.steps[1].jobTypes, (QStringList{"proof", "vendor_info"}));
    EXPECT_EQ(definition.steps[1].multiplicity, 50);
    EXPECT_EQ(definition.jobsPerInstance(), 1 + 100 + 50);
    EXPECT_EQ(definition.jobTypes(), (QStringList{"extract", "proof", "vendor_info", "refunding"}));
    EXPECT_EQ(definition.toString(), QStringLiteral("extract,[proof vendor_info]*50,refunding*50"));
}

TEST(ProcessDefinition, RefusesWhatItCannotRunWithAMessage)
{
    for (const QString &bad :
         {QStringLiteral(""), QStringLiteral("a,,b"), QStringLiteral("a*0"), QStringLiteral("a*x"),
          QStringLiteral("[a b*3"), QStringLiteral("a b"), QStringLiteral("[]*2"), QStringLiteral("a*100001")}) {
        QString error;
        EXPECT_FALSE(ProcessDefinition::parse(bad, &error).has_value()) << bad.toStdString();
        EXPECT_FALSE(error.isEmpty()) << bad.toStdString();
    }
}

TEST(JobModel, AnInstanceCompletesWhenEveryIterationOfEveryStepIsDone)
{
    JobModel model(process(QStringLiteral("a,[b c]*3")));
    model.startInstance(7, 0);
    EXPECT_EQ(model.counters().activeInstances(), 1);
    EXPECT_EQ(pollAndComplete(model, "b", 0), 0) << "b waits for a";
    EXPECT_EQ(pollAndComplete(model, "a", 0), 1);
    EXPECT_EQ(pollAndComplete(model, "c", 0), 0) << "c follows b within each iteration";
    EXPECT_EQ(pollAndComplete(model, "b", 0), 3);
    EXPECT_EQ(model.counters().activeInstances(), 1);
    EXPECT_EQ(pollAndComplete(model, "c", 0), 3);
    EXPECT_EQ(model.counters().activeInstances(), 0);
    EXPECT_EQ(model.counters().instancesCompleted, 1u);
    EXPECT_EQ(model.counters().types.at("b").created, 3u);
}

TEST(JobModel, PollingTakesTheOldestJobsFirst)
{
    JobModel model(process(QStringLiteral("a")));
    for (quint64 key = 1; key <= 5; ++key)
        model.startInstance(key, 0);
    const auto first = model.activate("a", "w", 2, 10, 0);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[0].processInstanceKey, 1u);
    EXPECT_EQ(first[1].processInstanceKey, 2u);
    EXPECT_EQ(model.counters().types.at("a").activatable, 3);
}

TEST(JobModel, NewJobsArePushedWhileTheBacklogWaitsForPolling)
{
    // Seed 004's inversion: a backlog built while no worker was connected stays in the
    // activatable pool; every job created after the worker came back goes straight to it.
    JobModel model(process(QStringLiteral("a")));
    for (quint64 key = 1; key <= 10; ++key)
        model.startInstance(key, 0); // the outage: no stream, all activatable
    const int stream = model.openStream("a", "w", 3, 10);
    model.startInstance(11, 1);
    const auto pushes = model.takePushes();
    ASSERT_EQ(pushes.size(), 1u);
    EXPECT_EQ(pushes[0].stream, stream);
    EXPECT_EQ(pushes[0].job.processInstanceKey, 11u) << "the newest job, not the oldest";
    EXPECT_EQ(model.counters().types.at("a").activatable, 10);

    // Room frees up: nothing moves from the backlog by itself; only a poll takes it.
    EXPECT_EQ(model.complete(pushes[0].job.key, pushes[0].job.activation, 2), JobModel::Completion::Accepted);
    EXPECT_TRUE(model.takePushes().empty());
    EXPECT_EQ(model.counters().types.at("a").activatable, 10);
    EXPECT_EQ(model.counters().types.at("a").pushed, 1u);
}

TEST(JobModel, APushNeedsRoomAtTheWorkerWhetherItsJobsWerePushedOrPolled)
{
    JobModel model(process(QStringLiteral("a")));
    model.openStream("a", "w", 2, 10);
    model.startInstance(1, 0);
    model.startInstance(2, 0);
    model.startInstance(3, 0); // w holds 2 = its capacity
    EXPECT_EQ(model.takePushes().size(), 2u);
    EXPECT_EQ(model.counters().types.at("a").activatable, 1);
    const auto polled = model.activate("a", "w", 5, 10, 0);
    ASSERT_EQ(polled.size(), 1u); // the worker now holds 3
    model.complete(polled[0].key, polled[0].activation, 1);
    model.startInstance(4, 1); // holds 2 again: still full
    EXPECT_TRUE(model.takePushes().empty());
}

TEST(JobModel, PushesGoRoundTheStreamsOfAType)
{
    JobModel model(process(QStringLiteral("a")));
    const int first = model.openStream("a", "w1", 10, 10);
    const int second = model.openStream("a", "w2", 10, 10);
    for (quint64 key = 1; key <= 4; ++key)
        model.startInstance(key, 0);
    const auto pushes = model.takePushes();
    ASSERT_EQ(pushes.size(), 4u);
    EXPECT_EQ(pushes[0].stream, first);
    EXPECT_EQ(pushes[1].stream, second);
    EXPECT_EQ(pushes[2].stream, first);
    EXPECT_EQ(pushes[3].stream, second);
}

TEST(JobModel, ATimedOutJobIsActivatableAgainAndItsLateCompletionIsRejected)
{
    JobModel model(process(QStringLiteral("a")));
    model.startInstance(1, 0);
    const auto first = model.activate("a", "slow", 1, 1.8, 0);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(model.nextDeadline().value_or(0), 1.8);
    model.advance(1.8);
    EXPECT_EQ(model.counters().types.at("a").timedOut, 1u);
    EXPECT_EQ(model.takeNotifiedTypes().count("a"), 1u) << "waiting polls are told";
    EXPECT_TRUE(model.takePushes().empty()) << "a timed-out job is never pushed";

    const auto second = model.activate("a", "fast", 1, 1.8, 2);
    ASSERT_EQ(second.size(), 1u);
    EXPECT_EQ(second[0].key, first[0].key);
    EXPECT_EQ(model.complete(first[0].key, first[0].activation, 2.5), JobModel::Completion::TimedOut)
        << "the slow worker no longer owns the job";
    EXPECT_EQ(model.complete(second[0].key, second[0].activation, 2.5), JobModel::Completion::Accepted);
    EXPECT_EQ(model.complete(first[0].key, first[0].activation, 3), JobModel::Completion::NotFound);
    EXPECT_EQ(model.counters().types.at("a").completionsRejected, 1u);
    EXPECT_EQ(model.counters().completionsRejectedNotFound, 1u);
    EXPECT_EQ(model.counters().instancesCompleted, 1u);
}

TEST(JobModel, AYieldedPushIsActivatableAndAClosedStreamGetsNoMore)
{
    JobModel model(process(QStringLiteral("a")));
    const int stream = model.openStream("a", "w", 5, 10);
    model.startInstance(1, 0);
    const auto pushes = model.takePushes();
    ASSERT_EQ(pushes.size(), 1u);
    model.closeStream(stream);
    model.yield(pushes[0].job, 0);
    EXPECT_EQ(model.counters().types.at("a").activatable, 1);
    EXPECT_EQ(model.counters().types.at("a").streams, 0);
    model.startInstance(2, 1);
    EXPECT_TRUE(model.takePushes().empty());
    EXPECT_EQ(model.counters().types.at("a").activatable, 2);
}

TEST(JobModel, UnknownJobTypesFindNothing)
{
    JobModel model(process(QStringLiteral("a")));
    model.startInstance(1, 0);
    EXPECT_TRUE(model.activate("b", "w", 10, 1, 0).empty());
    EXPECT_FALSE(model.knowsType("b"));
}
