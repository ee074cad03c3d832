// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster's API without a socket (KubeApi over a real ObjectStore): the discovery kubectl
// reads, Tables for `kubectl get`, and every error as the real API server's Status object
// (404, 403, 409, 410, 415, 422), each of which leaves the objects as they were.
#include "clusterconfig.h"
#include "eventrecorder.h"
#include "kubeapi.h"
#include "kubejson.h"
#include "kubelet.h"
#include "manifests.h"
#include "objectstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <gtest/gtest.h>

namespace {

class ClusterApi : public ::testing::Test
{
protected:
    ClusterApi()
        : m_config(*ClusterConfig::parse(R"({"namespace": "chaos", "workloads": [
              {"name": "starter", "image": "chaoscope/starter", "replicas": 2, "env": {"RATE": "5"}}]})",
                                         &m_error)),
          m_store(20), m_events(m_store, m_config.node),
          m_kubelet(PodRunner::Environment{m_store, m_events, m_network, m_config.images, {}, {}, 1}),
          m_api(m_store, m_kubelet, m_config)
    {
        m_store.create(QStringLiteral("namespaces"), Manifests::namespaceObject(QStringLiteral("chaos")));
        m_store.create(QStringLiteral("deployments"), Manifests::workload(m_config.workloads.at(0), m_config));
    }

    ApiResponse call(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {},
                     const QByteArray &contentType = {}, const QString &user = QStringLiteral("admin"),
                     const QStringList &groups = {})
    {
        ApiRequest request;
        request.method = method;
        const qsizetype question = pathAndQuery.indexOf(QLatin1Char('?'));
        request.path = pathAndQuery.left(question);
        if (question >= 0)
            request.query = QUrlQuery(pathAndQuery.mid(question + 1));
        request.body = body;
        request.contentType = contentType;
        request.accept = "application/json";
        request.user = TokenAuthenticator::User{user, groups};
        const auto result = m_api.handle(request);
        EXPECT_TRUE(std::holds_alternative<ApiResponse>(result));
        return std::holds_alternative<ApiResponse>(result) ? std::get<ApiResponse>(result) : ApiResponse{};
    }

    static QJsonObject json(const ApiResponse &response) { return QJsonDocument::fromJson(response.body).object(); }

    QJsonObject deployment() const
    {
        return *m_store.get(QStringLiteral("deployments"), QStringLiteral("chaos"), QStringLiteral("starter"));
    }

    QString m_error;
    ClusterConfig m_config;
    ObjectStore m_store;
    EventRecorder m_events;
    QNetworkAccessManager m_network;
    Kubelet m_kubelet;
    KubeApi m_api;
};

void expectStatus(const QJsonObject &status, int code, const char *reason, const char *message)
{
    EXPECT_EQ(status.value(QStringLiteral("kind")).toString(), QStringLiteral("Status"));
    EXPECT_EQ(status.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("v1"));
    EXPECT_EQ(status.value(QStringLiteral("status")).toString(), QStringLiteral("Failure"));
    EXPECT_EQ(status.value(QStringLiteral("code")).toInt(), code);
    EXPECT_EQ(status.value(QStringLiteral("reason")).toString(), QLatin1String(reason));
    EXPECT_EQ(status.value(QStringLiteral("message")).toString(), QLatin1String(message));
}

} // namespace

TEST_F(ClusterApi, DiscoveryListsTheResourcesAndTheScaleSubresourceAsKubectlNeedsThem)
{
    EXPECT_EQ(json(call("GET", "/api")).value(QStringLiteral("versions")).toArray(), QJsonArray{"v1"});
    const QJsonArray groups = json(call("GET", "/apis")).value(QStringLiteral("groups")).toArray();
    ASSERT_EQ(groups.size(), 1);
    EXPECT_EQ(groups.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("apps"));
    bool scale = false;
    for (const QJsonValue &r : json(call("GET", "/apis/apps/v1")).value(QStringLiteral("resources")).toArray()) {
        const QJsonObject resource = r.toObject();
        if (resource.value(QStringLiteral("name")) == QLatin1String("deployments/scale")) {
            scale = true;
            EXPECT_EQ(resource.value(QStringLiteral("group")).toString(), QStringLiteral("autoscaling"));
            EXPECT_EQ(resource.value(QStringLiteral("kind")).toString(), QStringLiteral("Scale"));
        }
    }
    EXPECT_TRUE(scale);
    expectStatus(json(call("GET", "/apis/batch/v1")), 404, "NotFound",
                 "the server could not find the requested resource");
}

TEST_F(ClusterApi, GetAsTableHasTheColumnsOfTheRealPrinters)
{
    ApiRequest request;
    request.method = "GET";
    request.path = QStringLiteral("/apis/apps/v1/namespaces/chaos/deployments");
    request.accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    request.user = TokenAuthenticator::User{QStringLiteral("admin"), {}};
    const QJsonObject table = QJsonDocument::fromJson(std::get<ApiResponse>(m_api.handle(request)).body).object();
    EXPECT_EQ(table.value(QStringLiteral("kind")).toString(), QStringLiteral("Table"));
    QStringList names;
    for (const QJsonValue &column : table.value(QStringLiteral("columnDefinitions")).toArray())
        if (column.toObject().value(QStringLiteral("priority")).toInt() == 0)
            names << column.toObject().value(QStringLiteral("name")).toString();
    EXPECT_EQ(names, (QStringList{"Name", "Ready", "Up-to-date", "Available", "Age"}));
    const QJsonArray cells =
        table.value(QStringLiteral("rows")).toArray().at(0).toObject().value(QStringLiteral("cells")).toArray();
    EXPECT_EQ(cells.at(0).toString(), QStringLiteral("starter"));
    EXPECT_EQ(cells.at(1).toString(), QStringLiteral("0/2"));
    EXPECT_EQ(table.value(QStringLiteral("rows"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("object"))
                  .toObject()
                  .value(QStringLiteral("kind"))
                  .toString(),
              QStringLiteral("PartialObjectMetadata"));
}

TEST_F(ClusterApi, ErrorsAreStatusObjectsAndChangeNothing)
{
    const QJsonObject before = deployment();
    expectStatus(json(call("GET", "/apis/apps/v1/namespaces/chaos/deployments/nope")), 404, "NotFound",
                 "deployments.apps \"nope\" not found");
    expectStatus(json(call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter/scale",
                           R"({"spec":{"replicas":3}})", "application/merge-patch+json", "viewer", {"view"})),
                 403, "Forbidden",
                 "deployments.apps \"starter\" is forbidden: User \"viewer\" cannot patch resource "
                 "\"deployments/scale\" in API group \"apps\" in the namespace \"chaos\"");
    expectStatus(
        json(call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter",
                  R"({"metadata":{"resourceVersion":"1"},"spec":{"replicas":3}})", "application/merge-patch+json")),
        409, "Conflict",
        "Operation cannot be fulfilled on deployments.apps \"starter\": the object has "
        "been modified; "
        "please apply your changes to the latest version and try again");
    const ApiResponse invalid = call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter/scale",
                                     R"({"spec":{"replicas":-1}})", "application/merge-patch+json");
    expectStatus(json(invalid), 422, "Invalid",
                 "Scale.autoscaling \"starter\" is invalid: spec.replicas: Invalid value: -1: must "
                 "be greater "
                 "than or equal to 0");
    EXPECT_EQ(json(invalid)
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("causes"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("field"))
                  .toString(),
              QStringLiteral("spec.replicas"));
    EXPECT_EQ(call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter", R"({"spec":{}})", "application/json")
                  .status,
              415);
    EXPECT_EQ(
        call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter", "{not json", "application/merge-patch+json")
            .status,
        400);
    EXPECT_EQ(call("POST", "/apis/apps/v1/namespaces/chaos/deployments", "{}", "application/json").status, 403);
    EXPECT_EQ(call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter?dryRun=All",
                   R"({"spec":{"replicas":4}})", "application/merge-patch+json")
                  .status,
              200);
    EXPECT_EQ(deployment(), before) << "no error, and no dry run, changed the deployment";
}

TEST_F(ClusterApi, AScaleChangesTheReplicasAndTheGenerationOnlyOnce)
{
    const ApiResponse first = call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter/scale",
                                   R"({"spec":{"replicas":3}})", "application/merge-patch+json");
    ASSERT_EQ(first.status, 200) << first.body.toStdString();
    EXPECT_EQ(json(first).value(QStringLiteral("kind")).toString(), QStringLiteral("Scale"));
    EXPECT_EQ(KubeJson::at(deployment(), QStringLiteral("spec.replicas")).toInt(), 3);
    EXPECT_EQ(KubeJson::at(deployment(), QStringLiteral("metadata.generation")).toInt(), 2);
    const QString version = KubeJson::at(deployment(), QStringLiteral("metadata.resourceVersion")).toString();
    call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter/scale", R"({"spec":{"replicas":3}})",
         "application/merge-patch+json");
    EXPECT_EQ(KubeJson::at(deployment(), QStringLiteral("metadata.resourceVersion")).toString(), version)
        << "the same scale again is no change";
}

TEST_F(ClusterApi, AWatchFromAVersionNoLongerKeptIsGone)
{
    for (int i = 0; i < 30; ++i) // more changes than the history of 20 holds
        call("PATCH", "/apis/apps/v1/namespaces/chaos/deployments/starter/scale",
             QStringLiteral(R"({"spec":{"replicas":%1}})").arg(i % 3 + 1).toUtf8(), "application/merge-patch+json");
    ApiRequest request;
    request.method = "GET";
    request.path = QStringLiteral("/apis/apps/v1/namespaces/chaos/deployments");
    request.query = QUrlQuery(QStringLiteral("watch=1&resourceVersion=2"));
    request.user = TokenAuthenticator::User{QStringLiteral("admin"), {}};
    const auto result = m_api.handle(request);
    ASSERT_TRUE(std::holds_alternative<ApiResponse>(result));
    const QJsonObject status = QJsonDocument::fromJson(std::get<ApiResponse>(result).body).object();
    EXPECT_EQ(status.value(QStringLiteral("code")).toInt(), 410);
    EXPECT_EQ(status.value(QStringLiteral("reason")).toString(), QStringLiteral("Expired"));
    EXPECT_TRUE(
        status.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("too old resource version: 2 (")));
    request.query = QUrlQuery(QStringLiteral("watch=1&resourceVersion=%1").arg(m_store.resourceVersion()));
    EXPECT_TRUE(std::holds_alternative<WatchRequest>(m_api.handle(request))) << "a recent version is fine";
}
