// SPDX-License-Identifier: GPL-3.0-or-later
// A workload read from its API object, what a change to its spec says in words, when it has
// rolled out, and which scales ask first; and a credential plugin's answer read as kubectl
// reads it.
#include "kubernetes/clustercontroller.h"
#include "kubernetes/clusterseries.h"
#include "kubernetes/execcredential.h"
#include "kubernetes/workload.h"
#include "kubernetes/workloadtablemodel.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <gtest/gtest.h>

namespace {

Workload parse(const QByteArray &json, Workload::Kind kind = Workload::Kind::Deployment)
{
    const Result<Workload> w = Workload::fromJson(QJsonDocument::fromJson(json).object(), kind);
    EXPECT_TRUE(w.ok());
    return w.ok() ? w.value() : Workload{};
}

const QByteArray kStarter = R"({"metadata": {"name": "starter", "resourceVersion": "41", "generation": 3},
  "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "starter", "image": "chaoscope/starter:1",
    "env": [{"name": "RATE", "value": "10"}, {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
    "resources": {"limits": {"cpu": "500m", "memory": "256Mi"}, "requests": {"cpu": "250m"}}}]}}},
  "status": {"observedGeneration": 3, "readyReplicas": 3, "updatedReplicas": 3}})";

} // namespace

TEST(Workload, ReadsReplicasContainersAndRollout)
{
    const Workload w = parse(kStarter);
    EXPECT_EQ(w.key(), QStringLiteral("deployments/starter"));
    EXPECT_EQ(w.desired, 3);
    EXPECT_EQ(w.ready, 3);
    EXPECT_TRUE(w.isRolledOut());
    ASSERT_EQ(w.containers.size(), 1u);
    EXPECT_EQ(w.containers.front().cpuLimit, QStringLiteral("500m"));
    EXPECT_EQ(w.containers.front().cpuRequest, QStringLiteral("250m"));
    EXPECT_TRUE(w.containers.front().memoryRequest.isEmpty());
    EXPECT_EQ(w.containers.front().env, (QMap<QString, QString>{{QStringLiteral("RATE"), QStringLiteral("10")}}))
        << "a valueFrom is not a value";

    Workload rolling = w;
    rolling.generation = 4; // the controller has not seen the change yet
    EXPECT_FALSE(rolling.isRolledOut());
    rolling.observedGeneration = 4;
    rolling.ready = 2;
    EXPECT_FALSE(rolling.isRolledOut());
    // The new pods ready, but an old one not gone yet: a surge pod is not the end.
    rolling.ready = 3;
    rolling.current = 4;
    EXPECT_FALSE(rolling.isRolledOut());
    rolling.current = 3;
    EXPECT_TRUE(rolling.isRolledOut());

    EXPECT_FALSE(Workload::fromJson(QJsonObject{}, Workload::Kind::StatefulSet).ok());
    EXPECT_EQ(parse(kStarter, Workload::Kind::StatefulSet).key(), QStringLiteral("statefulsets/starter"));
}

TEST(Workload, SpecChangesAreSaidInWords)
{
    const Workload before = parse(kStarter);
    Workload after = before;
    after.desired = 5;
    after.containers.front().cpuLimit = QStringLiteral("1");
    after.containers.front().image = QStringLiteral("chaoscope/starter:2");
    after.containers.front().env[QStringLiteral("RATE")] = QStringLiteral("20");
    after.containers.front().env[QStringLiteral("TARGET")] = QStringLiteral("http://engine");
    EXPECT_EQ(Workload::specChanges(before, after),
              QStringList({QStringLiteral("replicas 3 → 5"),
                           QStringLiteral("image chaoscope/starter:1 → chaoscope/starter:2"),
                           QStringLiteral("cpu limit 500m → 1"), QStringLiteral("env RATE 10 → 20"),
                           QStringLiteral("env TARGET none → http://engine")}));

    Workload statusOnly = before;
    statusOnly.ready = 1;
    statusOnly.resourceVersion = QStringLiteral("42");
    EXPECT_TRUE(Workload::specChanges(before, statusOnly).isEmpty()) << "a status change is not a spec change";

    Workload two = before;
    two.containers.push_back(two.containers.front());
    two.containers.back().name = QStringLiteral("sidecar");
    Workload twoAfter = two;
    twoAfter.containers.back().memoryLimit = QStringLiteral("1Gi");
    EXPECT_EQ(Workload::specChanges(two, twoAfter), QStringList({QStringLiteral("sidecar memory limit 256Mi → 1Gi")}));
}

TEST(Workload, ScalingToZeroOrByMoreThanTwiceAsksFirst)
{
    EXPECT_TRUE(ClusterController::needsConfirmation(3, 0));
    EXPECT_TRUE(ClusterController::needsConfirmation(2, 5));
    EXPECT_TRUE(ClusterController::needsConfirmation(10, 4));
    EXPECT_FALSE(ClusterController::needsConfirmation(2, 4));
    EXPECT_FALSE(ClusterController::needsConfirmation(4, 2));
    EXPECT_FALSE(ClusterController::needsConfirmation(0, 1));
    EXPECT_TRUE(ClusterController::needsConfirmation(0, 5));
}

TEST(ExecCredentialTest, ReadsTokenCertificateAndExpiry)
{
    const Result<ExecCredential> token = ExecCredential::parse(
        R"({"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
            "status": {"token": "ya29.secret", "expirationTimestamp": "2026-12-01T12:00:00Z"}})",
        QStringLiteral("gke-gcloud-auth-plugin"));
    ASSERT_TRUE(token.ok()) << token.error().message.toStdString();
    EXPECT_EQ(token->token, QStringLiteral("ya29.secret"));
    ASSERT_TRUE(token->expiresAtMs.has_value());
    const qint64 expiry = *token->expiresAtMs;
    EXPECT_FALSE(token->isStale(expiry - 61'000));
    EXPECT_TRUE(token->isStale(expiry - 59'000)) << "asked again a minute before it expires";

    const Result<ExecCredential> certificate = ExecCredential::parse(
        R"({"kind": "ExecCredential", "status": {"clientCertificateData": "-----BEGIN CERTIFICATE-----",
            "clientKeyData": "-----BEGIN PRIVATE KEY-----"}})",
        QStringLiteral("kubelogin"));
    ASSERT_TRUE(certificate.ok());
    EXPECT_FALSE(certificate->expiresAtMs.has_value());
    EXPECT_FALSE(certificate->isStale(0));
}

TEST(ExecCredentialTest, AnythingElseIsNamedWithoutTheOutput)
{
    const auto message = [](const QByteArray &output) {
        const Result<ExecCredential> parsed = ExecCredential::parse(output, QStringLiteral("aws"));
        EXPECT_FALSE(parsed.ok());
        return parsed.ok() ? QString() : parsed.error().message;
    };
    EXPECT_EQ(message("token: ya29.secret"),
              QStringLiteral("the credential plugin aws printed something that is not JSON, not an ExecCredential"));
    EXPECT_TRUE(
        message(R"({"kind": "Status", "token": "ya29.secret"})").contains(QStringLiteral("of kind \"Status\"")));
    EXPECT_FALSE(message(R"({"kind": "Status", "token": "ya29.secret"})").contains(QStringLiteral("ya29")));
    EXPECT_TRUE(message(R"({"kind": "ExecCredential", "status": {}})").contains(QStringLiteral("neither a token")));
    EXPECT_TRUE(message(R"({"kind": "ExecCredential", "status": {"token": "t", "expirationTimestamp": "soon"}})")
                    .contains(QStringLiteral("not RFC 3339")));
}

TEST(Workload, ItsPodsAreThoseItsSelectorMatchesAndAnEmptySelectorMatchesNone)
{
    const Workload w = parse(R"({"metadata": {"name": "worker"},
      "spec": {"selector": {"matchLabels": {"app": "worker", "tier": "jobs"}}, "template": {"spec": {"containers": []}}}})");
    EXPECT_TRUE(w.selects(QJsonObject{{"app", "worker"}, {"tier", "jobs"}, {"pod-template-hash", "7d9f"}}));
    EXPECT_FALSE(w.selects(QJsonObject{{"app", "worker"}})) << "every label of the selector must match";
    EXPECT_FALSE(w.selects(QJsonObject{{"app", "worker-2"}, {"tier", "jobs"}}));
    EXPECT_FALSE(parse(kStarter).selects(QJsonObject{{"app", "starter"}})) << "no selector: no pods";
}

TEST(Workload, TheReadinessLightIsReadyRollingDownOrStopped)
{
    using Light = WorkloadTableModel::Light;
    Workload w = parse(kStarter);
    EXPECT_EQ(WorkloadTableModel::lightOf(w), Light::Ready);
    w.ready = 2;
    EXPECT_EQ(WorkloadTableModel::lightOf(w), Light::Progressing);
    w.ready = 0;
    EXPECT_EQ(WorkloadTableModel::lightOf(w), Light::Down);
    w.desired = 0;
    EXPECT_EQ(WorkloadTableModel::lightOf(w), Light::Stopped);
}

TEST(Workload, AKnobIsRecordedWhereItsValueIsANumber)
{
    Workload w = parse(kStarter);
    EXPECT_EQ(ClusterSeriesRecorder::knobValue(w, QStringLiteral("RATE")), 10.0);
    w.containers.front().env.insert(QStringLiteral("TIMEOUT"), QStringLiteral("1800ms"));
    w.containers.front().env.insert(QStringLiteral("SHARE"), QStringLiteral(" 0.5 "));
    EXPECT_FALSE(ClusterSeriesRecorder::knobValue(w, QStringLiteral("TIMEOUT")).has_value());
    EXPECT_EQ(ClusterSeriesRecorder::knobValue(w, QStringLiteral("SHARE")), 0.5);
    EXPECT_FALSE(ClusterSeriesRecorder::knobValue(w, QStringLiteral("POD")).has_value()) << "valueFrom: no value";
    EXPECT_FALSE(ClusterSeriesRecorder::knobValue(w, QStringLiteral("MISSING")).has_value());
}
