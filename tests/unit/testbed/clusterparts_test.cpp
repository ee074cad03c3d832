// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster's parts that need no process: the patch formats kubectl sends (set env, set
// resources, rollout restart, patch), selectors, the store's versions, the config file,
// how a container becomes a command line, bearer tokens, and kubectl's columns.
#include "clusterconfig.h"
#include "clusteroptions.h"
#include "containerlaunch.h"
#include "kubejson.h"
#include "objectstore.h"
#include "patches.h"
#include "selectors.h"
#include "tables.h"
#include "testpaths.h"
#include "tokenauthenticator.h"
#include "workeroptions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <gtest/gtest.h>

namespace {

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

const char *deployment = R"({"spec":{"replicas":1,"template":{"spec":{"containers":[
    {"name":"starter","image":"chaoscope/starter","env":[{"name":"RATE","value":"5"},{"name":"TARGET","value":"t"}]},
    {"name":"sidecar","image":"x"}]}}}})";

QJsonArray env(const QJsonObject &d, int container = 0)
{
    return KubeJson::at(d, QStringLiteral("spec.template.spec.containers"))
        .toArray()
        .at(container)
        .toObject()
        .value(QStringLiteral("env"))
        .toArray();
}

} // namespace

TEST(ClusterPatches, StrategicMergeSetsAnEnvVarByNameAsKubectlSetEnvSendsIt)
{
    const Patches::Result result = Patches::apply(
        Patches::Type::Strategic, object(deployment),
        R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"starter"},{"name":"sidecar"}],
            "containers":[{"$setElementOrder/env":[{"name":"RATE"},{"name":"TARGET"},{"name":"POOL_SIZE"}],
            "env":[{"name":"RATE","value":"50"},{"name":"POOL_SIZE","value":"10"}],"name":"starter"}]}}}})");
    ASSERT_TRUE(result.object) << result.error.toStdString();
    const QJsonArray vars = env(*result.object);
    ASSERT_EQ(vars.size(), 3);
    EXPECT_EQ(vars.at(0).toObject().value(QStringLiteral("value")).toString(), QStringLiteral("50"));
    EXPECT_EQ(vars.at(1).toObject().value(QStringLiteral("value")).toString(), QStringLiteral("t"));
    EXPECT_EQ(vars.at(2).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("POOL_SIZE"));
    EXPECT_EQ(KubeJson::at(*result.object, QStringLiteral("spec.template.spec.containers")).toArray().size(), 2)
        << "the other container is untouched";
}

TEST(ClusterPatches, StrategicMergeDeletesAnEnvVarAndSetsResourcesOfOneContainer)
{
    const Patches::Result removed = Patches::apply(
        Patches::Type::Strategic, object(deployment),
        R"({"spec":{"template":{"spec":{"containers":[{"name":"starter","env":[{"$patch":"delete","name":"RATE"}],
            "resources":{"limits":{"cpu":"250m"}}}]}}}})");
    ASSERT_TRUE(removed.object) << removed.error.toStdString();
    ASSERT_EQ(env(*removed.object).size(), 1);
    EXPECT_EQ(env(*removed.object).at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("TARGET"));
    const QJsonArray containers =
        KubeJson::at(*removed.object, QStringLiteral("spec.template.spec.containers")).toArray();
    EXPECT_EQ(KubeJson::at(containers.at(0).toObject(), QStringLiteral("resources.limits.cpu")).toString(),
              QStringLiteral("250m"));
    EXPECT_FALSE(containers.at(1).toObject().contains(QStringLiteral("resources")));
}

TEST(ClusterPatches, MergePatchRemovesWithNullAndReplacesLists)
{
    const Patches::Result result = Patches::apply(
        Patches::Type::Merge, object(deployment),
        R"({"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"only","image":"y"}]}}},"status":null})");
    ASSERT_TRUE(result.object);
    EXPECT_EQ(KubeJson::at(*result.object, QStringLiteral("spec.replicas")).toInt(), 3);
    EXPECT_EQ(KubeJson::at(*result.object, QStringLiteral("spec.template.spec.containers")).toArray().size(), 1);
}

TEST(ClusterPatches, JsonPatchAppliesOperationsInOrderAndStopsAtAFailedTest)
{
    const Patches::Result ok = Patches::apply(
        Patches::Type::Json, object(deployment),
        R"([{"op":"test","path":"/spec/replicas","value":1},{"op":"replace","path":"/spec/replicas","value":2},
            {"op":"add","path":"/spec/template/spec/containers/0/env/-","value":{"name":"X","value":"1"}},
            {"op":"remove","path":"/spec/template/spec/containers/1"}])");
    ASSERT_TRUE(ok.object) << ok.error.toStdString();
    EXPECT_EQ(KubeJson::at(*ok.object, QStringLiteral("spec.replicas")).toInt(), 2);
    EXPECT_EQ(env(*ok.object).size(), 3);
    EXPECT_EQ(KubeJson::at(*ok.object, QStringLiteral("spec.template.spec.containers")).toArray().size(), 1);
    for (const char *bad :
         {R"([{"op":"test","path":"/spec/replicas","value":7}])", R"([{"op":"remove","path":"/spec/nothing"}])",
          R"([{"op":"frobnicate","path":"/spec"}])", R"({"not":"a list"})", "[{"}) {
        const Patches::Result failed = Patches::apply(Patches::Type::Json, object(deployment), bad);
        EXPECT_FALSE(failed.object) << bad;
        EXPECT_FALSE(failed.error.isEmpty()) << bad;
    }
    EXPECT_FALSE(Patches::typeOf("application/apply-patch+yaml")) << "server-side apply is not served";
}

TEST(ClusterSelectors, LabelAndFieldSelectorsAsKubectlWritesThem)
{
    QString error;
    const QJsonObject labels = object(R"({"app":"starter","tier":"load"})");
    for (const char *matching :
         {"app=starter", "app==starter,tier", "app in (worker,starter)", "!canary", "tier!=db", ""})
        EXPECT_TRUE(LabelSelector::parse(QLatin1String(matching), &error)->matches(labels)) << matching;
    for (const char *failing : {"app=worker", "app notin (starter)", "canary", "!tier"})
        EXPECT_FALSE(LabelSelector::parse(QLatin1String(failing), &error)->matches(labels)) << failing;
    EXPECT_FALSE(LabelSelector::parse(QStringLiteral("app=(x"), &error));
    EXPECT_FALSE(error.isEmpty());

    const QJsonObject event = object(R"({"involvedObject":{"name":"p","uid":"u","kind":"Pod"},"count":2})");
    EXPECT_TRUE(
        FieldSelector::parse(QStringLiteral("involvedObject.name=p,involvedObject.uid=u"), &error)->matches(event));
    EXPECT_FALSE(FieldSelector::parse(QStringLiteral("involvedObject.kind!=Pod"), &error)->matches(event));
    EXPECT_FALSE(FieldSelector::parse(QStringLiteral("nonsense"), &error));
}

TEST(ClusterStore, VersionsGrowOnChangesOnlyAndOldOnesAreCompacted)
{
    ObjectStore store(3);
    QJsonObject pod = object(R"({"kind":"Pod","metadata":{"name":"a","namespace":"n"},"spec":{"x":1}})");
    pod = store.create(QStringLiteral("pods"), pod);
    EXPECT_EQ(KubeJson::at(pod, QStringLiteral("metadata.resourceVersion")).toString(), QStringLiteral("1"));
    EXPECT_FALSE(KubeJson::at(pod, QStringLiteral("metadata.uid")).toString().isEmpty());
    store.update(QStringLiteral("pods"), pod);
    EXPECT_EQ(store.resourceVersion(), 1) << "an update that changes nothing is no change";
    KubeJson::set(pod, QStringLiteral("status.phase"), QStringLiteral("Running"));
    pod = store.update(QStringLiteral("pods"), pod);
    EXPECT_EQ(KubeJson::at(pod, QStringLiteral("metadata.generation")).toInt(), 1) << "status is not spec";
    KubeJson::set(pod, QStringLiteral("spec.x"), 2);
    pod = store.update(QStringLiteral("pods"), pod);
    EXPECT_EQ(KubeJson::at(pod, QStringLiteral("metadata.generation")).toInt(), 2);
    store.remove(QStringLiteral("pods"), QStringLiteral("n"), QStringLiteral("a"));
    EXPECT_EQ(store.resourceVersion(), 4);
    EXPECT_EQ(store.oldestWatchableVersion(), 1) << "three changes kept, the first one compacted";
    const auto changes = store.changesSince(2);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes.back().type, QStringLiteral("DELETED"));
}

TEST(ClusterConfig, ReadsWorkloadsAndRefusesWhatItCannotRunWithAMessage)
{
    QString error;
    const std::optional<ClusterConfig> config = ClusterConfig::parse(R"({"namespace":"c8-chaos","workloads":[
        {"kind":"StatefulSet","name":"camunda","image":"chaoscope/engine","port":26500},
        {"name":"starter","image":"chaoscope/starter","replicas":2,"env":{"RATE":"5"},
         "resources":{"limits":{"cpu":"500m"}}}]})",
                                                                     &error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->ns, QStringLiteral("c8-chaos"));
    ASSERT_EQ(config->workloads.size(), 2);
    EXPECT_EQ(config->workloads.at(1).labels.value(QStringLiteral("app")).toString(), QStringLiteral("starter"));
    const struct
    {
        const char *json;
        const char *message;
    } bad[] = {
        {R"({"workloads":[{"name":"x","image":"nginx"}]})", "unknown image 'nginx'"},
        {R"({"workloads":[{"name":"Bad_Name","image":"chaoscope/worker"}]})", "must be a DNS label"},
        {R"({"workloads":[{"name":"x","image":"chaoscope/worker","replicas":99}]})",
         "'replicas' must be a whole number from 0 to 10"},
        {R"({"workloads":[{"name":"x","image":"chaoscope/worker","resources":{"limits":{"cpu":"fast"}}}]})",
         "resources.limits.cpu"},
        {R"({"workload":[]})", "unknown field 'workload'"},
        {R"({"workloads":[{"name":"x","image":"chaoscope/worker"},{"name":"x","image":"chaoscope/worker"}]})",
         "two workloads"},
        {"{", "not JSON"},
    };
    for (const auto &b : bad) {
        EXPECT_FALSE(ClusterConfig::parse(b.json, &error)) << b.json;
        EXPECT_TRUE(error.contains(QLatin1String(b.message))) << error.toStdString();
    }
}

TEST(ClusterContainers, EnvVarsLimitsAndThePodNameBecomeFlags)
{
    const QMap<QString, ImageSpec> images = ClusterConfig::builtinImages();
    const QJsonObject pod =
        object(R"({"metadata":{"name":"starter-abc-x1","namespace":"n"},"spec":{"nodeName":"node"}})");
    const QJsonObject container = object(R"({"name":"starter","image":"chaoscope/starter",
        "env":[{"name":"RATE","value":"50"},{"name":"POOL_SIZE","value":"10"},
               {"name":"WHO","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
        "args":["--deadline","2"],"resources":{"limits":{"cpu":"250m","memory":"64Mi"}}})");
    const ContainerLaunch launch =
        ContainerLaunch::build(pod, container, images, {binaryPath(QStringLiteral("testbed/starter"))});
    ASSERT_TRUE(launch.isRunnable()) << launch.message.toStdString();
    EXPECT_EQ(launch.program, binaryPath(QStringLiteral("testbed/starter/chaoscope-starter")));
    EXPECT_EQ(launch.arguments, (QStringList{"--port", "0", "--instance", "starter-abc-x1", "--cpu-limit", "0.25",
                                             "--memory-limit", "67108864", "--rate", "50", "--pool-size", "10", "--who",
                                             "starter-abc-x1", "--deadline", "2"}));
    EXPECT_EQ(launch.environment.value(QStringLiteral("RATE")), QStringLiteral("50"));
    EXPECT_EQ(ContainerLaunch::flagFor(QStringLiteral("HANDLER_DURATION")), QStringLiteral("--handler-duration"));
    const ContainerLaunch unknown =
        ContainerLaunch::build(pod, object(R"({"name":"x","image":"nginx:1.27"})"), images, {});
    EXPECT_EQ(unknown.waitingReason, QStringLiteral("ErrImagePull"));
    EXPECT_TRUE(unknown.message.contains(QStringLiteral("nginx:1.27")));
}

TEST(ClusterTokens, TheTokenFileNamesUsersAndAViewerMayOnlyRead)
{
    QString error;
    const std::optional<TokenAuthenticator> tokens =
        TokenAuthenticator::parse("# tokens\nabc123,admin,1\nxyz789,anna,2,\"view,dev\"\n", &error);
    ASSERT_TRUE(tokens) << error.toStdString();
    EXPECT_EQ(tokens->authenticate("Bearer abc123")->name, QStringLiteral("admin"));
    EXPECT_TRUE(tokens->authenticate("bearer abc123")->canWrite());
    const std::optional<TokenAuthenticator::User> anna = tokens->authenticate("Bearer xyz789");
    ASSERT_TRUE(anna);
    EXPECT_EQ(anna->groups, (QStringList{"view", "dev"}));
    EXPECT_FALSE(anna->canWrite());
    EXPECT_FALSE(tokens->authenticate("Bearer abc12"));
    EXPECT_FALSE(tokens->authenticate("Basic abc123"));
    EXPECT_FALSE(tokens->authenticate(""));
    EXPECT_EQ(TokenAuthenticator::parse("just-a-token\n", &error)->authenticate("Bearer just-a-token")->name,
              QStringLiteral("admin"));
    EXPECT_FALSE(TokenAuthenticator::parse("\n# nothing\n", &error));
    EXPECT_FALSE(TokenAuthenticator::parse("to ken,u\n", &error));
    EXPECT_TRUE(TokenAuthenticator().authenticate("")) << "no token file: no authentication";
}

TEST(ClusterTables, PodStatusAndAgesReadAsKubectlPrintsThem)
{
    const auto status = [](const char *pod) {
        return Tables::table(QStringLiteral("pods"), {object(pod)}, QStringLiteral("1"), Tables::IncludeObject::None)
            .value(QStringLiteral("rows"))
            .toArray()
            .at(0)
            .toObject()
            .value(QStringLiteral("cells"))
            .toArray()
            .at(2)
            .toString();
    };
    EXPECT_EQ(status(R"({"metadata":{"name":"p"},"status":{"phase":"Running","containerStatuses":[
                       {"ready":false,"restartCount":3,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"),
              QStringLiteral("CrashLoopBackOff"));
    EXPECT_EQ(status(R"({"metadata":{"name":"p"},"status":{"phase":"Running","containerStatuses":[
                       {"state":{"terminated":{"reason":"OOMKilled","exitCode":137}}}]}})"),
              QStringLiteral("OOMKilled"));
    EXPECT_EQ(status(
                  R"({"metadata":{"name":"p","deletionTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Running",
                       "containerStatuses":[{"state":{"running":{}}}]}})"),
              QStringLiteral("Terminating"));
    EXPECT_EQ(KubeJson::humanDuration(45), QStringLiteral("45s"));
    EXPECT_EQ(KubeJson::humanDuration(183), QStringLiteral("3m3s"));
    EXPECT_EQ(KubeJson::humanDuration(3 * 3600 + 5 * 60), QStringLiteral("3h5m"));
    EXPECT_EQ(KubeJson::humanDuration(3 * 86400 + 7200), QStringLiteral("3d2h"));
}

TEST(WorkerOptions, DurationsReadAsTheSeedWritesThem)
{
    EXPECT_DOUBLE_EQ(*WorkerOptionsParser::parseDuration(QStringLiteral("300ms")), 0.3);
    EXPECT_DOUBLE_EQ(*WorkerOptionsParser::parseDuration(QStringLiteral("1.8s")), 1.8);
    EXPECT_DOUBLE_EQ(*WorkerOptionsParser::parseDuration(QStringLiteral("5m")), 300);
    EXPECT_DOUBLE_EQ(*WorkerOptionsParser::parseDuration(QStringLiteral("0.25")), 0.25);
    EXPECT_FALSE(WorkerOptionsParser::parseDuration(QStringLiteral("soon")));
    WorkerOptionsParser parser;
    EXPECT_EQ(parser.parse({"chaoscope-worker"}), WorkerOptionsParser::Outcome::Invalid);
    EXPECT_TRUE(parser.errorText().contains(QStringLiteral("--job-type is required")));
    ASSERT_EQ(parser.parse({"chaoscope-worker", "--job-type", "refunding", "--capacity", "60", "--threads", "30",
                            "--timeout", "1800ms"}),
              WorkerOptionsParser::Outcome::Run);
    EXPECT_DOUBLE_EQ(parser.options().settings.safeCapacity(), 180);
    EXPECT_DOUBLE_EQ(parser.options().settings.ceilingPerSecond(), 100);
}

// The testbed's programs read their command lines through one OptionReader: the same words
// for the same mistake, whichever program it is.
TEST(TestbedOptions, EveryProgramSaysWhichOptionWasWrongTheSameWay)
{
    ClusterOptionsParser cluster;
    EXPECT_EQ(cluster.parse({"chaoscope-cluster", "--config", "c.json", "--port", "70000"}),
              ClusterOptionsParser::Outcome::Invalid);
    EXPECT_EQ(cluster.errorText(), QStringLiteral("--port must be 0..65535, not '70000'"));
    EXPECT_EQ(cluster.parse({"chaoscope-cluster", "--config", "c.json", "--watch-history", "5"}),
              ClusterOptionsParser::Outcome::Invalid);
    EXPECT_EQ(cluster.errorText(), QStringLiteral("--watch-history must be 10..1000000, not '5'"));
    EXPECT_EQ(cluster.parse({"chaoscope-cluster", "--config", "c.json", "stray"}),
              ClusterOptionsParser::Outcome::Invalid);
    EXPECT_EQ(cluster.errorText(), QStringLiteral("unexpected argument 'stray'"));
    EXPECT_EQ(cluster.parse({"chaoscope-cluster", "--help"}), ClusterOptionsParser::Outcome::ShowHelp);
    ASSERT_EQ(cluster.parse({"chaoscope-cluster", "--config", "c.json", "--port", " 7443 "}),
              ClusterOptionsParser::Outcome::Run);
    EXPECT_EQ(cluster.options().port, 7443);
    EXPECT_TRUE(cluster.errorText().isEmpty()) << "a good line after a bad one leaves no word of the old";

    WorkerOptionsParser worker;
    EXPECT_EQ(worker.parse({"chaoscope-worker", "--job-type", "pay", "--port", "70000"}),
              WorkerOptionsParser::Outcome::Invalid);
    EXPECT_EQ(worker.errorText(), QStringLiteral("--port must be 0..65535, not '70000'"));
    ASSERT_EQ(worker.parse({"chaoscope-worker", "--job-type", "pay", "--bind", "localhost"}),
              WorkerOptionsParser::Outcome::Run);
    EXPECT_TRUE(worker.options().bind.isLoopback());
    EXPECT_EQ(worker.parse({"chaoscope-worker", "--job-type", "pay", "--bind", "somewhere"}),
              WorkerOptionsParser::Outcome::Invalid);
    EXPECT_EQ(worker.errorText(), QStringLiteral("--bind must be an IP address, not 'somewhere'"));
}
