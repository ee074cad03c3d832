// SPDX-License-Identifier: GPL-3.0-or-later
// Chaoscope's Kubernetes side against the real testbed cluster (chaoscope-cluster, https with
// bearer tokens, driven also by the real kubectl): the workloads listed and kept current by
// watches, a scale read back and annotated until its rollout is done, a change made with
// kubectl annotated once as not by Chaoscope, a refusal (403) annotated in the API's words with
// nothing changed, a killed pod annotated with its reason, a credential plugin, and no token
// in any annotation.
#include "annotations/annotationmodel.h"
#include "cluster/clusterdock.h"
#include "clusterprocess.h"
#include "freeport.h"
#include "kubernetes/clustercontroller.h"
#include "kubernetes/clusterseries.h"
#include "kubernetes/kubeauth.h"
#include "kubernetes/kubeclient.h"
#include "kubernetes/resourcewatch.h"
#include "kubernetes/workloadchange.h"
#include "kubernetes/workloadtablemodel.h"
#include "store/samplestore.h"
#include "store/serieskey.h"
#include "testpaths.h"
#include "waitfor.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <gtest/gtest.h>

namespace {

class KubernetesTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString why;
        if (!ClusterProcess::canRun(&why))
            GTEST_SKIP() << why.toStdString();
        for (const QString &binary : {clusterBinary(), engineBinary(), workerBinary()})
            ASSERT_TRUE(QFileInfo(binary).isExecutable()) << binary.toStdString() << " is not built";
        const quint16 enginePort = freeLoopbackPort();
        const QByteArray config = QStringLiteral(R"({"namespace": "chaos", "restartBackoffSeconds": 1, "workloads": [
  {"kind": "StatefulSet", "name": "camunda", "image": "chaoscope/engine", "port": %1,
   "env": {"PROCESS": "work", "WORKERS": "2", "SERVICE_TIME": "0.005"}},
  {"name": "worker", "image": "chaoscope/worker",
   "env": {"JOB_TYPE": "work", "ENGINE": "http://127.0.0.1:%1", "HANDLER_DURATION": "10ms", "CAPACITY": "32"},
   "resources": {"limits": {"cpu": "500m", "memory": "256Mi"}}}
]})")
                                      .arg(enginePort)
                                      .toUtf8();
        ASSERT_TRUE(m_cluster.start(config)) << m_cluster.errorString().toStdString();
    }

    KubeTarget target(const QString &token = {}) const
    {
        KubeConfig::Request request;
        request.files = {m_cluster.kubeconfig()};
        request.namespaceName = QStringLiteral("chaos");
        Result<KubeTarget> resolved = KubeConfig::resolve(request, QProcessEnvironment::systemEnvironment());
        EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().message.toStdString());
        KubeTarget t = resolved.ok() ? resolved.value() : KubeTarget{};
        if (!token.isEmpty())
            t.token = token;
        return t;
    }

    // Starts a controller and waits for the worker to be listed, ready.
    std::unique_ptr<ClusterController> controller(const KubeTarget &t)
    {
        auto c = std::make_unique<ClusterController>(t, &m_annotations);
        new ClusterSeriesRecorder(c.get(), &m_store, c.get()); // goes with the controller
        c->start();
        const bool ready = waitFor(
            [&] {
                const Workload *worker = c->workload(QStringLiteral("deployments/worker"));
                return worker && worker->ready == 1;
            },
            60000, 50);
        EXPECT_TRUE(ready) << c->stateText().toStdString() << m_cluster.log().toStdString();
        return c;
    }

    std::vector<Annotation> annotationsWith(const QString &text) const
    {
        std::vector<Annotation> found;
        for (const Annotation &a : m_annotations.annotations()) {
            if (a.text.contains(text))
                found.push_back(a);
        }
        return found;
    }

    void expectNoTokenAnywhere() const
    {
        for (const Annotation &a : m_annotations.annotations()) {
            EXPECT_FALSE(a.text.contains(m_cluster.adminToken())) << a.text.toStdString();
            EXPECT_FALSE(a.text.contains(m_cluster.viewerToken())) << a.text.toStdString();
        }
    }

    ClusterProcess m_cluster;
    AnnotationModel m_annotations;
    SampleStore m_store;
};

} // namespace

TEST_F(KubernetesTest, ListsTheWorkloadsWithTheirReplicasAndResources)
{
    const auto c = controller(target());
    // controller() waits for the worker; the statefulset may be listed a moment later.
    ASSERT_TRUE(waitFor([&] { return c->workloads().size() == 2; }, 30000, 20)) << c->stateText().toStdString();
    const Workload *engine = c->workload(QStringLiteral("statefulsets/camunda"));
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(engine->kindName(), QStringLiteral("StatefulSet"));
    const Workload *worker = c->workload(QStringLiteral("deployments/worker"));
    ASSERT_EQ(worker->containers.size(), 1u);
    EXPECT_EQ(worker->containers.front().cpuLimit, QStringLiteral("500m"));
    EXPECT_EQ(worker->containers.front().memoryLimit, QStringLiteral("256Mi"));
    EXPECT_EQ(worker->containers.front().env.value(QStringLiteral("JOB_TYPE")), QStringLiteral("work"));
    EXPECT_TRUE(c->isHealthy());
    EXPECT_TRUE(c->stateText().contains(QStringLiteral("namespace chaos"))) << c->stateText().toStdString();
}

TEST_F(KubernetesTest, AScaleIsReadBackAndAnnotatedUntilItsRolloutIsDone)
{
    const auto c = controller(target());
    const QFuture<Result<QString>> scaled = c->scale(QStringLiteral("deployments/worker"), 2);
    ASSERT_TRUE(waitFor([&] { return scaled.isFinished(); }, 30000, 20));
    ASSERT_TRUE(scaled.result().ok()) << scaled.result().error().message.toStdString();
    EXPECT_EQ(scaled.result().value(), QStringLiteral("worker replicas 1 → 2"));
    ASSERT_TRUE(waitFor(
        [&] {
            const auto done = annotationsWith(QStringLiteral("rolled out in"));
            return !done.empty();
        },
        60000, 50))
        << m_cluster.kubectl({"get", "pods", "-n", "chaos"}).all().toStdString();
    const Annotation action = annotationsWith(QStringLiteral("worker replicas 1 → 2")).front();
    EXPECT_EQ(action.source, Annotation::Source::Action);
    EXPECT_FALSE(action.failed);
    ASSERT_TRUE(action.endMs.has_value()) << "a region until the rollout is done";
    EXPECT_GT(*action.endMs, action.timeMs);
    EXPECT_EQ(c->workload(QStringLiteral("deployments/worker"))->ready, 2);
    EXPECT_TRUE(annotationsWith(QStringLiteral("not by Chaoscope")).empty()) << "our own change is not someone else's";
    // The set-points as series: what was wanted steps from 1 to 2, and ready follows.
    const auto values = [&](const char *field) {
        const SampleStore::Series *series =
            m_store.series(SeriesKey::kubernetes(QStringLiteral("worker"), QLatin1String(field)));
        return series ? std::vector<double>(series->values().begin(), series->values().end()) : std::vector<double>{};
    };
    ASSERT_TRUE(waitFor([&] { return !values("ready").empty() && values("ready").back() == 2; }, 10000, 50));
    EXPECT_EQ(values("desired").front(), 1);
    EXPECT_EQ(values("desired").back(), 2);
    expectNoTokenAnywhere();
}

TEST_F(KubernetesTest, AChangeMadeWithKubectlIsMarkedOnceAsNotByChaoscope)
{
    const auto c = controller(target());
    const ClusterProcess::Result scaled =
        m_cluster.kubectl({"scale", "deployment/worker", "--replicas=2", "-n", "chaos"});
    ASSERT_EQ(scaled.exitCode, 0) << scaled.all().toStdString();
    ASSERT_TRUE(waitFor([&] { return !annotationsWith(QStringLiteral("not by Chaoscope")).empty(); }, 30000, 20));
    const ClusterProcess::Result limited =
        m_cluster.kubectl({"set", "resources", "deployment/worker", "--limits=cpu=1", "-n", "chaos"});
    ASSERT_EQ(limited.exitCode, 0) << limited.all().toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            const Workload *worker = c->workload(QStringLiteral("deployments/worker"));
            return worker && worker->containers.front().cpuLimit == QStringLiteral("1") && worker->isRolledOut() &&
                   worker->ready == 2;
        },
        60000, 50));
    // Each change once; the two may fold into one annotation when kubectl made them within 1.5 s.
    const auto replicas = annotationsWith(QStringLiteral("worker replicas 1 → 2"));
    ASSERT_EQ(replicas.size(), 1u) << "exactly once";
    EXPECT_EQ(replicas.front().source, Annotation::Source::Kubernetes);
    EXPECT_TRUE(replicas.front().text.endsWith(QStringLiteral(", not by Chaoscope")))
        << replicas.front().text.toStdString();
    const auto cpu = annotationsWith(QStringLiteral("cpu limit 500m → 1"));
    ASSERT_EQ(cpu.size(), 1u);
    EXPECT_TRUE(cpu.front().text.endsWith(QStringLiteral(", not by Chaoscope")));
    expectNoTokenAnywhere();
}

TEST_F(KubernetesTest, ARefusalIsAnnotatedInTheApisWordsAndChangesNothing)
{
    const auto c = controller(target(m_cluster.viewerToken()));
    const QFuture<Result<QString>> scaled = c->scale(QStringLiteral("deployments/worker"), 0);
    ASSERT_TRUE(waitFor([&] { return scaled.isFinished(); }, 30000, 20));
    ASSERT_FALSE(scaled.result().ok());
    const QString message = scaled.result().error().message;
    EXPECT_TRUE(message.contains(QStringLiteral("worker replicas 1 → 0 refused: 403 Forbidden:")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("cannot patch"))) << message.toStdString();
    const auto failed = annotationsWith(QStringLiteral("refused: 403 Forbidden"));
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_TRUE(failed.front().failed);
    const ClusterProcess::Result replicas =
        m_cluster.kubectl({"get", "deployment/worker", "-n", "chaos", "-o", "jsonpath={.spec.replicas}"});
    EXPECT_EQ(replicas.out.trimmed(), QStringLiteral("1")) << "nothing changed";
    expectNoTokenAnywhere();
}

TEST_F(KubernetesTest, AKilledPodIsAnnotatedWithItsReason)
{
    const auto c = controller(target());
    const QStringList pods = m_cluster.pods(QStringLiteral("chaos"), QStringLiteral("worker"));
    ASSERT_EQ(pods.size(), 1);
    const qint64 pid = m_cluster.containerPid(QStringLiteral("chaos"), pods.front());
    ASSERT_GT(pid, 0);
    ASSERT_EQ(::kill(pid_t(pid), SIGKILL), 0);
    ASSERT_TRUE(
        waitFor([&] { return !annotationsWith(pods.front() + QStringLiteral(" restarted")).empty(); }, 60000, 50))
        << m_cluster.kubectl({"get", "pods", "-n", "chaos"}).all().toStdString();
    const Annotation restart = annotationsWith(pods.front() + QStringLiteral(" restarted")).front();
    EXPECT_EQ(restart.text, pods.front() + QStringLiteral(" restarted: Error (exit 137)"));
    EXPECT_EQ(restart.source, Annotation::Source::Kubernetes);
}

TEST_F(KubernetesTest, ACredentialPluginIsRunAndItsTokenUsed)
{
    QTemporaryDir dir;
    const QString plugin = dir.filePath(QStringLiteral("credential-plugin"));
    QFile script(plugin);
    ASSERT_TRUE(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\n"
                                "printf '%s' '{\"apiVersion\": \"client.authentication.k8s.io/v1\", "
                                "\"kind\": \"ExecCredential\", \"status\": {\"token\": \"%1\", "
                                "\"expirationTimestamp\": \"2099-01-01T00:00:00Z\"}}'\n")
                     .arg(m_cluster.adminToken())
                     .toUtf8());
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    KubeTarget t = target();
    t.token.clear();
    t.exec = ExecPlugin{plugin, {}, {}, QStringLiteral("client.authentication.k8s.io/v1"), dir.path()};
    KubeClient client(t);
    const QFuture<Result<QJsonObject>> listed =
        client.request("GET", client.path(QStringLiteral("apps/v1"), QStringLiteral("deployments")));
    ASSERT_TRUE(waitFor([&] { return listed.isFinished(); }, 30000, 20));
    ASSERT_TRUE(listed.result().ok()) << listed.result().error().message.toStdString();
    EXPECT_EQ(listed.result()->value(QLatin1String("kind")).toString(), QStringLiteral("DeploymentList"));

    // A plugin that fails is named with its exit code; nothing of its output is shown.
    QFile broken(plugin);
    ASSERT_TRUE(broken.open(QIODevice::WriteOnly));
    broken.write("#!/bin/sh\necho 'no credentials: run gcloud auth login' >&2\nexit 3\n");
    broken.close();
    KubeClient failing(t);
    const QFuture<Result<QJsonObject>> refused =
        failing.request("GET", failing.path(QStringLiteral("apps/v1"), QStringLiteral("deployments")));
    ASSERT_TRUE(waitFor([&] { return refused.isFinished(); }, 30000, 20));
    ASSERT_FALSE(refused.result().ok());
    EXPECT_TRUE(refused.result().error().message.contains(QStringLiteral("failed with exit code 3: no credentials")))
        << refused.result().error().message.toStdString();
}

TEST_F(KubernetesTest, AWatchThatEndsResumesFromItsVersionWithoutListingAgain)
{
    auto c = std::make_unique<ClusterController>(target(), &m_annotations);
    ResourceWatch *deployments = c->watchOf(QStringLiteral("deployments"));
    ASSERT_NE(deployments, nullptr);
    deployments->setWatchTimeoutSeconds(1); // the server ends every watch after a second
    c->start();
    ASSERT_TRUE(waitFor([&] { return c->workload(QStringLiteral("deployments/worker")) != nullptr; }, 60000, 50));
    const ClusterProcess::Result scaled =
        m_cluster.kubectl({"scale", "deployment/worker", "--replicas=2", "-n", "chaos"});
    ASSERT_EQ(scaled.exitCode, 0) << scaled.all().toStdString();
    ASSERT_TRUE(waitFor([&] { return c->workload(QStringLiteral("deployments/worker"))->desired == 2; }, 30000, 20));
    // Several watches have ended and resumed by now: one list only, and the change was seen.
    ASSERT_TRUE(waitFor([&] { return annotationsWith(QStringLiteral("not by Chaoscope")).size() == 1; }, 10000, 20));
    EXPECT_EQ(deployments->lists(), 1);
    EXPECT_TRUE(c->isHealthy());
}

TEST_F(KubernetesTest, EnvResourcesAndARestartAreReadBackAndAnnotatedUntilRolledOut)
{
    const auto c = controller(target());
    const QString pod = m_cluster.pods(QStringLiteral("chaos"), QStringLiteral("worker")).value(0);
    const auto finish = [&](const WorkloadChange &change) {
        const QFuture<Result<QString>> future = c->change(change);
        EXPECT_TRUE(waitFor([&] { return future.isFinished(); }, 30000, 20));
        return future.result();
    };
    const auto rolledOut = [&](const QString &text) {
        return waitFor(
            [&] {
                const auto found = annotationsWith(text);
                return !found.empty() && found.front().text.contains(QStringLiteral("rolled out in"));
            },
            60000, 50);
    };

    WorkloadChange env;
    env.kind = WorkloadChange::Kind::SetEnv;
    env.workload = QStringLiteral("worker");
    env.env = {{QStringLiteral("HANDLER_DURATION"), QStringLiteral("20ms")}};
    const Result<QString> envSet = finish(env);
    ASSERT_TRUE(envSet.ok()) << envSet.error().message.toStdString();
    EXPECT_EQ(envSet.value(), QStringLiteral("worker env HANDLER_DURATION 10ms → 20ms"));
    ASSERT_TRUE(rolledOut(QStringLiteral("worker env HANDLER_DURATION 10ms → 20ms")))
        << m_cluster.kubectl({"get", "pods", "-n", "chaos"}).all().toStdString();
    EXPECT_EQ(m_cluster
                  .kubectl({"get", "deployment/worker", "-n", "chaos", "-o",
                            "jsonpath={.spec.template.spec.containers[0].env[?(@.name==\"HANDLER_DURATION\")].value}"})
                  .out.trimmed(),
              QStringLiteral("20ms"));

    WorkloadChange resources;
    resources.kind = WorkloadChange::Kind::SetResources;
    resources.workload = QStringLiteral("worker");
    resources.limits = {{QStringLiteral("cpu"), QStringLiteral("1")}};
    resources.requests = {{QStringLiteral("memory"), QStringLiteral("64Mi")}};
    const Result<QString> resourcesSet = finish(resources);
    ASSERT_TRUE(resourcesSet.ok()) << resourcesSet.error().message.toStdString();
    EXPECT_EQ(resourcesSet.value(), QStringLiteral("worker cpu limit 500m → 1, memory request none → 64Mi"));
    ASSERT_TRUE(rolledOut(QStringLiteral("worker cpu limit 500m → 1")));

    const Result<QString> restarted =
        finish(WorkloadChange::restart(QStringLiteral("worker"), QStringLiteral("2026-12-01T10:00:00Z")));
    ASSERT_TRUE(restarted.ok()) << restarted.error().message.toStdString();
    EXPECT_EQ(restarted.value(), QStringLiteral("worker rollout restart"));
    ASSERT_TRUE(rolledOut(QStringLiteral("worker rollout restart")));
    // A restart replaces the pod (the old one may still be on its way out).
    EXPECT_TRUE(waitFor(
        [&] {
            const QStringList pods = m_cluster.pods(QStringLiteral("chaos"), QStringLiteral("worker"));
            return pods.size() == 1 && pods.front() != pod;
        },
        30000, 100))
        << m_cluster.kubectl({"get", "pods", "-n", "chaos"}).all().toStdString();

    EXPECT_TRUE(annotationsWith(QStringLiteral("not by Chaoscope")).empty())
        << "our own changes are not someone else's";
    for (const Annotation &a : m_annotations.annotations())
        EXPECT_FALSE(a.failed) << a.text.toStdString();
    expectNoTokenAnywhere();
}

TEST_F(KubernetesTest, AChangeThatCannotBeMadeIsRefusedBeforeAnythingIsSent)
{
    const auto c = controller(target());
    WorkloadChange bad;
    bad.kind = WorkloadChange::Kind::SetResources;
    bad.workload = QStringLiteral("worker");
    bad.limits = {{QStringLiteral("cpu"), QStringLiteral("half a core")}};
    const QFuture<Result<QString>> refused = c->change(bad);
    ASSERT_TRUE(refused.isFinished());
    ASSERT_FALSE(refused.result().ok());
    EXPECT_EQ(refused.result().error().message,
              QStringLiteral("cpu \"half a core\" is not a Kubernetes quantity (like 500m, 1.5, 256Mi)"));
    const QFuture<Result<QString>> missing = c->change(WorkloadChange::scale(QStringLiteral("nobody"), 1));
    ASSERT_FALSE(missing.result().ok());
    EXPECT_EQ(missing.result().error().message, QStringLiteral("no workload nobody in the namespace"));
    EXPECT_TRUE(m_annotations.annotations().empty()) << "nothing was sent, nothing is marked";
}

TEST_F(KubernetesTest, AWarningEventIsMarkedOnceThoughItRepeats)
{
    const auto c = controller(target());
    // An image this cluster cannot run: its pod waits in ErrImagePull and the kubelet warns
    // again at every back-off.
    const ClusterProcess::Result set =
        m_cluster.kubectl({"set", "image", "deployment/worker", "worker=chaoscope/missing", "-n", "chaos"});
    ASSERT_EQ(set.exitCode, 0) << set.all().toStdString();
    ASSERT_TRUE(waitFor(
        [&] {
            for (const Annotation &a : m_annotations.annotations()) {
                if (a.tags.contains(QStringLiteral("warning")))
                    return true;
            }
            return false;
        },
        60000, 50))
        << m_cluster.kubectl({"get", "events", "-n", "chaos"}).all().toStdString();
    // Let the kubelet warn a few more times (its back-off is 1 s here).
    ASSERT_TRUE(waitFor(
        [&] {
            const ClusterProcess::Result events =
                m_cluster.kubectl({"get", "events", "-n", "chaos", "--field-selector", "type=Warning", "-o",
                                   "jsonpath={range .items[*]}{.count}{\"\\n\"}{end}"});
            for (const QString &count : events.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                if (count.toInt() >= 3)
                    return true;
            }
            return false;
        },
        60000, 200));
    QHash<QString, int> perReason;
    for (const Annotation &a : m_annotations.annotations()) {
        if (!a.tags.contains(QStringLiteral("warning")))
            continue;
        EXPECT_EQ(a.source, Annotation::Source::Kubernetes);
        ++perReason[a.tags.last()];
    }
    for (auto it = perReason.cbegin(); it != perReason.cend(); ++it)
        EXPECT_EQ(it.value(), 1) << it.key().toStdString() << " marked more than once";
    const auto image = annotationsWith(QStringLiteral("image chaoscope/worker → chaoscope/missing, not by Chaoscope"));
    EXPECT_EQ(image.size(), 1u);
}

// The Cluster dock on the real cluster: what a user selects, types and presses, and what the
// dock and the timelines say afterwards.
TEST_F(KubernetesTest, TheDockScalesSetsAndRestartsTheSelectedWorkload)
{
    const auto c = controller(target());
    ClusterDock dock(c.get());
    QStringList asked;
    dock.setConfirm([&](const QString &question) {
        asked << question;
        return true;
    });
    ASSERT_TRUE(dock.select(QStringLiteral("deployments/worker")));
    EXPECT_TRUE(dock.settings().contains(QStringLiteral("cpu limit")));
    EXPECT_TRUE(dock.settings().contains(QStringLiteral("env HANDLER_DURATION")));
    const auto resultSays = [&](const QString &text) {
        return waitFor([&] { return dock.resultText().contains(text); }, 30000, 20);
    };

    dock.stepSelected(+1);
    ASSERT_TRUE(resultSays(QStringLiteral("worker replicas 1 → 2: the cluster took it")))
        << dock.resultText().toStdString();
    EXPECT_TRUE(asked.isEmpty()) << "+1 from 1 is not a change to confirm";
    ASSERT_TRUE(waitFor([&] { return c->workload(QStringLiteral("deployments/worker"))->ready == 2; }, 60000, 50));

    dock.setSelected(QStringLiteral("cpu limit"), QStringLiteral("a lot"));
    EXPECT_TRUE(resultSays(QStringLiteral("is not a Kubernetes quantity"))) << dock.resultText().toStdString();
    dock.setSelected(QStringLiteral("env HANDLER_DURATION"), QStringLiteral("15ms"));
    EXPECT_TRUE(resultSays(QStringLiteral("worker env HANDLER_DURATION 10ms → 15ms: the cluster took it")))
        << dock.resultText().toStdString();

    dock.restartSelected();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_EQ(asked.front(), QStringLiteral("Restart every pod of worker (2 replicas replaced one by one)?"));
    EXPECT_TRUE(resultSays(QStringLiteral("worker rollout restart: the cluster took it")))
        << dock.resultText().toStdString();

    dock.scaleSelectedTo(0);
    ASSERT_EQ(asked.size(), 2);
    EXPECT_EQ(asked.back(), QStringLiteral("Scale worker from 2 to 0 replicas?"));
    EXPECT_TRUE(resultSays(QStringLiteral("worker replicas 2 → 0"))) << dock.resultText().toStdString();
    EXPECT_TRUE(waitFor([&] { return c->workload(QStringLiteral("deployments/worker"))->ready == 0; }, 60000, 50));
    EXPECT_TRUE(annotationsWith(QStringLiteral("not by Chaoscope")).empty());
    expectNoTokenAnywhere();
}

TEST_F(KubernetesTest, TheDockSaysARefusalInTheApisWordsAndALostWatchInItsLight)
{
    const auto c = controller(target(m_cluster.viewerToken()));
    ClusterDock dock(c.get());
    ASSERT_TRUE(dock.select(QStringLiteral("deployments/worker")));
    dock.setSelected(QStringLiteral("memory limit"), QStringLiteral("512Mi"));
    ASSERT_TRUE(waitFor([&] { return dock.resultText().contains(QStringLiteral("403 Forbidden")); }, 30000, 20))
        << dock.resultText().toStdString();
    EXPECT_TRUE(dock.resultText().contains(QStringLiteral("worker memory limit 256Mi → 512Mi refused")))
        << dock.resultText().toStdString();
    // The API server goes away: the light says so, and the list stays as last seen.
    m_cluster.stop();
    EXPECT_TRUE(waitFor([&] { return !c->isHealthy(); }, 30000, 50));
    EXPECT_FALSE(dock.stateText().contains(QStringLiteral("2 workloads"))) << dock.stateText().toStdString();
    EXPECT_EQ(c->workloads().size(), 2u) << "what was seen is kept";
}

TEST_F(KubernetesTest, ABurstOfRestartsIsOneAnnotationWithACountAndTheTableCountsThem)
{
    const auto c = controller(target());
    const std::optional<Result<QString>> scaled = awaitResult(c->scale(QStringLiteral("deployments/worker"), 3), 30000);
    ASSERT_TRUE(scaled && scaled->ok());
    ASSERT_TRUE(waitFor([&] { return c->workload(QStringLiteral("deployments/worker"))->ready == 3; }, 60000, 50));
    WorkloadTableModel table(c.get());
    const int row = table.rowOf(QStringLiteral("deployments/worker"));
    ASSERT_GE(row, 0);
    const auto restartsShown = [&] { return table.index(row, WorkloadTableModel::RestartsColumn).data().toString(); };
    EXPECT_EQ(restartsShown(), QStringLiteral("0"));
    ASSERT_TRUE(waitFor([&] { return c->podsOf(QStringLiteral("deployments/worker")).pods == 3; }, 30000, 50));

    // A node lost, as seed 004 would see it: every pod of the worker killed at once.
    const QStringList pods = m_cluster.pods(QStringLiteral("chaos"), QStringLiteral("worker"));
    ASSERT_EQ(pods.size(), 3);
    for (const QString &pod : pods) {
        const qint64 pid = m_cluster.containerPid(QStringLiteral("chaos"), pod);
        ASSERT_GT(pid, 0);
        ASSERT_EQ(::kill(pid_t(pid), SIGKILL), 0);
    }
    ASSERT_TRUE(waitFor([&] { return c->podsOf(QStringLiteral("deployments/worker")).restarts == 3; }, 60000, 50))
        << m_cluster.kubectl({"get", "pods", "-n", "chaos"}).all().toStdString();
    const std::vector<Annotation> restarts = annotationsWith(QStringLiteral("restarted"));
    ASSERT_EQ(restarts.size(), 1u) << restarts.front().text.toStdString();
    EXPECT_EQ(restarts.front().text, QStringLiteral("worker: 3 pods restarted: Error (exit 137)"));
    EXPECT_EQ(restartsShown(), QStringLiteral("3 (Error)"));
    EXPECT_TRUE(table.index(row, WorkloadTableModel::RestartsColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("the last: Error (exit 137)")));
    // The light: back to green once the three are ready again.
    EXPECT_TRUE(waitFor(
        [&] {
            return table.index(row, 0).data(WorkloadTableModel::LightRole).toInt() ==
                   int(WorkloadTableModel::Light::Ready);
        },
        60000, 50));
}

TEST_F(KubernetesTest, TheDashboardsKnobsAreAColumnFirstInTheSetListAndASeriesAndKeysScale)
{
    const auto c = controller(target());
    ClusterSeriesRecorder knobs(c.get(), &m_store);
    KubernetesDefinition definition;
    definition.workloads = {QStringLiteral("worker")};
    definition.knobs = {{QStringLiteral("worker"), QStringLiteral("CAPACITY"), QStringLiteral("capacity")}};
    knobs.setKnobs(definition.knobs);
    ClusterDock dock(c.get());
    dock.setDefinition(definition);
    EXPECT_EQ(dock.visibleWorkloads(), 1) << "only the dashboard's workloads: camunda is hidden";
    ASSERT_TRUE(dock.select(QStringLiteral("deployments/worker")));
    ASSERT_FALSE(dock.settingTitles().isEmpty());
    EXPECT_EQ(dock.settingTitles().front(), QStringLiteral("capacity (env CAPACITY)"));
    WorkloadTableModel table(c.get());
    table.setDefinition(definition);
    const int row = table.rowOf(QStringLiteral("deployments/worker"));
    EXPECT_EQ(table.index(row, WorkloadTableModel::KnobsColumn).data().toString(), QStringLiteral("capacity 32"));

    const QString key = SeriesKey::kubernetes(QStringLiteral("worker"), QStringLiteral("env/CAPACITY"));
    const auto knobValue = [&] {
        const SampleStore::Series *series = m_store.series(key);
        return series && !series->values().empty() ? series->values().back() : -1.0;
    };
    ASSERT_TRUE(waitFor([&] { return knobValue() == 32; }, 10000, 20));
    dock.setSelected(QStringLiteral("env CAPACITY"), QStringLiteral("40"));
    ASSERT_TRUE(waitFor([&] { return dock.resultText().contains(QStringLiteral("the cluster took it")); }, 30000, 20))
        << dock.resultText().toStdString();
    EXPECT_TRUE(dock.resultText().contains(QStringLiteral("worker env CAPACITY 32 → 40")))
        << dock.resultText().toStdString();
    EXPECT_TRUE(waitFor([&] { return knobValue() == 40; }, 30000, 20)) << "the knob's step on the timeline";

    // The keyboard: + in the table is one replica more, as the +1 button.
    dock.show();
    QApplication::setActiveWindow(&dock);
    auto *view = dock.findChild<QTableView *>(QStringLiteral("clusterWorkloads"));
    ASSERT_NE(view, nullptr);
    view->setFocus();
    ASSERT_TRUE(waitFor([&] { return view->hasFocus(); }, 5000, 10));
    ASSERT_TRUE(waitFor([&] { return c->rolloutState(QStringLiteral("worker")).ok(); }, 60000, 50));
    QTest::keyClick(view, Qt::Key_Plus);
    EXPECT_TRUE(waitFor([&] { return dock.resultText().contains(QStringLiteral("worker replicas 1 → 2")); }, 30000, 20))
        << dock.resultText().toStdString();
}

TEST_F(KubernetesTest, AnotherNamespaceIsWatchedFromNowOnAndNothingOfTheOldOneStays)
{
    const auto c = controller(target());
    // controller() waits for the worker; the namespace's other workload may be listed a moment later.
    ASSERT_TRUE(waitFor([&] { return c->workloads().size() == 2; }, 30000, 20)) << c->stateText().toStdString();
    c->setNamespace(QStringLiteral("default"));
    EXPECT_EQ(c->namespaceName(), QStringLiteral("default"));
    EXPECT_TRUE(c->workloads().empty()) << "the old namespace's workloads go at once";
    // The new one is listed (empty here) and watched: a healthy state naming it.
    ASSERT_TRUE(
        waitFor([&] { return c->watchOf(QStringLiteral("deployments"))->lists() >= 2 && c->isHealthy(); }, 30000, 20));
    EXPECT_TRUE(c->stateText().contains(QStringLiteral("namespace default"))) << c->stateText().toStdString();
    c->setNamespace(QStringLiteral("chaos"));
    ASSERT_TRUE(waitFor([&] { return c->workloads().size() == 2; }, 30000, 20)) << c->stateText().toStdString();
    EXPECT_TRUE(annotationsWith(QStringLiteral("not by Chaoscope")).empty())
        << "coming back is not a change someone made";
    // The replicas line breaks at each switch: two namespaces' workers are not one line.
    const SampleStore::Series *ready =
        m_store.series(SeriesKey::kubernetes(QStringLiteral("worker"), QStringLiteral("ready")));
    ASSERT_NE(ready, nullptr);
    ASSERT_TRUE(waitFor([&] { return !ready->values().empty() && ready->values().back() == 1; }, 10000, 20));
    EXPECT_TRUE(std::any_of(ready->values().begin(), ready->values().end(), [](double v) { return std::isnan(v); }));
}
