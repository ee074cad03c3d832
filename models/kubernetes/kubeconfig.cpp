// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcessEnvironment>
#include <yaml-cpp/yaml.h>

namespace {

struct NamedContext
{
    QString cluster;
    QString user;
    QString namespaceName;
    QString file;
};
struct NamedCluster
{
    QUrl server;
    QByteArray caPem;
    QString caFile;
    bool insecureSkipVerify = false;
    QString file;
};
struct NamedUser
{
    KubeTarget credentials; // only the credential fields are used
    QString clientCertificateFile;
    QString clientKeyFile;
    QString unsupported; // "auth-provider", "username/password": said when chosen
    QString file;
};

// All files merged: the first to name something wins, as in kubectl.
struct Merged
{
    QString currentContext;
    QHash<QString, NamedContext> contexts;
    QStringList contextOrder;
    QHash<QString, NamedCluster> clusters;
    QHash<QString, NamedUser> users;
};

QString text(const YAML::Node &node, const char *key)
{
    const YAML::Node value = node[key];
    if (!value || !value.IsScalar())
        return {};
    return QString::fromStdString(value.as<std::string>());
}

// A relative path in a kubeconfig is relative to the file's folder.
QString pathFrom(const QString &file, const QString &path)
{
    if (path.isEmpty() || QDir::isAbsolutePath(path))
        return path;
    return QFileInfo(file).absoluteDir().filePath(path);
}

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

std::optional<Error> mergeFile(const QByteArray &bytes, const QString &file, Merged &merged)
{
    YAML::Node root;
    try {
        root = YAML::Load(bytes.toStdString());
    } catch (const YAML::Exception &e) {
        return invalid(QStringLiteral("%1 is not a kubeconfig: line %2, column %3: %4")
                           .arg(file)
                           .arg(e.mark.line + 1)
                           .arg(e.mark.column + 1)
                           .arg(QString::fromStdString(e.msg)));
    }
    if (root.IsNull())
        return std::nullopt; // an empty file is allowed, as kubectl allows it
    if (!root.IsMap())
        return invalid(
            QStringLiteral("%1 is not a kubeconfig: it is not a mapping of clusters, users and contexts").arg(file));
    try {
        if (merged.currentContext.isEmpty())
            merged.currentContext = text(root, "current-context");
        for (const YAML::Node &entry : root["contexts"]) {
            const QString name = text(entry, "name");
            if (name.isEmpty() || merged.contexts.contains(name))
                continue;
            const YAML::Node context = entry["context"];
            merged.contexts.insert(name,
                                   {text(context, "cluster"), text(context, "user"), text(context, "namespace"), file});
            merged.contextOrder << name;
        }
        for (const YAML::Node &entry : root["clusters"]) {
            const QString name = text(entry, "name");
            if (name.isEmpty() || merged.clusters.contains(name))
                continue;
            const YAML::Node cluster = entry["cluster"];
            NamedCluster named;
            named.server = QUrl(text(cluster, "server"));
            named.caPem = QByteArray::fromBase64(text(cluster, "certificate-authority-data").toLatin1());
            named.caFile = pathFrom(file, text(cluster, "certificate-authority"));
            named.insecureSkipVerify = text(cluster, "insecure-skip-tls-verify") == QLatin1String("true");
            named.file = file;
            merged.clusters.insert(name, named);
        }
        for (const YAML::Node &entry : root["users"]) {
            const QString name = text(entry, "name");
            if (name.isEmpty() || merged.users.contains(name))
                continue;
            const YAML::Node user = entry["user"];
            NamedUser named;
            named.file = file;
            named.credentials.token = text(user, "token");
            named.credentials.tokenFile = pathFrom(file, text(user, "tokenFile"));
            named.credentials.clientCertificatePem =
                QByteArray::fromBase64(text(user, "client-certificate-data").toLatin1());
            named.credentials.clientKeyPem = QByteArray::fromBase64(text(user, "client-key-data").toLatin1());
            named.clientCertificateFile = pathFrom(file, text(user, "client-certificate"));
            named.clientKeyFile = pathFrom(file, text(user, "client-key"));
            if (const YAML::Node exec = user["exec"]; exec && exec.IsMap()) {
                ExecPlugin plugin;
                plugin.command = text(exec, "command");
                plugin.apiVersion = text(exec, "apiVersion");
                plugin.folder = QFileInfo(file).absolutePath();
                for (const YAML::Node &arg : exec["args"])
                    plugin.args << QString::fromStdString(arg.as<std::string>());
                for (const YAML::Node &variable : exec["env"])
                    plugin.env.append({text(variable, "name"), text(variable, "value")});
                named.credentials.exec = plugin;
            }
            if (user["auth-provider"])
                named.unsupported = QStringLiteral("an auth-provider (removed from kubectl; use its exec plugin)");
            else if (user["username"] || user["password"])
                named.unsupported = QStringLiteral("a user name and password (not accepted by Kubernetes since 1.19)");
            merged.users.insert(name, named);
        }
    } catch (const YAML::Exception &e) {
        return invalid(QStringLiteral("%1 is not a kubeconfig: line %2: %3")
                           .arg(file)
                           .arg(e.mark.line + 1)
                           .arg(QString::fromStdString(e.msg)));
    }
    return std::nullopt;
}

// Reads a PEM file a kubeconfig names into `into`; nothing named: `into` is kept (the
// inline *-data value, or empty). The error names the file and the kubeconfig.
std::optional<Error> readNamedFile(QByteArray &into, const QString &path, const QString &what, const QString &from)
{
    if (path.isEmpty())
        return std::nullopt;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("cannot read %1 %2 named in %3: %4").arg(what, path, from, file.errorString()));
    into = file.readAll();
    return std::nullopt;
}

Result<KubeTarget> resolveMerged(const Merged &merged, const QStringList &files, const KubeConfig::Request &request)
{
    const QString where = files.join(QStringLiteral(", "));
    const QString contextName = request.context.isEmpty() ? merged.currentContext : request.context;
    if (contextName.isEmpty())
        return invalid(QStringLiteral("%1 sets no current-context; choose one with --kube-context (it has: %2)")
                           .arg(where, merged.contextOrder.isEmpty() ? QStringLiteral("no contexts")
                                                                     : merged.contextOrder.join(QStringLiteral(", "))));
    const auto context = merged.contexts.constFind(contextName);
    if (context == merged.contexts.cend())
        return invalid(QStringLiteral("the context \"%1\" is not in %2 (it has: %3)")
                           .arg(contextName, where,
                                merged.contextOrder.isEmpty() ? QStringLiteral("no contexts")
                                                              : merged.contextOrder.join(QStringLiteral(", "))));
    const auto cluster = merged.clusters.constFind(context->cluster);
    if (cluster == merged.clusters.cend())
        return invalid(QStringLiteral("the context \"%1\" in %2 names the cluster \"%3\", which is not there")
                           .arg(contextName, context->file, context->cluster));
    if (!cluster->server.isValid() || cluster->server.host().isEmpty() ||
        (cluster->server.scheme() != QLatin1String("https") && cluster->server.scheme() != QLatin1String("http")))
        return invalid(QStringLiteral("the cluster \"%1\" in %2 has no usable server URL (\"%3\")")
                           .arg(context->cluster, cluster->file, cluster->server.toString()));

    KubeTarget target;
    target.context = contextName;
    target.cluster = context->cluster;
    target.user = context->user;
    target.server = cluster->server;
    target.insecureSkipVerify = cluster->insecureSkipVerify;
    target.configFile = context->file;
    target.caPem = cluster->caPem;
    if (std::optional<Error> error =
            readNamedFile(target.caPem, cluster->caFile, QStringLiteral("the certificate authority"), cluster->file))
        return *error;
    target.namespaceName = !request.namespaceName.isEmpty()    ? request.namespaceName
                           : !context->namespaceName.isEmpty() ? context->namespaceName
                                                               : QStringLiteral("default");
    if (!context->user.isEmpty()) {
        const auto user = merged.users.constFind(context->user);
        if (user == merged.users.cend())
            return invalid(QStringLiteral("the context \"%1\" in %2 names the user \"%3\", which is not there")
                               .arg(contextName, context->file, context->user));
        if (!user->unsupported.isEmpty() && !user->credentials.exec && user->credentials.token.isEmpty())
            return invalid(QStringLiteral("the user \"%1\" in %2 signs in with %3, which Chaoscope does not support")
                               .arg(context->user, user->file, user->unsupported));
        target.token = user->credentials.token;
        target.tokenFile = user->credentials.tokenFile;
        target.exec = user->credentials.exec;
        target.clientCertificatePem = user->credentials.clientCertificatePem;
        target.clientKeyPem = user->credentials.clientKeyPem;
        if (std::optional<Error> error = readNamedFile(target.clientCertificatePem, user->clientCertificateFile,
                                                       QStringLiteral("the client certificate"), user->file))
            return *error;
        if (std::optional<Error> error =
                readNamedFile(target.clientKeyPem, user->clientKeyFile, QStringLiteral("the client key"), user->file))
            return *error;
        if (target.clientCertificatePem.isEmpty() != target.clientKeyPem.isEmpty())
            return invalid(QStringLiteral("the user \"%1\" in %2 has a client certificate without its key, or a key "
                                          "without its certificate")
                               .arg(context->user, user->file));
    }
    return target;
}

} // namespace

QString KubeTarget::credentialOrigin() const
{
    QString how;
    if (exec)
        how = QStringLiteral("the credential plugin %1").arg(exec->command);
    else if (!tokenFile.isEmpty())
        how = QStringLiteral("the token file %1").arg(tokenFile);
    else if (!token.isEmpty())
        how = QStringLiteral("a bearer token");
    else if (!clientCertificatePem.isEmpty())
        how = QStringLiteral("a client certificate");
    else
        how = QStringLiteral("no credential");
    return QStringLiteral("user \"%1\" of %2 (%3)").arg(user, configFile, how);
}

bool KubeTarget::hasCredential() const
{
    return exec || !tokenFile.isEmpty() || !token.isEmpty() || !clientCertificatePem.isEmpty();
}

namespace KubeConfig {

QStringList defaultFiles(const QProcessEnvironment &environment)
{
    const QString variable = environment.value(QStringLiteral("KUBECONFIG"));
    QStringList files;
    for (const QString &part : variable.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        files << part;
    if (files.isEmpty()) {
        const QString home = environment.value(QStringLiteral("HOME"), QDir::homePath());
        files << QDir(home).filePath(QStringLiteral(".kube/config"));
    }
    return files;
}

Result<KubeTarget> resolve(const Request &request, const QProcessEnvironment &environment)
{
    const QStringList files = request.files.isEmpty() ? defaultFiles(environment) : request.files;
    Merged merged;
    int read = 0;
    for (const QString &path : files) {
        QFile file(path);
        if (!file.exists() && request.files.isEmpty() && files.size() > 1)
            continue; // $KUBECONFIG may name files that do not exist yet, as kubectl allows
        if (!file.open(QIODevice::ReadOnly))
            return Error::make(Error::Kind::Io,
                               QStringLiteral("cannot read the kubeconfig %1: %2").arg(path, file.errorString()));
        if (const std::optional<Error> error = mergeFile(file.readAll(), QFileInfo(path).absoluteFilePath(), merged))
            return *error;
        ++read;
    }
    if (read == 0)
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("none of the kubeconfig files exists: %1").arg(files.join(QStringLiteral(", "))));
    return resolveMerged(merged, files, request);
}

Result<KubeTarget> resolveText(const QByteArray &text, const QString &fileName, const Request &request)
{
    Merged merged;
    if (const std::optional<Error> error = mergeFile(text, fileName, merged))
        return *error;
    return resolveMerged(merged, {fileName}, request);
}

} // namespace KubeConfig
