// SPDX-License-Identifier: GPL-3.0-or-later
#include "clusterconfig.h"

#include "resourcequantity.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace {

const QRegularExpression &dnsLabel()
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    return pattern;
}

const QRegularExpression &envName()
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return pattern;
}

bool unknownKeys(const QJsonObject &object, const QSet<QString> &known, const QString &where, QString *error)
{
    for (const QString &key : object.keys()) {
        if (!known.contains(key)) {
            *error = QStringLiteral("%1: unknown field '%2'").arg(where, key);
            return true;
        }
    }
    return false;
}

std::optional<int> integer(const QJsonObject &object, const QString &key, int fallback, int min, int max,
                           const QString &where, QString *error)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        return fallback;
    const double number = value.toDouble(-1e300);
    if (!value.isDouble() || number != static_cast<int>(number) || number < min || number > max) {
        *error = QStringLiteral("%1: '%2' must be a whole number from %3 to %4").arg(where, key).arg(min).arg(max);
        return std::nullopt;
    }
    return static_cast<int>(number);
}

bool readResources(const QJsonValue &value, const QString &where, QJsonObject *out, QString *error)
{
    if (value.isUndefined())
        return true;
    const QJsonObject resources = value.toObject();
    if (!value.isObject() ||
        unknownKeys(resources, {QStringLiteral("limits"), QStringLiteral("requests")}, where, error)) {
        if (error->isEmpty())
            *error = QStringLiteral("%1: 'resources' must be an object").arg(where);
        return false;
    }
    for (const QString &group : resources.keys()) {
        const QJsonObject entries = resources.value(group).toObject();
        for (const QString &name : entries.keys()) {
            QString quantityError;
            if (name != QLatin1String("cpu") && name != QLatin1String("memory")) {
                *error = QStringLiteral("%1: resources.%2 may name cpu and memory, not '%3'").arg(where, group, name);
                return false;
            }
            if (!ResourceQuantity::parse(entries.value(name).toString(), &quantityError)) {
                *error = QStringLiteral("%1: resources.%2.%3: %4").arg(where, group, name, quantityError);
                return false;
            }
        }
    }
    *out = resources;
    return true;
}

std::optional<WorkloadSpec> readWorkload(const QJsonObject &object, int index, const ClusterConfig &config,
                                         QString *error)
{
    WorkloadSpec workload;
    QString where = QStringLiteral("workloads[%1]").arg(index);
    if (unknownKeys(object,
                    {QStringLiteral("kind"), QStringLiteral("name"), QStringLiteral("replicas"),
                     QStringLiteral("image"), QStringLiteral("env"), QStringLiteral("args"),
                     QStringLiteral("resources"), QStringLiteral("port"), QStringLiteral("labels"),
                     QStringLiteral("terminationGracePeriodSeconds")},
                    where, error))
        return std::nullopt;
    workload.name = object.value(QStringLiteral("name")).toString();
    if (!dnsLabel().match(workload.name).hasMatch() || workload.name.size() > 50) {
        *error = QStringLiteral("%1: 'name' must be a DNS label (lower case letters, digits, '-', "
                                "at most 50), got '%2'")
                     .arg(where, workload.name);
        return std::nullopt;
    }
    where = QStringLiteral("workload '%1'").arg(workload.name);
    workload.kind = object.value(QStringLiteral("kind")).toString(QStringLiteral("Deployment"));
    if (workload.kind != QLatin1String("Deployment") && workload.kind != QLatin1String("StatefulSet")) {
        *error = QStringLiteral("%1: 'kind' must be Deployment or StatefulSet, got '%2'").arg(where, workload.kind);
        return std::nullopt;
    }
    const std::optional<int> replicas =
        integer(object, QStringLiteral("replicas"), 1, 0, config.maxReplicas, where, error);
    const std::optional<int> port = integer(object, QStringLiteral("port"), 0, 0, 65535, where, error);
    const std::optional<int> grace =
        integer(object, QStringLiteral("terminationGracePeriodSeconds"), 10, 0, 300, where, error);
    if (!replicas || !port || !grace)
        return std::nullopt;
    workload.replicas = *replicas;
    workload.containerPort = *port;
    workload.terminationGracePeriodSeconds = *grace;
    workload.image = object.value(QStringLiteral("image")).toString();
    if (!config.images.contains(workload.image)) {
        *error = QStringLiteral("%1: unknown image '%2' (known: %3)")
                     .arg(where, workload.image, QStringList(config.images.keys()).join(QStringLiteral(", ")));
        return std::nullopt;
    }
    const QJsonObject env = object.value(QStringLiteral("env")).toObject();
    for (auto it = env.begin(); it != env.end(); ++it) {
        if (!envName().match(it.key()).hasMatch() || !it.value().isString()) {
            *error = QStringLiteral("%1: env '%2' must be a C identifier with a string value").arg(where, it.key());
            return std::nullopt;
        }
        workload.env.append({it.key(), it.value().toString()});
    }
    for (const QJsonValue arg : object.value(QStringLiteral("args")).toArray()) {
        if (!arg.isString()) {
            *error = QStringLiteral("%1: 'args' must be a list of strings").arg(where);
            return std::nullopt;
        }
        workload.args << arg.toString();
    }
    if (!readResources(object.value(QStringLiteral("resources")), where, &workload.resources, error))
        return std::nullopt;
    workload.labels = object.value(QStringLiteral("labels")).toObject();
    if (workload.labels.isEmpty())
        workload.labels.insert(QStringLiteral("app"), workload.name);
    return workload;
}

} // namespace

QMap<QString, ImageSpec> ClusterConfig::builtinImages()
{
    ImageSpec starter;
    starter.binary = QStringLiteral("chaoscope-starter");
    starter.podNameFlag = QStringLiteral("--instance");
    starter.cpuLimitFlag = QStringLiteral("--cpu-limit");
    starter.memoryLimitFlag = QStringLiteral("--memory-limit");
    ImageSpec worker;
    worker.binary = QStringLiteral("chaoscope-worker");
    worker.podNameFlag = QStringLiteral("--instance");
    ImageSpec engine;
    engine.binary = QStringLiteral("chaoscope-engine");
    return {{QStringLiteral("chaoscope/starter"), starter},
            {QStringLiteral("chaoscope/worker"), worker},
            {QStringLiteral("chaoscope/engine"), engine}};
}

std::optional<ClusterConfig> ClusterConfig::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the config file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    std::optional<ClusterConfig> config = parse(file.read(1024LL * 1024), error);
    if (!config)
        *error = QStringLiteral("%1: %2").arg(path, *error);
    return config;
}

std::optional<ClusterConfig> ClusterConfig::parse(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
                     ? QStringLiteral("not JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset)
                     : QStringLiteral("the config must be a JSON object");
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (unknownKeys(root,
                    {QStringLiteral("namespace"), QStringLiteral("node"), QStringLiteral("maxReplicas"),
                     QStringLiteral("restartBackoffSeconds"), QStringLiteral("images"), QStringLiteral("workloads")},
                    QStringLiteral("config"), error))
        return std::nullopt;
    ClusterConfig config;
    config.ns = root.value(QStringLiteral("namespace")).toString(config.ns);
    if (!dnsLabel().match(config.ns).hasMatch()) {
        *error = QStringLiteral("'namespace' must be a DNS label, got '%1'").arg(config.ns);
        return std::nullopt;
    }
    config.node = root.value(QStringLiteral("node")).toString(config.node);
    const std::optional<int> maxReplicas =
        integer(root, QStringLiteral("maxReplicas"), 10, 1, 100, QStringLiteral("config"), error);
    const std::optional<int> backoff =
        integer(root, QStringLiteral("restartBackoffSeconds"), 10, 0, 300, QStringLiteral("config"), error);
    if (!maxReplicas || !backoff)
        return std::nullopt;
    config.maxReplicas = *maxReplicas;
    config.restartBackoffSeconds = *backoff;

    config.images = builtinImages();
    const QJsonObject images = root.value(QStringLiteral("images")).toObject();
    for (auto it = images.begin(); it != images.end(); ++it) {
        const QJsonObject object = it.value().toObject();
        const QString where = QStringLiteral("images.%1").arg(it.key());
        if (unknownKeys(object,
                        {QStringLiteral("binary"), QStringLiteral("portFlag"), QStringLiteral("podNameFlag"),
                         QStringLiteral("cpuLimitFlag"), QStringLiteral("memoryLimitFlag"),
                         QStringLiteral("readinessPath")},
                        where, error))
            return std::nullopt;
        ImageSpec image = config.images.value(it.key());
        image.binary = object.value(QStringLiteral("binary")).toString(image.binary);
        image.portFlag = object.value(QStringLiteral("portFlag")).toString(image.portFlag);
        image.podNameFlag = object.value(QStringLiteral("podNameFlag")).toString(image.podNameFlag);
        image.cpuLimitFlag = object.value(QStringLiteral("cpuLimitFlag")).toString(image.cpuLimitFlag);
        image.memoryLimitFlag = object.value(QStringLiteral("memoryLimitFlag")).toString(image.memoryLimitFlag);
        image.readinessPath = object.value(QStringLiteral("readinessPath")).toString(image.readinessPath);
        if (image.binary.isEmpty()) {
            *error = QStringLiteral("%1: 'binary' is required").arg(where);
            return std::nullopt;
        }
        config.images.insert(it.key(), image);
    }

    const QJsonArray workloads = root.value(QStringLiteral("workloads")).toArray();
    QSet<QString> names;
    for (qsizetype i = 0; i < workloads.size(); ++i) {
        std::optional<WorkloadSpec> workload =
            readWorkload(workloads.at(i).toObject(), static_cast<int>(i), config, error);
        if (!workload)
            return std::nullopt;
        const QString key = workload->kind + QLatin1Char('/') + workload->name;
        if (names.contains(key)) {
            *error = QStringLiteral("two workloads are called %1").arg(key);
            return std::nullopt;
        }
        names.insert(key);
        config.workloads.append(*workload);
    }
    return config;
}
