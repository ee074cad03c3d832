// SPDX-License-Identifier: GPL-3.0-or-later
// chaoscope-worker against chaoscope-engine's process model, with seed 004's worker scaled
// down (30 threads, 300 ms per job, a job timeout of 1.8 s) and more work than it can do:
// its throughput is threads / handler duration (100 jobs/s) whatever its capacity, and a
// full worker meets every deadline only below threads x timeout / handler duration (180):
// above it, the jobs at the back of its queue time out on the engine, and their completions
// are rejected though the worker counted them as handled.
#include "blockinghttp.h"
#include "testbedprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <cmath>
#include <gtest/gtest.h>

namespace {

double metric(const QString &url, const QByteArray &line)
{
    const BlockingHttp::Answer answer = BlockingHttp::get(url);
    for (const QByteArray &l : answer.body.split('\n'))
        if (l.startsWith(line + ' '))
            return l.mid(line.size() + 1).toDouble();
    return std::nan("");
}

class JobWorkerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        for (const QString &binary : {engineBinary(), starterBinary(), workerBinary()})
            ASSERT_TRUE(QFileInfo(binary).isExecutable()) << binary.toStdString() << " is not built";
        // 50 jobs per instance (seed 004's multi-instance step), 4 instances/s: 200 jobs/s.
        ASSERT_TRUE(
            m_engine.start(engineBinary(), {"--process", "proof*50", "--workers", "8", "--service-time", "0.002"}))
            << m_engine.errorString().toStdString();
    }

    struct Figures
    {
        double handledPerSecond = 0;
        double timedOut = 0;
        double rejected = 0;
        double accepted = 0;
        double heldMax = 0;
    };

    Figures run(int capacity)
    {
        TestbedProcess worker;
        EXPECT_TRUE(worker.start(workerBinary(), {"--engine", m_engine.baseUrl(), "--job-type", "proof", "--capacity",
                                                  QString::number(capacity), "--threads", "30", "--handler-duration",
                                                  "300ms", "--timeout", "1.8s"}))
            << worker.errorString().toStdString();
        TestbedProcess starter;
        EXPECT_TRUE(starter.start(starterBinary(), {"--target", m_engine.baseUrl(), "--rate", "4"}))
            << starter.errorString().toStdString();
        const QString workerMetrics = worker.baseUrl() + QStringLiteral("/metrics");
        const QString engineMetrics = m_engine.baseUrl() + QStringLiteral("/metrics");
        const QByteArray handled = "camunda_client_worker_job_handled_total{type=\"proof\"}";
        // Warm up until the worker is full and busy.
        EXPECT_TRUE(waitFor([&] { return metric(workerMetrics, handled) > 200; }, 30000, 100));

        Figures figures;
        const double handled0 = metric(workerMetrics, handled);
        const double timedOut0 =
            metric(engineMetrics, "zeebe_job_events_total{action=\"timed "
                                  "out\",partition=\"1\",type=\"proof\",job_kind=\"BPMN_ELEMENT\"}");
        const double rejected0 = metric(workerMetrics, "worker_completions_total{type=\"proof\",outcome=\"rejected\"}");
        const double accepted0 = metric(workerMetrics, "worker_completions_total{type=\"proof\",outcome=\"accepted\"}");
        QElapsedTimer clock;
        clock.start();
        // The measurement itself: eight seconds of a saturated worker, its fill level sampled.
        waitFor(
            [&] {
                figures.heldMax = std::max(figures.heldMax, metric(workerMetrics, "worker_jobs_held{type=\"proof\"}"));
                return clock.elapsed() >= 8000;
            },
            20000, 200);
        const double seconds = clock.elapsed() / 1000.0;
        figures.handledPerSecond = (metric(workerMetrics, handled) - handled0) / seconds;
        figures.timedOut = metric(engineMetrics, "zeebe_job_events_total{action=\"timed "
                                                 "out\",partition=\"1\",type=\"proof\",job_kind=\"BPMN_ELEMENT\"}") -
                           timedOut0;
        figures.rejected =
            metric(workerMetrics, "worker_completions_total{type=\"proof\",outcome=\"rejected\"}") - rejected0;
        figures.accepted =
            metric(workerMetrics, "worker_completions_total{type=\"proof\",outcome=\"accepted\"}") - accepted0;
        std::printf("capacity %d: handled %.1f jobs/s, most held %.0f, timed out %.0f, completions "
                    "accepted %.0f, rejected %.0f (%.1f s)\n",
                    capacity, figures.handledPerSecond, figures.heldMax, figures.timedOut, figures.accepted,
                    figures.rejected, seconds);
        std::fflush(stdout);
        return figures;
    }

    TestbedProcess m_engine;
};

} // namespace

TEST_F(JobWorkerTest, AFullWorkerBelowTheBoundHandlesItsCeilingAndMeetsEveryDeadline)
{
    const Figures figures = run(60); // 60 < 30 x 1.8 / 0.3 = 180
    EXPECT_GT(figures.handledPerSecond, 70) << "saturated (less only on a machine short of CPU)";
    EXPECT_LT(figures.handledPerSecond, 101) << "30 threads / 0.3 s is a hard ceiling of 100 jobs/s";
    EXPECT_GE(figures.heldMax, 30) << "the worker was full";
    EXPECT_EQ(figures.timedOut, 0);
    EXPECT_EQ(figures.rejected, 0);
}

TEST_F(JobWorkerTest, ACapacityAboveTheBoundMissesDeadlinesAndWastesTheWork)
{
    const Figures figures = run(250); // the last of 250 waits 250 / 30 x 0.3 s = 2.5 s > 1.8 s
    EXPECT_GT(figures.handledPerSecond, 70) << "saturated (less only on a machine short of CPU)";
    EXPECT_LT(figures.handledPerSecond, 101) << "capacity is not a throughput knob";
    EXPECT_GT(figures.heldMax, 180);
    EXPECT_GT(figures.timedOut, 50) << "jobs at the back of the queue ran out of time";
    EXPECT_GT(figures.rejected, 50) << "and their completions came too late";
    EXPECT_LT(figures.accepted, 0.8 * figures.handledPerSecond * 8)
        << "handled is not progress: part of it was thrown away";
}
