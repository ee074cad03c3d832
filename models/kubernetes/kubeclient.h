// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"
#include "kubernetes/kubeconfig.h"
#include "net/httpexchange.h"

#include <QFuture>
#include <QJsonObject>
#include <QObject>
#include <functional>

class KubeAuth;
class QNetworkAccessManager;

// Talks to one cluster's API server as the resolved kubeconfig says: its server and CA, the
// user's credential (KubeAuth), JSON in and out. Answers are the objects, or errors in the API
// server's own words: "403 Forbidden: deployments.apps \"worker\" is forbidden: User \"viewer\"
// cannot patch resource \"deployments/scale\" …" from its Status object. A 401 from a
// credential plugin's token runs the plugin again and asks once more. All network work is
// Qt's asynchronous networking; nothing blocks the thread that owns the client.
class KubeClient : public QObject
{
    Q_OBJECT
public:
    explicit KubeClient(KubeTarget target, QObject *parent = nullptr);

    const KubeTarget &target() const { return m_target; }
    // Paths made from now on are in this namespace (the credential and server stay).
    void setNamespace(const QString &namespaceName) { m_target.namespaceName = namespaceName; }
    // "cluster \"testbed\" at https://127.0.0.1:6443, namespace c8-chaos"
    QString describe() const;
    // The path of a namespaced resource: apps/v1 deployments → /apis/apps/v1/namespaces/<ns>/deployments
    QString path(const QString &groupVersion, const QString &resource, const QString &name = {},
                 const QString &subresource = {}) const;

    QFuture<Result<QJsonObject>> request(const QByteArray &method, const QString &pathAndQuery,
                                         const QByteArray &body = {}, const QByteArray &contentType = {});
    // A watch: each line of the stream is handed to onEvent as it arrives ({"type", "object"}).
    // The future ends when the server ends the stream (its timeout) or it breaks, with the
    // answer or the error; cancelling it ends the watch.
    QFuture<Result<HttpAnswer>> watch(const QString &pathAndQuery, std::function<void(const QJsonObject &)> onEvent);

    // The words for an answer that is not a success: the Status object's code, reason and
    // message, else the HTTP status and a snippet of the body.
    static Error errorOf(const HttpAnswer &answer);

private:
    void send(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body,
              const QByteArray &contentType, const std::function<void(const QByteArray &)> &onPiece, bool retried,
              const std::shared_ptr<QPromise<Result<HttpAnswer>>> &promise);

    KubeTarget m_target;
    KubeAuth *m_auth;
    QNetworkAccessManager *m_network;
};
