// SPDX-License-Identifier: GPL-3.0-or-later
// A change to a workload: what is sent (the patch kubectl would send), what the workload should
// look like afterwards, and the words of the annotation that reads it back.
#include "kubernetes/workloadchange.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>

namespace {

Workload starter()
{
    Workload w;
    w.name = QStringLiteral("starter");
    w.desired = 1;
    Workload::Container c;
    c.name = QStringLiteral("starter");
    c.image = QStringLiteral("chaoscope/starter");
    c.env = {{QStringLiteral("RATE"), QStringLiteral("10")}};
    c.cpuLimit = QStringLiteral("500m");
    w.containers.push_back(c);
    return w;
}

QJsonObject json(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

} // namespace

TEST(WorkloadChange, AScaleIsAMergePatchOfTheScaleSubresource)
{
    const WorkloadChange scale = WorkloadChange::scale(QStringLiteral("starter"), 0);
    EXPECT_EQ(scale.subresource(), QStringLiteral("scale"));
    EXPECT_EQ(scale.contentType(), QByteArray("application/merge-patch+json"));
    EXPECT_EQ(json(scale.patchBody(starter())), json(R"({"spec": {"replicas": 0}})"));
    EXPECT_EQ(Workload::specChanges(starter(), scale.appliedTo(starter())), QStringList{"replicas 1 → 0"});
    EXPECT_EQ(WorkloadChange::scale(QStringLiteral("starter"), -2).problem(starter()),
              QStringLiteral("replicas must be 0 or more, not -2"));
}

TEST(WorkloadChange, EnvAndResourcesPatchTheContainerByName)
{
    WorkloadChange env;
    env.kind = WorkloadChange::Kind::SetEnv;
    env.workload = QStringLiteral("starter");
    env.env = {{QStringLiteral("RATE"), QStringLiteral("40")}};
    EXPECT_EQ(env.subresource(), QString());
    EXPECT_EQ(env.contentType(), QByteArray("application/strategic-merge-patch+json"));
    EXPECT_EQ(json(env.patchBody(starter())), json(R"({"spec": {"template": {"spec": {"containers": [
                         {"name": "starter", "env": [{"name": "RATE", "value": "40"}]}]}}}})"));
    EXPECT_EQ(Workload::specChanges(starter(), env.appliedTo(starter())), QStringList{"env RATE 10 → 40"});

    WorkloadChange resources;
    resources.kind = WorkloadChange::Kind::SetResources;
    resources.workload = QStringLiteral("starter");
    resources.limits = {{QStringLiteral("cpu"), QStringLiteral("250m")},
                        {QStringLiteral("memory"), QStringLiteral("1Gi")}};
    EXPECT_EQ(json(resources.patchBody(starter())), json(R"({"spec": {"template": {"spec": {"containers": [
                         {"name": "starter", "resources": {"limits": {"cpu": "250m", "memory": "1Gi"}}}]}}}})"));
    EXPECT_EQ(Workload::specChanges(starter(), resources.appliedTo(starter())),
              (QStringList{"cpu limit 500m → 250m", "memory limit none → 1Gi"}));
    EXPECT_EQ(resources.describe(), QStringLiteral("set starter limits cpu=250m memory=1Gi"));

    resources.container = QStringLiteral("sidecar");
    EXPECT_EQ(resources.problem(starter()), QStringLiteral("starter has no container \"sidecar\""));
}

TEST(WorkloadChange, ARestartStampsThePodTemplateAsKubectlDoes)
{
    const WorkloadChange restart =
        WorkloadChange::restart(QStringLiteral("starter"), QStringLiteral("2026-12-01T10:00:00Z"));
    EXPECT_EQ(json(restart.patchBody(starter())), json(R"({"spec": {"template": {"metadata": {"annotations":
                         {"kubectl.kubernetes.io/restartedAt": "2026-12-01T10:00:00Z"}}}}})"));
    EXPECT_EQ(Workload::specChanges(starter(), restart.appliedTo(starter())), QStringList{"rollout restart"});
}

TEST(WorkloadChange, QuantitiesAreThoseKubernetesReads)
{
    for (const char *good : {"500m", "1", "1.5", "256Mi", "1Gi", "2G", "100k", "1e3"})
        EXPECT_TRUE(WorkloadChange::isQuantity(QString::fromLatin1(good))) << good;
    for (const char *bad : {"", "half", "-1", "1 Gi", "1GB", ".5", "500 m"})
        EXPECT_FALSE(WorkloadChange::isQuantity(QString::fromLatin1(bad))) << bad;
}
