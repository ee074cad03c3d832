// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apiresources.h"
#include "apistatus.h"
#include "selectors.h"
#include "tables.h"
#include "tokenauthenticator.h"

#include <QByteArray>
#include <QString>
#include <QUrlQuery>
#include <variant>

class Kubelet;
class ObjectStore;
struct ClusterConfig;

struct ApiRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QByteArray contentType;
    QByteArray accept;
    QByteArray body;
    TokenAuthenticator::User user;
};

struct ApiResponse
{
    int status = 200;
    QByteArray contentType = "application/json";
    QByteArray body;
};

// What a watch asks for; the HTTP server streams it.
struct WatchRequest
{
    QString resource;
    QString ns; // empty: all namespaces
    LabelSelector labels;
    FieldSelector fields;
    bool initialState = false; // no resourceVersion (or 0): synthetic ADDED events first
    qint64 since = 0;
    bool table = false;
    Tables::IncludeObject include = Tables::IncludeObject::Metadata;
    int timeoutSeconds = 0; // 0 = until the client goes
};

// The Kubernetes REST API of the cluster, independent of any socket so that a test can call
// it: discovery, get/list of every resource, patch and update of Deployments and
// StatefulSets and their scale, delete of pods, pod logs; authorization per user; errors as
// the real API server's Status objects.
class KubeApi
{
public:
    KubeApi(ObjectStore &store, Kubelet &kubelet, const ClusterConfig &config);

    void setServerAddress(const QString &hostPort) { m_serverAddress = hostPort; }
    std::variant<ApiResponse, WatchRequest> handle(const ApiRequest &request);

    static ApiResponse respond(const ApiStatus &status);
    static ApiResponse respond(const QJsonObject &object, int status = 200);

private:
    struct Target
    {
        RequestInfo info;
        const ApiResource *resource = nullptr;
        QString verb;
    };
    std::variant<ApiResponse, WatchRequest> handleResource(const ApiRequest &request, const Target &target);
    ApiResponse get(const ApiRequest &request, const Target &target);
    std::variant<ApiResponse, WatchRequest> list(const ApiRequest &request, const Target &target);
    ApiResponse patch(const ApiRequest &request, const Target &target);
    ApiResponse update(const ApiRequest &request, const Target &target);
    ApiResponse remove(const ApiRequest &request, const Target &target);
    ApiResponse logs(const ApiRequest &request, const Target &target);
    // Stores `candidate` as the new state of `current` after validation; the answer.
    ApiResponse commit(const ApiRequest &request, const Target &target, const QJsonObject &current,
                       QJsonObject candidate);

    static bool wantsTable(const ApiRequest &request);
    static ResourceName nameOf(const Target &target);

    ObjectStore &m_store;
    Kubelet &m_kubelet;
    const ClusterConfig &m_config;
    QString m_serverAddress = QStringLiteral("127.0.0.1:6443");
};
