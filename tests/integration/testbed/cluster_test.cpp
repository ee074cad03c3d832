// SPDX-License-Identifier: GPL-3.0-or-later
// chaoscope-cluster driven by the real kubectl, as an engineer would drive a Kubernetes
// cluster: get, describe, scale, set env, set resources, rollout restart and status, get -w;
// pods that are real testbed processes (they stop and start, crash and come back with the
// reason); bearer tokens (401, 403) and the API's Status answers (404, 409, 410, 422); a
// real Prometheus that finds the pods through the cluster's service discovery file; and a
// cluster that stops leaves no process behind.
#include "blockinghttp.h"
#include "clusterprocess.h"
#include "freeport.h"
#include "prometheusprocess.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <cmath>
#include <csignal>
#include <gtest/gtest.h>

namespace {

const QString ns = QStringLiteral("chaos");

class ClusterTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString why;
        if (!ClusterProcess::canRun(&why))
            GTEST_SKIP() << why.toStdString();
        for (const QString &binary : {clusterBinary(), starterBinary(), engineBinary(), workerBinary()})
            ASSERT_TRUE(QFileInfo(binary).isExecutable()) << binary.toStdString() << " is not built";
        m_enginePort = freeLoopbackPort();
    }

    // The engine as a StatefulSet on a fixed port, a starter sending to it, a worker for its
    // one job type; `extraWorkloads` are more JSON objects for the "workloads" list.
    QByteArray config(const QString &extraWorkloads = {}) const
    {
        const QString engine = QStringLiteral("http://127.0.0.1:%1").arg(m_enginePort);
        return QStringLiteral(R"({"namespace": "chaos", "restartBackoffSeconds": 1, "workloads": [
  {"kind": "StatefulSet", "name": "camunda", "image": "chaoscope/engine", "port": %1,
   "env": {"PROCESS": "work", "WORKERS": "4", "SERVICE_TIME": "0.005"}},
  {"name": "starter", "image": "chaoscope/starter",
   "env": {"RATE": "20", "TARGET": "%2", "POOL_SIZE": "10"}},
  {"name": "worker", "image": "chaoscope/worker",
   "env": {"JOB_TYPE": "work", "ENGINE": "%2", "HANDLER_DURATION": "10ms"}}%3
]})")
            .arg(m_enginePort)
            .arg(engine, extraWorkloads.isEmpty() ? QString() : QStringLiteral(",") + extraWorkloads)
            .toUtf8();
    }

    void startCluster(const QString &extraWorkloads = {}, const QStringList &arguments = {})
    {
        ASSERT_TRUE(m_cluster.start(config(extraWorkloads), arguments)) << m_cluster.errorString().toStdString();
        ASSERT_TRUE(waitFor(
            [&] {
                return readyPods(QStringLiteral("starter")) == 1 && readyPods(QStringLiteral("worker")) == 1 &&
                       readyPods(QStringLiteral("camunda")) == 1;
            },
            60000, 200))
            << kubectl({"get", "pods", "-n", "chaos"}).all().toStdString() << m_cluster.log().toStdString();
    }

    ClusterProcess::Result kubectl(const QStringList &arguments, int timeoutMs = 60000) const
    {
        return m_cluster.kubectl(arguments, timeoutMs);
    }

    // Ready pods of app=<app>, from the API.
    int readyPods(const QString &app) const
    {
        const ClusterProcess::Http http = m_cluster.request(
            "GET", QStringLiteral("/api/v1/namespaces/chaos/pods?labelSelector=app%3D") + app, m_cluster.adminToken());
        int ready = 0;
        for (const QJsonValue &item : http.json().value(QStringLiteral("items")).toArray()) {
            const QJsonObject pod = item.toObject();
            if (pod.value(QStringLiteral("metadata")).toObject().contains(QStringLiteral("deletionTimestamp")))
                continue;
            const QJsonArray statuses =
                pod.value(QStringLiteral("status")).toObject().value(QStringLiteral("containerStatuses")).toArray();
            if (!statuses.isEmpty() && statuses.at(0).toObject().value(QStringLiteral("ready")).toBool())
                ++ready;
        }
        return ready;
    }

    QJsonObject podObject(const QString &name) const
    {
        return m_cluster.request("GET", QStringLiteral("/api/v1/namespaces/chaos/pods/") + name, m_cluster.adminToken())
            .json();
    }

    double metric(const QString &url, const QString &line) const
    {
        const BlockingHttp::Answer answer = BlockingHttp::get(url);
        for (const QByteArray &l : answer.body.split('\n'))
            if (l.startsWith(line.toUtf8() + ' '))
                return l.mid(line.size() + 1).toDouble();
        return std::nan("");
    }

    quint16 m_enginePort = 0;
    ClusterProcess m_cluster;
};

QStringList tableRow(const QString &output, const QString &name)
{
    for (const QString &line : output.split(QLatin1Char('\n')))
        if (line.startsWith(name + QLatin1Char(' ')))
            return line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return {};
}

} // namespace

TEST_F(ClusterTest, KubectlGetsAndDescribesTheWorkloadsAndTheirPods)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    const ClusterProcess::Result deployments = kubectl({"get", "deployments", "-n", "chaos"});
    ASSERT_EQ(deployments.exitCode, 0) << deployments.all().toStdString();
    EXPECT_TRUE(deployments.out.startsWith(QStringLiteral("NAME ")));
    EXPECT_TRUE(deployments.out.contains(QRegularExpression(QStringLiteral("UP-TO-DATE +AVAILABLE +AGE"))));
    EXPECT_EQ(tableRow(deployments.out, QStringLiteral("starter")).value(1), QStringLiteral("1/1"));

    const ClusterProcess::Result statefulsets = kubectl({"get", "statefulsets", "-n", "chaos", "-o", "wide"});
    EXPECT_EQ(tableRow(statefulsets.out, QStringLiteral("camunda")).value(1), QStringLiteral("1/1"))
        << statefulsets.all().toStdString();
    EXPECT_TRUE(statefulsets.out.contains(QStringLiteral("chaoscope/engine")));

    const ClusterProcess::Result pods = kubectl({"get", "pods", "-n", "chaos", "-o", "wide"});
    const QStringList camunda = tableRow(pods.out, QStringLiteral("camunda-0"));
    EXPECT_EQ(camunda.mid(1, 3), (QStringList{"1/1", "Running", "0"})) << pods.all().toStdString();
    EXPECT_TRUE(pods.out.contains(QStringLiteral("chaoscope-node")));

    const ClusterProcess::Result describe = kubectl({"describe", "deployment", "starter", "-n", "chaos"});
    ASSERT_EQ(describe.exitCode, 0) << describe.all().toStdString();
    for (const char *expected : {"RollingUpdateStrategy:  0 max unavailable, 1 max surge",
                                 "Replicas:               1 desired | 1 updated | 1 total | 1 available",
                                 "RATE:", "NewReplicaSet:   starter-", "ScalingReplicaSet"})
        EXPECT_TRUE(describe.out.contains(QLatin1String(expected))) << expected << "\n" << describe.out.toStdString();

    const QString pod = m_cluster.pods(ns, QStringLiteral("worker")).value(0);
    const ClusterProcess::Result describePod = kubectl({"describe", "pod", pod, "-n", "chaos"});
    for (const char *expected : {"Status:       Running", "Controlled By:  ReplicaSet/worker-",
                                 "Started container worker", "Successfully assigned chaos/"})
        EXPECT_TRUE(describePod.out.contains(QLatin1String(expected))) << expected << "\n"
                                                                       << describePod.out.toStdString();
    const ClusterProcess::Result events = kubectl({"get", "events", "-n", "chaos"});
    EXPECT_TRUE(events.out.contains(QRegularExpression(QStringLiteral("Normal +Started +pod/camunda-0"))))
        << events.all().toStdString();
    const ClusterProcess::Result logs = kubectl({"logs", pod, "-n", "chaos"});
    EXPECT_TRUE(logs.out.contains(QStringLiteral("works on 'work'"))) << logs.all().toStdString();
}

TEST_F(ClusterTest, AWorkerScaledToZeroAndBackStopsAndStartsAndPrometheusFollowsItsTargets)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    PrometheusProcess prometheus;
    prometheus.setFileTargets({{QStringLiteral("pods"), m_cluster.serviceDiscoveryFile()}});
    ASSERT_TRUE(prometheus.start()) << prometheus.errorString().toStdString();
    const QString upWorkers = QStringLiteral("count(up{job=\"pods\",namespace=\"chaos\",workload=\"worker\"} == 1)");
    ASSERT_TRUE(waitFor([&] { return prometheus.instantValue(upWorkers) == 1; }, 30000, 250))
        << "Prometheus found the worker pod by its file";

    const QString before = m_cluster.pods(ns, QStringLiteral("worker")).value(0);
    const qint64 pid = m_cluster.containerPid(ns, before);
    ASSERT_TRUE(processIsAlive(pid));
    const ClusterProcess::Result down = kubectl({"scale", "deployment", "worker", "--replicas=0", "-n", "chaos"});
    ASSERT_EQ(down.exitCode, 0) << down.all().toStdString();
    EXPECT_EQ(down.out.trimmed(), QStringLiteral("deployment.apps/worker scaled"));
    EXPECT_TRUE(waitFor([&] { return !processIsAlive(pid); }, 20000)) << "the worker process stopped";
    EXPECT_TRUE(waitFor([&] { return m_cluster.pods(ns, QStringLiteral("worker")).isEmpty(); }, 20000));
    EXPECT_TRUE(waitFor([&] { return std::isnan(prometheus.instantValue(upWorkers)); }, 30000, 250))
        << "the target went away";

    ASSERT_EQ(kubectl({"scale", "deployment", "worker", "--replicas=1", "-n", "chaos"}).exitCode, 0);
    ASSERT_TRUE(waitFor([&] { return readyPods(QStringLiteral("worker")) == 1; }, 30000, 200));
    const QString after = m_cluster.pods(ns, QStringLiteral("worker")).value(0);
    EXPECT_NE(after, before) << "a new pod, with a name of its own";
    EXPECT_TRUE(processIsAlive(m_cluster.containerPid(ns, after)));
    EXPECT_TRUE(waitFor([&] { return prometheus.instantValue(upWorkers) == 1; }, 30000, 250))
        << "the new pod is scraped";
    EXPECT_TRUE(prometheus.waitForSeries(
        QStringLiteral("camunda_client_worker_job_handled_total{pod=\"%1\",namespace=\"chaos\"} > 0").arg(after),
        30000))
        << "and it works: its handled jobs carry its pod name";

    const QString ksm = m_cluster.metricsUrl();
    EXPECT_EQ(metric(ksm, QStringLiteral("kube_deployment_spec_replicas{namespace=\"chaos\",deployment=\"worker\"}")),
              1);
    EXPECT_EQ(metric(ksm, QStringLiteral("kube_deployment_status_replicas_ready{namespace="
                                         "\"chaos\",deployment=\"worker\"}")),
              1);
}

TEST_F(ClusterTest, SetEnvRollsTheStartersOneAtATimeAndTheNewRateIsTheirs)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_EQ(kubectl({"scale", "deployment", "starter", "--replicas=2", "-n", "chaos"}).exitCode, 0);
    ASSERT_TRUE(waitFor([&] { return readyPods(QStringLiteral("starter")) == 2; }, 30000, 200));
    const QStringList old = m_cluster.pods(ns, QStringLiteral("starter"));

    QProcess watch;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("KUBECONFIG"), m_cluster.kubeconfig());
    environment.insert(QStringLiteral("HOME"),
                       QFileInfo(m_cluster.kubeconfig()).absolutePath() + QStringLiteral("/home"));
    watch.setProcessEnvironment(environment);
    watch.setProcessChannelMode(QProcess::MergedChannels);
    watch.start(ClusterProcess::kubectlBinary(), {"get", "pods", "-n", "chaos", "-l", "app=starter", "-w"});
    QByteArray watched;
    ASSERT_TRUE(waitFor(
        [&] {
            watched += watch.readAll();
            return watched.count('\n') >= 3;
        },
        30000));

    const ClusterProcess::Result set = kubectl({"set", "env", "deployment/starter", "RATE=7", "-n", "chaos"});
    ASSERT_EQ(set.exitCode, 0) << set.all().toStdString();
    EXPECT_EQ(set.out.trimmed(), QStringLiteral("deployment.apps/starter env updated"));
    const ClusterProcess::Result rollout =
        kubectl({"rollout", "status", "deployment/starter", "-n", "chaos", "--timeout=90s"}, 100000);
    ASSERT_EQ(rollout.exitCode, 0) << rollout.all().toStdString();
    EXPECT_TRUE(rollout.out.contains(QStringLiteral("deployment \"starter\" successfully rolled out")));
    waitFor(
        [&] {
            watched += watch.readAll();
            return false;
        },
        1500);
    watch.kill();
    watch.waitForFinished(5000);

    const QStringList now = m_cluster.pods(ns, QStringLiteral("starter"));
    ASSERT_EQ(now.size(), 2);
    for (const QString &pod : now) {
        EXPECT_FALSE(old.contains(pod)) << "every pod was replaced";
        const BlockingHttp::Answer status =
            BlockingHttp::get(QStringLiteral("http://127.0.0.1:%1/admin/status").arg(m_cluster.podPort(ns, pod)));
        EXPECT_EQ(status.json().value(QStringLiteral("rate")).toDouble(), 7) << status.body.toStdString();
        EXPECT_EQ(status.json().value(QStringLiteral("instance")).toString(), pod) << "each replica its own name";
    }
    // One at a time, new first: the first old pod terminates only after a new one is ready.
    const QString text = QString::fromUtf8(watched);
    const qsizetype firstNewReady =
        text.indexOf(QRegularExpression(QStringLiteral("\n(%1|%2) +1/1 +Running").arg(now.at(0), now.at(1))));
    const qsizetype firstOldTerminating =
        text.indexOf(QRegularExpression(QStringLiteral("\n(%1|%2) +\\S+ +Terminating").arg(old.at(0), old.at(1))));
    ASSERT_GE(firstNewReady, 0) << text.toStdString();
    ASSERT_GE(firstOldTerminating, 0) << text.toStdString();
    EXPECT_LT(firstNewReady, firstOldTerminating) << text.toStdString();
}

TEST_F(ClusterTest, SetResourcesCapsWhatTheStarterMaySchedule)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_EQ(kubectl({"set", "env", "deployment/starter", "RATE=400", "-n", "chaos"}).exitCode, 0);
    const ClusterProcess::Result set =
        kubectl({"set", "resources", "deployment", "starter", "--limits=cpu=100m,memory=512Mi", "-n", "chaos"});
    ASSERT_EQ(set.exitCode, 0) << set.all().toStdString();
    ASSERT_EQ(kubectl({"rollout", "status", "deployment/starter", "-n", "chaos", "--timeout=90s"}, 100000).exitCode, 0);
    const QString pod = m_cluster.pods(ns, QStringLiteral("starter")).value(0);
    const QString metrics = QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_cluster.podPort(ns, pod));
    // 100 millicores at 1 ms of CPU per request: 10 per 100 ms period, 100 per second.
    EXPECT_EQ(metric(metrics, QStringLiteral("starter_cpu_limit_cores")), 0.1);
    const double sent0 = metric(metrics, QStringLiteral("starter_requests_sent_total"));
    const double throttled0 = metric(metrics, QStringLiteral("container_cpu_cfs_throttled_periods_total"));
    QElapsedTimer clock;
    clock.start();
    waitFor([] { return false; }, 3000, 50);
    const double seconds = clock.elapsed() / 1000.0;
    const double rate = (metric(metrics, QStringLiteral("starter_requests_sent_total")) - sent0) / seconds;
    EXPECT_GT(rate, 50) << "it does send";
    EXPECT_LT(rate, 115) << "not the 400/s it was told: the CPU limit caps it";
    EXPECT_GT(metric(metrics, QStringLiteral("container_cpu_cfs_throttled_periods_total")) - throttled0,
              0.8 * seconds * 10)
        << "nearly every 100 ms period is throttled";
    EXPECT_EQ(metric(m_cluster.metricsUrl(),
                     QStringLiteral("kube_pod_container_resource_limits{namespace=\"chaos\",pod=\"%1\",uid=\"%2\","
                                    "container=\"starter\",node=\"chaoscope-node\",resource=\"cpu\",unit=\"core\"}")
                         .arg(pod, podObject(pod)
                                       .value(QStringLiteral("metadata"))
                                       .toObject()
                                       .value(QStringLiteral("uid"))
                                       .toString())),
              0.1);
}

TEST_F(ClusterTest, GetWatchPrintsEveryChange)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    QProcess watch;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("KUBECONFIG"), m_cluster.kubeconfig());
    environment.insert(QStringLiteral("HOME"),
                       QFileInfo(m_cluster.kubeconfig()).absolutePath() + QStringLiteral("/home"));
    watch.setProcessEnvironment(environment);
    watch.setProcessChannelMode(QProcess::MergedChannels);
    watch.start(ClusterProcess::kubectlBinary(), {"get", "deployment", "worker", "-n", "chaos", "-w"});
    QByteArray watched;
    ASSERT_TRUE(waitFor(
        [&] {
            watched += watch.readAll();
            return watched.contains("worker");
        },
        30000));
    ASSERT_EQ(kubectl({"scale", "deployment", "worker", "--replicas=2", "-n", "chaos"}).exitCode, 0);
    EXPECT_TRUE(waitFor(
        [&] {
            watched += watch.readAll();
            return QString::fromUtf8(watched).contains(QRegularExpression(QStringLiteral("worker +2/2 ")));
        },
        30000))
        << watched.toStdString();
    ASSERT_EQ(kubectl({"scale", "deployment", "worker", "--replicas=1", "-n", "chaos"}).exitCode, 0);
    EXPECT_TRUE(waitFor(
        [&] {
            watched += watch.readAll();
            return QString::fromUtf8(watched).split(QLatin1Char('\n')).last().isEmpty() &&
                   QString::fromUtf8(watched).contains(
                       QRegularExpression(QStringLiteral("2/2[^\n]*\n(.*\n)*worker +1/1 ")));
        },
        30000))
        << watched.toStdString();
    const QStringList lines = QString::fromUtf8(watched).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                            [](const QString &l) { return l.startsWith(QLatin1String("NAME ")); }),
              1)
        << "one header, then a row per change:\n"
        << watched.toStdString();
    watch.kill();
    watch.waitForFinished(5000);
}

TEST_F(ClusterTest, TokensDecideWhoMayReadAndWhoMayChange)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    const ClusterProcess::Result wrong =
        m_cluster.kubectl({"get", "pods", "-n", "chaos"}, 60000, QStringLiteral("not-a-token"));
    EXPECT_NE(wrong.exitCode, 0);
    EXPECT_TRUE(wrong.err.contains(QStringLiteral("error: You must be logged in to the server")))
        << wrong.all().toStdString();
    for (const QString &token : {QString(), QStringLiteral("not-a-token")}) {
        const ClusterProcess::Http http =
            m_cluster.request("GET", QStringLiteral("/api/v1/namespaces/chaos/pods"), token);
        EXPECT_EQ(http.status, 401);
        EXPECT_EQ(http.json().value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
        EXPECT_EQ(http.json().value(QStringLiteral("reason")).toString(), QStringLiteral("Unauthorized"));
        EXPECT_EQ(http.json().value(QStringLiteral("code")).toInt(), 401);
    }
    EXPECT_FALSE(m_cluster.log().contains(m_cluster.adminToken()));
    EXPECT_FALSE(m_cluster.log().contains(QStringLiteral("not-a-token"))) << "no token is ever logged";

    const ClusterProcess::Result read =
        m_cluster.kubectl({"get", "deployments", "-n", "chaos"}, 60000, m_cluster.viewerToken());
    EXPECT_EQ(read.exitCode, 0) << "a viewer may read: " << read.all().toStdString();
    const ClusterProcess::Result scale = m_cluster.kubectl(
        {"scale", "deployment", "worker", "--replicas=3", "-n", "chaos"}, 60000, m_cluster.viewerToken());
    EXPECT_NE(scale.exitCode, 0);
    EXPECT_TRUE(scale.err.contains(
        QStringLiteral("Error from server (Forbidden): deployments.apps \"worker\" is forbidden: User \"viewer\" "
                       "cannot "
                       "patch resource \"deployments/scale\" in API group \"apps\" in the namespace \"chaos\"")))
        << scale.all().toStdString();
    const ClusterProcess::Http forbidden =
        m_cluster.request("PATCH", QStringLiteral("/apis/apps/v1/namespaces/chaos/deployments/worker/scale"),
                          m_cluster.viewerToken(), R"({"spec":{"replicas":3}})", "application/merge-patch+json");
    EXPECT_EQ(forbidden.status, 403);
    EXPECT_EQ(forbidden.json().value(QStringLiteral("reason")).toString(), QStringLiteral("Forbidden"));
    EXPECT_EQ(forbidden.json().value(QStringLiteral("details")).toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("worker"));
    EXPECT_EQ(readyPods(QStringLiteral("worker")), 1) << "nothing changed";
}

TEST_F(ClusterTest, StaleVersionsAndBadInputGetTheApiServersAnswersAndChangeNothing)
{
    startCluster({}, {QStringLiteral("--watch-history"), QStringLiteral("10")});
    ASSERT_FALSE(HasFatalFailure());
    // Ten changes later the first versions are gone from the history a watch resumes from.
    const ClusterProcess::Result expired =
        kubectl({"get", "--raw", "/api/v1/namespaces/chaos/pods?watch=1&resourceVersion=1"});
    EXPECT_NE(expired.exitCode, 0);
    EXPECT_TRUE(expired.err.contains(
        QRegularExpression(QStringLiteral(R"(Error from server \(Expired\): too old resource version: 1 \(\d+\))"))))
        << expired.all().toStdString();
    const ClusterProcess::Http gone = m_cluster.request(
        "GET", QStringLiteral("/api/v1/namespaces/chaos/pods?watch=1&resourceVersion=1"), m_cluster.adminToken());
    EXPECT_EQ(gone.status, 410);
    EXPECT_EQ(gone.json().value(QStringLiteral("reason")).toString(), QStringLiteral("Expired"));

    const ClusterProcess::Result conflict =
        kubectl({"patch", "deployment", "worker", "-n", "chaos", "--type", "merge", "-p",
                 R"({"metadata":{"resourceVersion":"1"},"spec":{"replicas":2}})"});
    EXPECT_TRUE(conflict.err.contains(
        QStringLiteral("Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "
                       "\"worker\": the object has "
                       "been modified; please apply your changes to the latest version and try again")))
        << conflict.all().toStdString();

    const ClusterProcess::Result notFound = kubectl({"get", "deployment", "nope", "-n", "chaos"});
    EXPECT_TRUE(
        notFound.err.contains(QStringLiteral("Error from server (NotFound): deployments.apps \"nope\" not found")))
        << notFound.all().toStdString();

    const ClusterProcess::Result tooMany = kubectl({"scale", "deployment", "worker", "--replicas=50", "-n", "chaos"});
    EXPECT_NE(tooMany.exitCode, 0);
    EXPECT_TRUE(
        tooMany.err.contains(QStringLiteral("spec.replicas: Invalid value: 50: must be less than or equal to 10")))
        << tooMany.all().toStdString();
    const ClusterProcess::Result badQuantity = kubectl(
        {"patch", "deployment", "starter", "-n", "chaos", "-p",
         R"({"spec":{"template":{"spec":{"containers":[{"name":"starter","resources":{"limits":{"cpu":"lots"}}}]}}}})"});
    EXPECT_NE(badQuantity.exitCode, 0);
    EXPECT_TRUE(
        badQuantity.err.contains(QStringLiteral("is invalid: spec.template.spec.containers[0].resources.limits[cpu]")))
        << badQuantity.all().toStdString();
    const ClusterProcess::Result deletion = kubectl({"delete", "deployment", "worker", "-n", "chaos"});
    EXPECT_TRUE(deletion.err.contains(QStringLiteral("Error from server (Forbidden)"))) << deletion.all().toStdString();

    const QJsonObject worker =
        m_cluster
            .request("GET", QStringLiteral("/apis/apps/v1/namespaces/chaos/deployments/worker"), m_cluster.adminToken())
            .json();
    EXPECT_EQ(worker.value(QStringLiteral("spec")).toObject().value(QStringLiteral("replicas")).toInt(), 1);
    EXPECT_EQ(worker.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("generation")).toInt(), 1)
        << "none of it changed the deployment";
}

TEST_F(ClusterTest, ACrashedContainerComesBackWithItsReasonAndAStarterOverItsMemoryIsOOMKilled)
{
    // A starter whose target never answers (an engine without workers): its requests pile up
    // in flight until 2 MiB of them (about 340) end it the way the OOM killer would.
    const QString engine = QStringLiteral("http://127.0.0.1:%1").arg(freeLoopbackPort());
    const quint16 blackhole = QUrl(engine).port();
    startCluster(QStringLiteral(
                     R"({"kind": "StatefulSet", "name": "blackhole", "image": "chaoscope/engine", "port": %1,
        "env": {"WORKERS": "0", "QUEUE": "1000000"}},
      {"name": "hog", "image": "chaoscope/starter", "env": {"RATE": "400", "TARGET": "%2", "DEADLINE": "60"},
       "resources": {"limits": {"memory": "2Mi"}}})")
                     .arg(blackhole)
                     .arg(engine));
    ASSERT_FALSE(HasFatalFailure());

    const QString worker = m_cluster.pods(ns, QStringLiteral("worker")).value(0);
    const qint64 pid = m_cluster.containerPid(ns, worker);
    ASSERT_TRUE(processIsAlive(pid));
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ASSERT_TRUE(waitFor(
        [&] {
            return podObject(worker)
                           .value(QStringLiteral("status"))
                           .toObject()
                           .value(QStringLiteral("containerStatuses"))
                           .toArray()
                           .at(0)
                           .toObject()
                           .value(QStringLiteral("restartCount"))
                           .toInt() == 1 &&
                   readyPods(QStringLiteral("worker")) == 1;
        },
        30000, 200));
    const QJsonObject status = podObject(worker)
                                   .value(QStringLiteral("status"))
                                   .toObject()
                                   .value(QStringLiteral("containerStatuses"))
                                   .toArray()
                                   .at(0)
                                   .toObject();
    const QJsonObject last =
        status.value(QStringLiteral("lastState")).toObject().value(QStringLiteral("terminated")).toObject();
    EXPECT_EQ(last.value(QStringLiteral("reason")).toString(), QStringLiteral("Error"));
    EXPECT_EQ(last.value(QStringLiteral("exitCode")).toInt(), 137);
    EXPECT_NE(m_cluster.containerPid(ns, worker), pid) << "a new process in the same pod";
    const ClusterProcess::Result pods = kubectl({"get", "pods", "-n", "chaos"});
    EXPECT_TRUE(pods.out.contains(QRegularExpression(worker + QStringLiteral(R"( +1/1 +Running +1 \(\d+s ago\))"))))
        << pods.all().toStdString();

    const QString hog = m_cluster.pods(ns, QStringLiteral("hog")).value(0);
    ASSERT_FALSE(hog.isEmpty());
    ASSERT_TRUE(waitFor(
        [&] {
            return podObject(hog)
                       .value(QStringLiteral("status"))
                       .toObject()
                       .value(QStringLiteral("containerStatuses"))
                       .toArray()
                       .at(0)
                       .toObject()
                       .value(QStringLiteral("lastState"))
                       .toObject()
                       .value(QStringLiteral("terminated"))
                       .toObject()
                       .value(QStringLiteral("reason"))
                       .toString() == QLatin1String("OOMKilled");
        },
        30000, 200))
        << kubectl({"describe", "pod", hog, "-n", "chaos"}).out.toStdString();
    const ClusterProcess::Result describe = kubectl({"describe", "pod", hog, "-n", "chaos"});
    EXPECT_TRUE(describe.out.contains(
        QRegularExpression(QStringLiteral("Last State: +Terminated\n +Reason: +OOMKilled\n +Exit Code: +137"))))
        << describe.out.toStdString();
    const ClusterProcess::Result previous = kubectl({"logs", hog, "-n", "chaos", "--previous"});
    EXPECT_TRUE(previous.out.contains(QStringLiteral("out of memory"))) << previous.all().toStdString();
    const QString uid =
        podObject(hog).value(QStringLiteral("metadata")).toObject().value(QStringLiteral("uid")).toString();
    EXPECT_EQ(metric(m_cluster.metricsUrl(),
                     QStringLiteral("kube_pod_container_status_last_terminated_reason{namespace=\"chaos\",pod=\"%1\","
                                    "uid=\"%2\",container=\"hog\",reason=\"OOMKilled\"}")
                         .arg(hog, uid)),
              1);
    EXPECT_GE(metric(m_cluster.metricsUrl(), QStringLiteral("kube_pod_container_status_restarts_total{"
                                                            "namespace=\"chaos\",pod=\"%1\",uid=\"%2\","
                                                            "container=\"hog\"}")
                                                 .arg(hog, uid)),
              1);
    // The first restart is at once; the next crash waits (CrashLoopBackOff), and says so.
    EXPECT_TRUE(waitFor(
        [&] {
            return kubectl({"get", "events", "-n", "chaos", "--field-selector", "reason=BackOff"})
                .out.contains(QStringLiteral("Back-off restarting failed container hog"));
        },
        30000, 500));
}

TEST_F(ClusterTest, StoppingTheClusterStopsEveryPodAndAKilledOneTakesThemAlong)
{
    startCluster();
    ASSERT_FALSE(HasFatalFailure());
    QList<qint64> pids;
    for (const QString &app : {QStringLiteral("camunda"), QStringLiteral("starter"), QStringLiteral("worker")})
        pids << m_cluster.containerPid(ns, m_cluster.pods(ns, app).value(0));
    for (const qint64 pid : pids)
        ASSERT_TRUE(processIsAlive(pid));
    EXPECT_EQ(m_cluster.stop(), 0) << m_cluster.log().toStdString();
    for (const qint64 pid : pids)
        EXPECT_FALSE(processIsAlive(pid)) << "pid " << pid << " outlived the cluster";
    QFile discovery(m_cluster.serviceDiscoveryFile());
    ASSERT_TRUE(discovery.open(QIODevice::ReadOnly));
    EXPECT_EQ(discovery.readAll().trimmed(), QByteArray("[]")) << "Prometheus is told the targets are gone";

    // A cluster that is killed cannot stop anything: the kernel does (PR_SET_PDEATHSIG).
    ClusterProcess second;
    ASSERT_TRUE(second.start(config())) << second.errorString().toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            return !second.pods(ns, QStringLiteral("worker")).isEmpty() &&
                   second.containerPid(ns, second.pods(ns, QStringLiteral("worker")).value(0)) > 0;
        },
        30000, 200));
    const qint64 orphan = second.containerPid(ns, second.pods(ns, QStringLiteral("worker")).value(0));
    ASSERT_TRUE(processIsAlive(orphan));
    second.kill();
    EXPECT_TRUE(waitFor([&] { return !processIsAlive(orphan); }, 10000)) << "pid " << orphan << " is an orphan";
}
