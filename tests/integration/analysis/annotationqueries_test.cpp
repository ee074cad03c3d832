// SPDX-License-Identifier: GPL-3.0-or-later
// A dashboard's annotation queries against the real Prometheus scraping the real testbed
// cluster's kube-state-metrics, while the real kubectl changes the cluster: a replica count
// changing is a mark "worker replicas 1 → 3", a scale to 0 a region until it is back, a pod
// killed one "restarted" point, each within seconds of what happened; a Prometheus restart
// loses nothing after it; the marks are of source "query", authored by the query's name.
#include "analysis/annotationqueryrunner.h"
#include "annotations/annotationmodel.h"
#include "clusterprocess.h"
#include "freeport.h"
#include "prometheus/prometheusclient.h"
#include "prometheusprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QDateTime>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUrl>
#include <csignal>
#include <gtest/gtest.h>

namespace {

AnnotationQueryDefinition query(const QString &name, const QString &promql, AnnotationQueryDefinition::Mode mode,
                                const QString &title)
{
    AnnotationQueryDefinition q;
    q.name = name;
    q.query = promql;
    q.mode = mode;
    q.title = title;
    q.stepMs = 1000;
    q.tagLabels = {QStringLiteral("pod")};
    return q;
}

// "worker replicas 1 → 3" at each change of the desired replicas.
AnnotationQueryDefinition replicasChanges()
{
    return query(QStringLiteral("replicas"), QStringLiteral("kube_deployment_spec_replicas{namespace=\"chaos\"}"),
                 AnnotationQueryDefinition::Mode::Changes, QStringLiteral("{{deployment}} replicas"));
}

// "worker stopped": a region while a deployment is at 0 replicas.
AnnotationQueryDefinition stoppedRegions()
{
    return query(QStringLiteral("stopped"),
                 QStringLiteral("kube_deployment_spec_replicas{namespace=\"chaos\"} == bool 0"),
                 AnnotationQueryDefinition::Mode::Regions, QStringLiteral("{{deployment}} stopped"));
}

class AnnotationQueries : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString why;
        if (!ClusterProcess::canRun(&why))
            GTEST_SKIP() << why.toStdString();
        if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty())
            GTEST_SKIP() << "prometheus is not installed";
        ASSERT_TRUE(QFileInfo(workerBinary()).isExecutable());
        const QByteArray config = QStringLiteral(R"({"namespace": "chaos", "restartBackoffSeconds": 1, "workloads": [
  {"name": "worker", "image": "chaoscope/worker", "env": {"JOB_TYPE": "work", "ENGINE": "http://127.0.0.1:%1"}}]})")
                                      .arg(freeLoopbackPort())
                                      .toUtf8();
        ASSERT_TRUE(m_cluster.start(config)) << m_cluster.errorString().toStdString();
        const QUrl metrics(m_cluster.metricsUrl());
        ASSERT_TRUE(m_prometheus.start(
            {{QStringLiteral("kube-state-metrics"), QStringLiteral("%1:%2").arg(metrics.host()).arg(metrics.port())}}))
            << m_prometheus.errorString().toStdString();
        ASSERT_TRUE(
            m_prometheus.waitForSeries(QStringLiteral("kube_deployment_spec_replicas{deployment=\"worker\"}"), 30000));
        PrometheusConnection connection;
        connection.baseUrl = m_prometheus.url();
        m_client.setConnection(connection);
    }

    std::vector<Annotation> marksWith(const QString &text) const
    {
        std::vector<Annotation> found;
        for (const Annotation &a : m_annotations.annotations()) {
            if (a.text.contains(text))
                found.push_back(a);
        }
        return found;
    }

    bool kubectl(const QStringList &arguments)
    {
        const auto result = m_cluster.kubectl(arguments);
        EXPECT_EQ(result.exitCode, 0) << result.all().toStdString();
        return result.exitCode == 0;
    }

    ClusterProcess m_cluster;
    PrometheusProcess m_prometheus;
    PrometheusClient m_client{PrometheusConnection{}};
    AnnotationModel m_annotations;
};

} // namespace

TEST_F(AnnotationQueries, ChangesRegionsAndPointsLandWhenTheyHappenedAndSurviveAPrometheusRestart)
{
    using Mode = AnnotationQueryDefinition::Mode;
    AnnotationQueryRunner runner(&m_client, &m_annotations);
    runner.setQueries(
        {replicasChanges(), stoppedRegions(),
         query(QStringLiteral("restarts"),
               QStringLiteral("increase(kube_pod_container_status_restarts_total{namespace=\"chaos\"}[20s]) > 0"),
               Mode::Points, QStringLiteral("{{pod}} restarted"))},
        {});
    QStringList problems;
    QObject::connect(&runner, &AnnotationQueryRunner::problemChanged, [&](const QString &name, const QString &message) {
        problems << name + QStringLiteral(": ") + message;
    });
    runner.start(5 * 60'000, 1000);

    // The change happens while kubectl runs (slow on a loaded machine); its sample is at
    // most a scrape and a step after that.
    const qint64 scaledAt = QDateTime::currentMSecsSinceEpoch();
    ASSERT_TRUE(kubectl({"scale", "deployment/worker", "--replicas=3", "-n", "chaos"}));
    const qint64 scaledBy = QDateTime::currentMSecsSinceEpoch();
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker replicas 1 → 3")).empty(); }, 30000, 50))
        << problems.join(QLatin1Char('\n')).toStdString();
    const Annotation up = marksWith(QStringLiteral("worker replicas 1 → 3")).front();
    EXPECT_EQ(up.source, Annotation::Source::Query);
    EXPECT_EQ(up.author, QStringLiteral("replicas"));
    EXPECT_GE(up.timeMs, scaledAt - 1000) << "within a scrape and a step of the scale";
    EXPECT_LE(up.timeMs, scaledBy + 2500) << "within a scrape and a step of the scale";

    const qint64 stoppedAt = QDateTime::currentMSecsSinceEpoch();
    ASSERT_TRUE(kubectl({"scale", "deployment/worker", "--replicas=0", "-n", "chaos"}));
    const qint64 stoppedBy = QDateTime::currentMSecsSinceEpoch();
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker stopped")).empty(); }, 30000, 50));
    // Five seconds at 0, then back: one region over them, ended.
    ASSERT_TRUE(waitFor(
        [&] {
            const auto stopped = marksWith(QStringLiteral("worker stopped"));
            return !stopped.empty() && stopped.front().endMs && *stopped.front().endMs - stopped.front().timeMs >= 4000;
        },
        30000, 50));
    ASSERT_TRUE(kubectl({"scale", "deployment/worker", "--replicas=1", "-n", "chaos"}));
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker replicas 0 → 1")).empty(); }, 30000, 50));
    const Annotation stopped = marksWith(QStringLiteral("worker stopped")).front();
    ASSERT_EQ(marksWith(QStringLiteral("worker stopped")).size(), 1u);
    EXPECT_TRUE(stopped.isRegion());
    EXPECT_GE(stopped.timeMs, stoppedAt - 1000);
    EXPECT_LE(stopped.timeMs, stoppedBy + 2500);
    EXPECT_LE(*stopped.endMs, marksWith(QStringLiteral("worker replicas 0 → 1")).front().timeMs)
        << "the region ends where the worker is back";

    // Prometheus goes away and comes back: the runner says so, then marks what follows.
    ASSERT_TRUE(m_prometheus.restart()) << m_prometheus.errorString().toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            return m_prometheus.instantValue(QStringLiteral("kube_deployment_spec_replicas{deployment=\"worker\"}")) ==
                   1;
        },
        30000, 100));
    ASSERT_TRUE(waitFor(
        [&] {
            const QStringList pods = m_cluster.pods(QStringLiteral("chaos"), QStringLiteral("worker"));
            return pods.size() == 1 && m_cluster.containerPid(QStringLiteral("chaos"), pods.front()) > 0;
        },
        30000, 50));
    const QString pod = m_cluster.pods(QStringLiteral("chaos"), QStringLiteral("worker")).front();
    ASSERT_EQ(::kill(pid_t(m_cluster.containerPid(QStringLiteral("chaos"), pod)), SIGKILL), 0);
    ASSERT_TRUE(waitFor([&] { return !marksWith(pod + QStringLiteral(" restarted")).empty(); }, 40000, 50))
        << problems.join(QLatin1Char('\n')).toStdString();
    const Annotation restart = marksWith(pod + QStringLiteral(" restarted")).front();
    EXPECT_TRUE(restart.tags.contains(pod)) << "the pod label as a tag";
    // The increase stays above 0 for its 20 s: still one point, not one per sample. A later
    // change marked shows that the samples after the restart's have been seen.
    ASSERT_TRUE(kubectl({"scale", "deployment/worker", "--replicas=2", "-n", "chaos"}));
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker replicas 1 → 2")).empty(); }, 30000, 50));
    EXPECT_EQ(marksWith(pod + QStringLiteral(" restarted")).size(), 1u);
    EXPECT_EQ(marksWith(QStringLiteral("worker replicas 1 → 3")).size(), 1u)
        << "the overlap of fetches marks nothing twice";
}

TEST_F(AnnotationQueries, AWiderViewBringsTheEarlierMarksOnceAndMendsTheRegionTheNarrowWindowCut)
{
    const qint64 stoppedAt = QDateTime::currentMSecsSinceEpoch();
    ASSERT_TRUE(kubectl({"scale", "deployment/worker", "--replicas=0", "-n", "chaos"}));
    const qint64 stoppedBy = QDateTime::currentMSecsSinceEpoch();
    // Prometheus has seen the worker at 0 for four seconds: a two-second window opened now
    // begins inside the stop.
    ASSERT_TRUE(waitFor(
        [&] {
            return m_prometheus.instantValue(
                       QStringLiteral("max_over_time(kube_deployment_spec_replicas{deployment=\"worker\"}[4s])")) == 0;
        },
        30000, 100));

    AnnotationQueryRunner runner(&m_client, &m_annotations);
    runner.setQueries({replicasChanges(), stoppedRegions()}, {});
    runner.start(2000, 1000);
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker stopped")).empty(); }, 30000, 50));
    EXPECT_GT(marksWith(QStringLiteral("worker stopped")).front().timeMs, stoppedBy)
        << "the narrow window sees the stop from its own start only";
    EXPECT_TRUE(marksWith(QStringLiteral("worker replicas 1 → 0")).empty()) << "the scale is before the window";

    runner.cover(stoppedAt - 20000);
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker replicas 1 → 0")).empty(); }, 30000, 50));
    const Annotation scaled = marksWith(QStringLiteral("worker replicas 1 → 0")).front();
    EXPECT_GE(scaled.timeMs, stoppedAt - 1000);
    EXPECT_LE(scaled.timeMs, stoppedBy + 2500);
    ASSERT_EQ(marksWith(QStringLiteral("worker stopped")).size(), 1u) << "the cut region gave way to the whole one";
    const Annotation stopped = marksWith(QStringLiteral("worker stopped")).front();
    EXPECT_EQ(stopped.timeMs, scaled.timeMs) << "the region begins where the replicas went to 0";

    // The longer answer goes on live: the region ends where the worker is back, still one.
    ASSERT_TRUE(kubectl({"scale", "deployment/worker", "--replicas=1", "-n", "chaos"}));
    ASSERT_TRUE(waitFor([&] { return !marksWith(QStringLiteral("worker replicas 0 → 1")).empty(); }, 30000, 50));
    ASSERT_EQ(marksWith(QStringLiteral("worker stopped")).size(), 1u);
    EXPECT_LE(*marksWith(QStringLiteral("worker stopped")).front().endMs,
              marksWith(QStringLiteral("worker replicas 0 → 1")).front().timeMs);
    EXPECT_EQ(marksWith(QStringLiteral("worker replicas 1 → 0")).size(), 1u);
}
