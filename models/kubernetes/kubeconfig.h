// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <optional>

class QProcessEnvironment;

// A credential plugin a kubeconfig names (users[].user.exec), as gke-gcloud-auth-plugin or
// `aws eks get-token` are used: a command whose standard output is an ExecCredential.
struct ExecPlugin
{
    QString command;
    QStringList args;
    QList<QPair<QString, QString>> env;
    QString apiVersion; // client.authentication.k8s.io/v1 or v1beta1
    QString folder;     // the kubeconfig's folder: a relative command is found from here
};

// Where a cluster is and how to prove who we are, resolved from a kubeconfig for one context,
// as kubectl resolves it. The secrets (a token, a client key) live here in memory only; every
// message says where a credential came from (credentialOrigin), never its value.
struct KubeTarget
{
    QString context;
    QString cluster;
    QString user;
    QUrl server;
    QByteArray caPem;                // certificate-authority(-data); empty: the system's CAs
    bool insecureSkipVerify = false; // insecure-skip-tls-verify: true
    QString namespaceName = QStringLiteral("default");

    QString token;     // users[].user.token
    QString tokenFile; // users[].user.tokenFile: read again before each use, as kubectl does
    QByteArray clientCertificatePem;
    QByteArray clientKeyPem;
    std::optional<ExecPlugin> exec;

    QString configFile; // the file the context came from

    // "user \"admin\" of /home/me/.kube/config (a bearer token)": for messages.
    QString credentialOrigin() const;
    bool hasCredential() const;
};

namespace KubeConfig {

// What the user asked for: the files (empty: $KUBECONFIG, else ~/.kube/config), a context
// (empty: current-context) and a namespace (empty: the context's, else "default").
struct Request
{
    QStringList files;
    QString context;
    QString namespaceName;
};

// The files kubectl would read: $KUBECONFIG split at ':' (empty parts skipped), else
// ~/.kube/config.
QStringList defaultFiles(const QProcessEnvironment &environment);

// Reads and merges the files as kubectl does (the first file to name a context, cluster or
// user wins; current-context from the first file that sets one) and resolves the context.
// An error names the file and what is missing or wrong: "the context \"prod\" is not in
// /home/me/.kube/config (it has: kind-chaos, minikube)".
Result<KubeTarget> resolve(const Request &request, const QProcessEnvironment &environment);

// One file's text, for tests and for the reader above; `fileName` is used in messages and to
// find relative paths.
Result<KubeTarget> resolveText(const QByteArray &text, const QString &fileName, const Request &request);

} // namespace KubeConfig
