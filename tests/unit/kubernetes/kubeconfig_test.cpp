// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a kubeconfig as kubectl does: the current or a chosen context, its cluster's server
// and CA, the user's token, token file, client certificate or exec plugin, the namespace,
// several files merged with the first winning, paths relative to their file; and messages
// that name the file and what is wrong, never a secret.
#include "kubernetes/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

const QByteArray kConfig = R"(apiVersion: v1
kind: Config
current-context: chaos
clusters:
- name: testbed
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCmZha2UKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
- name: prod
  cluster:
    server: "https://k8s.example.internal"
    certificate-authority: certs/ca.pem
contexts:
- name: chaos
  context: {cluster: testbed, user: admin, namespace: c8-chaos}
- name: prod
  context:
    cluster: prod
    user: gke
users:
- name: admin
  user:
    token: s3cr3t-t0ken
- name: gke
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: gke-gcloud-auth-plugin
      args: ["--verbosity", "0"]
      env:
      - name: CLOUDSDK_CORE_PROJECT
        value: chaos
)";

KubeConfig::Request request(const QString &context = {}, const QString &ns = {})
{
    return {{}, context, ns};
}

} // namespace

TEST(KubeConfig, TheCurrentContextGivesServerCaTokenAndNamespace)
{
    const Result<KubeTarget> target =
        KubeConfig::resolveText(kConfig, QStringLiteral("/home/me/.kube/config"), request());
    ASSERT_TRUE(target.ok()) << target.error().message.toStdString();
    EXPECT_EQ(target->context, QStringLiteral("chaos"));
    EXPECT_EQ(target->server, QUrl(QStringLiteral("https://127.0.0.1:6443")));
    EXPECT_TRUE(target->caPem.startsWith("-----BEGIN CERTIFICATE-----"));
    EXPECT_EQ(target->token, QStringLiteral("s3cr3t-t0ken"));
    EXPECT_EQ(target->namespaceName, QStringLiteral("c8-chaos"));
    EXPECT_FALSE(target->credentialOrigin().contains(QStringLiteral("s3cr3t"))) << "the origin, never the value";
    EXPECT_EQ(target->credentialOrigin(), QStringLiteral("user \"admin\" of /home/me/.kube/config (a bearer token)"));
}

TEST(KubeConfig, AChosenContextAndNamespaceWin)
{
    QTemporaryDir dir;
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("certs")));
    QFile ca(dir.filePath(QStringLiteral("certs/ca.pem")));
    ASSERT_TRUE(ca.open(QIODevice::WriteOnly));
    ca.write("-----BEGIN CERTIFICATE-----\nprod\n-----END CERTIFICATE-----\n");
    ca.close();
    const QString file = dir.filePath(QStringLiteral("config"));
    const Result<KubeTarget> target =
        KubeConfig::resolveText(kConfig, file, request(QStringLiteral("prod"), QStringLiteral("team-a")));
    ASSERT_TRUE(target.ok()) << target.error().message.toStdString();
    EXPECT_EQ(target->server.host(), QStringLiteral("k8s.example.internal"));
    EXPECT_TRUE(target->caPem.contains("prod")) << "certificate-authority relative to the kubeconfig's folder";
    EXPECT_EQ(target->namespaceName, QStringLiteral("team-a"));
    ASSERT_TRUE(target->exec.has_value());
    EXPECT_EQ(target->exec->command, QStringLiteral("gke-gcloud-auth-plugin"));
    EXPECT_EQ(target->exec->args, QStringList({QStringLiteral("--verbosity"), QStringLiteral("0")}));
    ASSERT_EQ(target->exec->env.size(), 1);
    EXPECT_EQ(target->exec->env.front().first, QStringLiteral("CLOUDSDK_CORE_PROJECT"));
    EXPECT_EQ(target->exec->apiVersion, QStringLiteral("client.authentication.k8s.io/v1beta1"));
    EXPECT_TRUE(target->credentialOrigin().contains(QStringLiteral("the credential plugin gke-gcloud-auth-plugin")));
}

TEST(KubeConfig, WithoutANamespaceItIsDefault)
{
    const Result<KubeTarget> target =
        KubeConfig::resolveText(kConfig, QStringLiteral("/tmp/x"), request(QStringLiteral("prod")));
    // The CA file is missing there: the message names it and the kubeconfig.
    ASSERT_FALSE(target.ok());
    EXPECT_TRUE(target.error().message.contains(QStringLiteral("/tmp/certs/ca.pem")))
        << target.error().message.toStdString();
    EXPECT_TRUE(target.error().message.contains(QStringLiteral("named in /tmp/x")));

    const QByteArray plain = R"(current-context: a
clusters: [{name: c, cluster: {server: "http://127.0.0.1:8080"}}]
contexts: [{name: a, context: {cluster: c}}]
)";
    const Result<KubeTarget> anonymous = KubeConfig::resolveText(plain, QStringLiteral("/tmp/y"), request());
    ASSERT_TRUE(anonymous.ok()) << anonymous.error().message.toStdString();
    EXPECT_EQ(anonymous->namespaceName, QStringLiteral("default"));
    EXPECT_FALSE(anonymous->hasCredential());
}

TEST(KubeConfig, MistakesAreNamedWithTheirFileAndNeverShowASecret)
{
    const auto messageOf = [](const QByteArray &text, const KubeConfig::Request &r = {}) {
        const Result<KubeTarget> target = KubeConfig::resolveText(text, QStringLiteral("/home/me/.kube/config"), r);
        EXPECT_FALSE(target.ok());
        return target.ok() ? QString() : target.error().message;
    };
    EXPECT_EQ(messageOf(kConfig, request(QStringLiteral("staging"))),
              QStringLiteral("the context \"staging\" is not in /home/me/.kube/config (it has: chaos, prod)"));
    const QString broken = messageOf("clusters: [unclosed\n  token: s3cr3t-t0ken\n");
    EXPECT_TRUE(broken.startsWith(QStringLiteral("/home/me/.kube/config is not a kubeconfig: line ")))
        << broken.toStdString();
    EXPECT_FALSE(broken.contains(QStringLiteral("s3cr3t")));
    EXPECT_TRUE(messageOf("- a list\n").contains(QStringLiteral("not a mapping")));
    EXPECT_TRUE(
        messageOf("contexts: [{name: a, context: {cluster: c}}]\n").contains(QStringLiteral("no current-context")));
    EXPECT_EQ(messageOf("current-context: a\ncontexts: [{name: a, context: {cluster: c, user: u}}]\n"),
              QStringLiteral("the context \"a\" in /home/me/.kube/config names the cluster \"c\", which is not there"));
    EXPECT_TRUE(messageOf("current-context: a\nclusters: [{name: c, cluster: {server: \"ftp://x\"}}]\n"
                          "contexts: [{name: a, context: {cluster: c}}]\n")
                    .contains(QStringLiteral("no usable server URL")));
    EXPECT_TRUE(messageOf("current-context: a\nclusters: [{name: c, cluster: {server: \"https://x\"}}]\n"
                          "contexts: [{name: a, context: {cluster: c, user: u}}]\n"
                          "users: [{name: u, user: {username: me, password: s3cr3t-t0ken}}]\n")
                    .contains(QStringLiteral("user name and password")));
}

TEST(KubeConfig, FilesInKubeconfigAreMergedAndTheFirstWins)
{
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("a.yaml"));
    const QString second = dir.filePath(QStringLiteral("b.yaml"));
    const auto write = [](const QString &path, const QByteArray &text) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    };
    write(first, "contexts: [{name: x, context: {cluster: one, user: u, namespace: first}}]\n"
                 "clusters: [{name: one, cluster: {server: \"https://first:1\"}}]\n"
                 "users: [{name: u, user: {tokenFile: token}}]\n");
    write(second, "current-context: x\n"
                  "contexts: [{name: x, context: {cluster: two, namespace: second}}]\n"
                  "clusters: [{name: one, cluster: {server: \"https://second:2\"}}]\n");
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("KUBECONFIG"), first + QStringLiteral("::") + second + QStringLiteral(":") +
                                                         dir.filePath(QStringLiteral("gone")));
    EXPECT_EQ(KubeConfig::defaultFiles(environment),
              QStringList({first, second, dir.filePath(QStringLiteral("gone"))}));
    const Result<KubeTarget> target = KubeConfig::resolve({}, environment);
    ASSERT_TRUE(target.ok()) << target.error().message.toStdString();
    EXPECT_EQ(target->server.host(), QStringLiteral("first")) << "the first file's context and cluster";
    EXPECT_EQ(target->namespaceName, QStringLiteral("first"));
    EXPECT_EQ(target->tokenFile, dir.filePath(QStringLiteral("token"))) << "relative to its file";

    QProcessEnvironment home;
    home.insert(QStringLiteral("HOME"), QStringLiteral("/home/me"));
    EXPECT_EQ(KubeConfig::defaultFiles(home), QStringList({QStringLiteral("/home/me/.kube/config")}));
    const Result<KubeTarget> none = KubeConfig::resolve({{dir.filePath(QStringLiteral("gone"))}, {}, {}}, home);
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(none.error().message.contains(QStringLiteral("cannot read the kubeconfig")));
}
