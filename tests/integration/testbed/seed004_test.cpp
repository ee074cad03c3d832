// SPDX-License-Identifier: GPL-3.0-or-later
// Seed 004 in miniature, on chaoscope-cluster with the real kubectl and a real Prometheus:
// a process whose second step fans one instance out into 45 jobs, a starter creating two
// instances a second, an extract worker and a proof worker (30 threads x 300 ms: a ceiling
// of 100 jobs/s, 90 of them needed). The extract worker is scaled to 0 until 40 instances
// have piled up, then back to 1. Its throughput recovers within seconds, and so does the
// proof worker's; yet the active instances keep rising, because every job created after the
// return is pushed to the proof worker first and the backlog only gets what polling finds
// room for. They fall only once the starter is scaled to 0.
#include "clusterprocess.h"
#include "freeport.h"
#include "prometheusprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

namespace {

const QString active = QStringLiteral("sum(zeebe_element_instance_events_total{namespace="
                                      "\"seed004\",action=\"activated\",type=\"PROCESS\"})"
                                      " - "
                                      "sum(zeebe_element_instance_events_total{namespace="
                                      "\"seed004\",action=\"completed\",type=\"PROCESS\"})");
QString handledRate(const char *workload)
{
    return QStringLiteral("sum(rate(camunda_client_worker_job_handled_total{namespace=\"seed004\","
                          "workload=\"%1\"}[5s]))")
        .arg(QLatin1String(workload));
}

struct Sample
{
    double t = 0;
    double active = 0;
    double extract = 0;
    double proof = 0;
};

} // namespace

TEST(Seed004, ActiveInstancesKeepRisingAfterTheWorkerIsBackAndFallOnlyWhenTheStarterStops)
{
    QString why;
    if (!ClusterProcess::canRun(&why))
        GTEST_SKIP() << why.toStdString();
    for (const QString &binary : {clusterBinary(), starterBinary(), engineBinary(), workerBinary()})
        ASSERT_TRUE(QFileInfo(binary).isExecutable()) << binary.toStdString() << " is not built";
    const quint16 enginePort = freeLoopbackPort();
    const QString engine = QStringLiteral("http://127.0.0.1:%1").arg(enginePort);
    const QByteArray config = QStringLiteral(R"({"namespace": "seed004", "workloads": [
  {"kind": "StatefulSet", "name": "camunda", "image": "chaoscope/engine", "port": %1,
   "env": {"PROCESS": "extract_data_from_document,dispute_process_request_proof_from_vendor*45",
           "WORKERS": "8", "SERVICE_TIME": "0.002"}},
  {"name": "starter", "image": "chaoscope/starter", "env": {"RATE": "2", "TARGET": "%2"}},
  {"name": "extract-data-from-document", "image": "chaoscope/worker",
   "env": {"JOB_TYPE": "extract_data_from_document", "ENGINE": "%2", "CAPACITY": "8", "THREADS": "2",
           "HANDLER_DURATION": "250ms", "TIMEOUT": "30s"}},
  {"name": "dispute-process-request-proof-from-vendor", "image": "chaoscope/worker",
   "env": {"JOB_TYPE": "dispute_process_request_proof_from_vendor", "ENGINE": "%2", "CAPACITY": "60",
           "THREADS": "30", "HANDLER_DURATION": "300ms", "TIMEOUT": "1800ms"}}
]})")
                                  .arg(enginePort)
                                  .arg(engine)
                                  .toUtf8();
    ClusterProcess cluster;
    ASSERT_TRUE(cluster.start(config)) << cluster.errorString().toStdString();
    PrometheusProcess prometheus;
    prometheus.setFileTargets({{QStringLiteral("pods"), cluster.serviceDiscoveryFile()}});
    ASSERT_TRUE(prometheus.start()) << prometheus.errorString().toStdString();
    const auto kubectl = [&](const QStringList &arguments) {
        const ClusterProcess::Result result = cluster.kubectl(QStringList{"-n", "seed004"} + arguments);
        EXPECT_EQ(result.exitCode, 0) << result.all().toStdString();
    };
    const QString extract = QStringLiteral("extract-data-from-document");
    const QString proof = QStringLiteral("dispute-process-request-proof-from-vendor");

    QElapsedTimer clock;
    clock.start();
    QList<Sample> samples;
    const auto sample = [&] {
        Sample s{clock.elapsed() / 1000.0, prometheus.instantValue(active),
                 prometheus.instantValue(handledRate("extract-data-from-document")),
                 prometheus.instantValue(handledRate("dispute-process-request-proof-from-vendor"))};
        samples << s;
        return s;
    };
    // Everything polls once a second; the experiment's phases end on what the series show.
    const auto until = [&](const std::function<bool(const Sample &)> &condition, int timeoutMs) {
        return waitFor([&] { return condition(sample()); }, timeoutMs, 1000);
    };

    // Steady state: both workers handle what the starter asks for (2/s and 90/s).
    ASSERT_TRUE(until([](const Sample &s) { return s.extract > 1.5 && s.proof > 75; }, 60000))
        << cluster.log().toStdString();
    const Sample steady = samples.last();

    // The outage: until 40 instances wait for the missing worker.
    kubectl({"scale", "deployment", extract, "--replicas=0"});
    const double before = steady.active;
    ASSERT_TRUE(until([&](const Sample &s) { return s.active > before + 40; }, 60000));
    const Sample outage = samples.last();
    EXPECT_LT(outage.proof, 5) << "nothing downstream has work without the first step";

    // The return: throughput recovers within seconds...
    kubectl({"scale", "deployment", extract, "--replicas=1"});
    const double returnedAt = samples.last().t;
    ASSERT_TRUE(until([&](const Sample &s) { return s.extract >= steady.extract && s.proof > 75; }, 30000));
    const Sample recovered = samples.last();
    // ...while the instances keep piling up behind it.
    ASSERT_TRUE(until([&](const Sample &s) { return s.active > recovered.active + 10; }, 60000))
        << "active instances did not rise after the recovery";
    // The experiment goes on for fifteen seconds more with the starter running.
    const double observeUntil = samples.last().t + 15;
    until([&](const Sample &s) { return s.t >= observeUntil; }, 30000);
    const Sample beforeStop = samples.last();
    double peak = 0;
    for (const Sample &s : samples)
        peak = std::max(peak, s.active);
    EXPECT_GT(beforeStop.active, 0.9 * peak) << "it did not drain while the starter ran";
    EXPECT_GT(beforeStop.proof, 75) << "and the proof worker's throughput looked fine all along";

    // Only when no new work arrives does the backlog go.
    kubectl({"scale", "deployment", "starter", "--replicas=0"});
    const double stoppedAt = samples.last().t;
    EXPECT_TRUE(until([&](const Sample &s) { return s.active < 0.1 * peak; }, 120000))
        << "the backlog did not drain after the starter stopped";
    const Sample drained = samples.last();

    std::printf("seed 004 in miniature (t in s, active instances, handled jobs/s extract | proof):\n");
    double printed = -10;
    for (const Sample &s : std::as_const(samples)) {
        if (s.t - printed < 2)
            continue;
        printed = s.t;
        std::printf("  t=%5.1f active=%5.0f extract=%5.2f proof=%6.1f\n", s.t, s.active, s.extract, s.proof);
    }
    std::printf("steady: active %.0f, extract %.2f/s, proof %.1f/s\n", steady.active, steady.extract, steady.proof);
    std::printf("outage ended at t=%.1f with %.0f active; recovered at t=%.1f (%.1f s after the return) "
                "with %.0f active\n",
                returnedAt, outage.active, recovered.t, recovered.t - returnedAt, recovered.active);
    std::printf("peak %.0f active; %.0f when the starter stopped at t=%.1f; below 10 %% of the peak "
                "%.1f s later\n",
                peak, beforeStop.active, stoppedAt, drained.t - stoppedAt);
    std::fflush(stdout);
}
