// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadvalidation.h"

#include "kubejson.h"
#include "resourcequantity.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <cmath>

namespace WorkloadValidation {
namespace {

using Causes = QList<ApiStatus::Cause>;

QString shown(const QJsonValue &value)
{
    if (value.isString())
        return QStringLiteral("\"%1\"").arg(value.toString());
    if (value.isDouble())
        return QString::number(value.toDouble());
    if (value.isNull() || value.isUndefined())
        return QStringLiteral("null");
    return QString::fromUtf8(value.isObject() ? KubeJson::compact(value.toObject())
                                              : KubeJson::compact(value.toArray()));
}

void intOrPercent(const QJsonValue &value, const QString &field, Causes &causes)
{
    static const QRegularExpression percent(QStringLiteral("^[0-9]+%$"));
    if (value.isUndefined())
        return;
    const bool ok = (value.isDouble() && value.toDouble() >= 0 && value.toDouble() == std::floor(value.toDouble())) ||
                    (value.isString() && percent.match(value.toString()).hasMatch());
    if (!ok)
        causes << ApiStatus::Cause{field, QStringLiteral("Invalid value: %1: must be a "
                                                         "non-negative integer or a percentage")
                                              .arg(shown(value))};
}

void container(const QJsonObject &c, const QString &field, Causes &causes)
{
    static const QRegularExpression dnsLabel(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    static const QRegularExpression envName(QStringLiteral("^[-._a-zA-Z][-._a-zA-Z0-9]*$"));
    if (!dnsLabel.match(c.value(QStringLiteral("name")).toString()).hasMatch())
        causes << ApiStatus::Cause{field + QStringLiteral(".name"),
                                   QStringLiteral("Invalid value: %1: a lowercase RFC 1123 label "
                                                  "must consist of lower case alphanumeric "
                                                  "characters or '-'")
                                       .arg(shown(c.value(QStringLiteral("name"))))};
    if (c.value(QStringLiteral("image")).toString().trimmed().isEmpty())
        causes << ApiStatus::Cause{field + QStringLiteral(".image"), QStringLiteral("Required value")};
    const QJsonArray env = c.value(QStringLiteral("env")).toArray();
    for (qsizetype i = 0; i < env.size(); ++i) {
        const QJsonObject e = env.at(i).toObject();
        const QString envField = QStringLiteral("%1.env[%2]").arg(field).arg(i);
        if (!envName.match(e.value(QStringLiteral("name")).toString()).hasMatch())
            causes << ApiStatus::Cause{envField + QStringLiteral(".name"),
                                       QStringLiteral("Invalid value: %1: a valid environment "
                                                      "variable name must consist of alphabetic "
                                                      "characters, digits, '_', '-', or '.', and "
                                                      "must not start with a digit")
                                           .arg(shown(e.value(QStringLiteral("name"))))};
        if (e.contains(QStringLiteral("value")) && !e.value(QStringLiteral("value")).isString())
            causes << ApiStatus::Cause{
                envField + QStringLiteral(".value"),
                QStringLiteral("Invalid value: %1: must be a string").arg(shown(e.value(QStringLiteral("value"))))};
    }
    const QJsonObject resources = c.value(QStringLiteral("resources")).toObject();
    QMap<QString, double> limits;
    for (const QString &group : {QStringLiteral("limits"), QStringLiteral("requests")}) {
        const QJsonObject entries = resources.value(group).toObject();
        for (auto it = entries.begin(); it != entries.end(); ++it) {
            const QString entryField = QStringLiteral("%1.resources.%2[%3]").arg(field, group, it.key());
            QString error;
            const std::optional<ResourceQuantity> q = ResourceQuantity::parse(it.value().toString(), &error);
            if (!it.value().isString() || !q) {
                causes << ApiStatus::Cause{entryField,
                                           QStringLiteral("Invalid value: %1: %2").arg(shown(it.value()), error)};
                continue;
            }
            if (q->value() < 0)
                causes << ApiStatus::Cause{entryField, QStringLiteral("Invalid value: %1: must be greater "
                                                                      "than or equal to 0")
                                                           .arg(shown(it.value()))};
            if (group == QLatin1String("limits"))
                limits[it.key()] = q->value();
            else if (limits.contains(it.key()) && q->value() > limits.value(it.key()))
                causes << ApiStatus::Cause{entryField,
                                           QStringLiteral("Invalid value: %1: must be less than "
                                                          "or equal to %2 limit of %3")
                                               .arg(shown(it.value()), it.key(), entries.value(it.key()).toString())};
        }
    }
}

} // namespace

QList<ApiStatus::Cause> validate(const QJsonObject &candidate, const QJsonObject &current, int maxReplicas)
{
    Causes causes;
    const QJsonObject spec = candidate.value(QStringLiteral("spec")).toObject();
    const QJsonObject oldSpec = current.value(QStringLiteral("spec")).toObject();
    const QString kind = current.value(QStringLiteral("kind")).toString();

    for (const char *field : {"name", "namespace", "uid"}) {
        const QString name = QLatin1String(field);
        if (KubeJson::at(candidate, QStringLiteral("metadata.") + name) !=
            KubeJson::at(current, QStringLiteral("metadata.") + name))
            causes << ApiStatus::Cause{QStringLiteral("metadata.") + name,
                                       QStringLiteral("Invalid value: %1: field is immutable")
                                           .arg(shown(KubeJson::at(candidate, QStringLiteral("metadata.") + name)))};
    }

    const QJsonValue replicas = spec.value(QStringLiteral("replicas"));
    const double count = replicas.toDouble(-1);
    if (!replicas.isDouble() || count != std::floor(count) || count < 0)
        causes << ApiStatus::Cause{QStringLiteral("spec.replicas"),
                                   QStringLiteral("Invalid value: %1: must be greater than or "
                                                  "equal to 0")
                                       .arg(shown(replicas))};
    else if (count > maxReplicas)
        causes << ApiStatus::Cause{QStringLiteral("spec.replicas"),
                                   QStringLiteral("Invalid value: %1: must be less than or equal "
                                                  "to %2 (the testbed cluster's maxReplicas: "
                                                  "every replica is a process on this machine)")
                                       .arg(shown(replicas))
                                       .arg(maxReplicas)};

    if (spec.value(QStringLiteral("selector")) != oldSpec.value(QStringLiteral("selector")))
        causes << ApiStatus::Cause{
            QStringLiteral("spec.selector"),
            QStringLiteral("Invalid value: %1: field is immutable").arg(shown(spec.value(QStringLiteral("selector"))))};
    const QJsonObject selectorLabels = KubeJson::at(spec, QStringLiteral("selector.matchLabels")).toObject();
    const QJsonObject templateLabels = KubeJson::at(spec, QStringLiteral("template.metadata.labels")).toObject();
    for (auto it = selectorLabels.begin(); it != selectorLabels.end(); ++it) {
        if (templateLabels.value(it.key()) != it.value()) {
            causes << ApiStatus::Cause{QStringLiteral("spec.template.metadata.labels"),
                                       QStringLiteral("Invalid value: %1: `selector` does not "
                                                      "match template `labels`")
                                           .arg(shown(templateLabels))};
            break;
        }
    }

    const QJsonArray containers = KubeJson::at(spec, QStringLiteral("template.spec.containers")).toArray();
    if (containers.isEmpty())
        causes << ApiStatus::Cause{QStringLiteral("spec.template.spec.containers"), QStringLiteral("Required value")};
    else if (containers.size() > 1)
        causes << ApiStatus::Cause{QStringLiteral("spec.template.spec.containers"),
                                   QStringLiteral("Too many: %1: this testbed cluster runs one "
                                                  "container per pod")
                                       .arg(containers.size())};
    for (qsizetype i = 0; i < containers.size(); ++i)
        container(containers.at(i).toObject(), QStringLiteral("spec.template.spec.containers[%1]").arg(i), causes);

    if (kind == QLatin1String("Deployment")) {
        const QJsonObject strategy = spec.value(QStringLiteral("strategy")).toObject();
        const QString type = strategy.value(QStringLiteral("type")).toString();
        if (type != QLatin1String("RollingUpdate") && type != QLatin1String("Recreate"))
            causes << ApiStatus::Cause{QStringLiteral("spec.strategy.type"),
                                       QStringLiteral("Unsupported value: %1: supported values: "
                                                      "\"Recreate\", \"RollingUpdate\"")
                                           .arg(shown(strategy.value(QStringLiteral("type"))))};
        const QJsonObject rolling = strategy.value(QStringLiteral("rollingUpdate")).toObject();
        intOrPercent(rolling.value(QStringLiteral("maxSurge")), QStringLiteral("spec.strategy.rollingUpdate.maxSurge"),
                     causes);
        intOrPercent(rolling.value(QStringLiteral("maxUnavailable")),
                     QStringLiteral("spec.strategy.rollingUpdate.maxUnavailable"), causes);
        const auto isZero = [](const QJsonValue &v) {
            return (v.isDouble() && v.toInt() == 0) || v.toString() == QLatin1String("0%");
        };
        if (type == QLatin1String("RollingUpdate") && isZero(rolling.value(QStringLiteral("maxSurge"))) &&
            isZero(rolling.value(QStringLiteral("maxUnavailable"))))
            causes << ApiStatus::Cause{QStringLiteral("spec.strategy.rollingUpdate.maxUnavailable"),
                                       QStringLiteral("Invalid value: 0: may not be 0 when "
                                                      "`maxSurge` is 0")};
    } else {
        // What a StatefulSet lets change; everything else of its spec is fixed.
        QJsonObject fixedNew = spec;
        QJsonObject fixedOld = oldSpec;
        for (const char *field : {"replicas", "ordinals", "template", "updateStrategy",
                                  "persistentVolumeClaimRetentionPolicy", "minReadySeconds"}) {
            fixedNew.remove(QLatin1String(field));
            fixedOld.remove(QLatin1String(field));
        }
        if (fixedNew != fixedOld)
            causes << ApiStatus::Cause{QStringLiteral("spec"),
                                       QStringLiteral("Forbidden: updates to statefulset spec for "
                                                      "fields other than 'replicas', 'ordinals', "
                                                      "'template', 'updateStrategy', "
                                                      "'persistentVolumeClaimRetentionPolicy' and "
                                                      "'minReadySeconds' are forbidden")};
        const QString type = KubeJson::at(spec, QStringLiteral("updateStrategy.type")).toString();
        if (type != QLatin1String("RollingUpdate"))
            causes << ApiStatus::Cause{QStringLiteral("spec.updateStrategy.type"),
                                       QStringLiteral("Unsupported value: %1: this testbed cluster "
                                                      "rolls StatefulSets with \"RollingUpdate\" "
                                                      "only")
                                           .arg(shown(KubeJson::at(spec, QStringLiteral("updateStrategy.type"))))};
    }
    return causes;
}

} // namespace WorkloadValidation
