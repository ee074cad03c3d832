// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/workloadchange.h"

#include "base/kubernetesnames.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>

namespace {

QString pairs(const QMap<QString, QString> &values)
{
    QStringList written;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        written << it.key() + QLatin1Char('=') + it.value();
    return written.join(QLatin1Char(' '));
}

QJsonObject toJson(const QMap<QString, QString> &values)
{
    QJsonObject object;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

// The container a change is for: the one named, else the first.
Workload::Container *containerIn(Workload &workload, const QString &name)
{
    if (workload.containers.empty())
        return nullptr;
    if (name.isEmpty())
        return &workload.containers.front();
    const auto found = std::find_if(workload.containers.begin(), workload.containers.end(),
                                    [&](const Workload::Container &c) { return c.name == name; });
    return found == workload.containers.end() ? nullptr : &*found;
}

} // namespace

WorkloadChange WorkloadChange::scale(const QString &workload, int replicas)
{
    WorkloadChange change;
    change.kind = Kind::Scale;
    change.workload = workload;
    change.replicas = replicas;
    return change;
}

WorkloadChange WorkloadChange::restart(const QString &workload, const QString &restartedAt)
{
    WorkloadChange change;
    change.kind = Kind::Restart;
    change.workload = workload;
    change.restartedAt = restartedAt;
    return change;
}

QString WorkloadChange::describe() const
{
    const QString target = container.isEmpty() ? workload : workload + QLatin1Char('/') + container;
    switch (kind) {
    case Kind::Scale:
        return QStringLiteral("scale %1 to %2").arg(workload).arg(replicas);
    case Kind::SetResources: {
        QStringList parts;
        if (!requests.isEmpty())
            parts << QStringLiteral("requests ") + pairs(requests);
        if (!limits.isEmpty())
            parts << QStringLiteral("limits ") + pairs(limits);
        return QStringLiteral("set %1 %2").arg(target, parts.join(QStringLiteral(", ")));
    }
    case Kind::SetEnv:
        return QStringLiteral("set %1 env %2").arg(target, pairs(env));
    case Kind::Restart:
        return QStringLiteral("restart %1").arg(workload);
    }
    return {};
}

bool WorkloadChange::isQuantity(const QString &text)
{
    // Kubernetes' quantity: a decimal number with an optional SI or binary suffix.
    static const QRegularExpression quantity(
        QStringLiteral("^[0-9]+(\\.[0-9]+)?([numkMGTPE]|Ki|Mi|Gi|Ti|Pi|Ei|[eE][0-9]+)?$"));
    return quantity.match(text).hasMatch();
}

std::optional<QString> WorkloadChange::problem(const Workload &target) const
{
    switch (kind) {
    case Kind::Scale:
        if (replicas < 0)
            return QStringLiteral("replicas must be 0 or more, not %1").arg(replicas);
        return std::nullopt;
    case Kind::Restart:
        return std::nullopt;
    case Kind::SetResources:
    case Kind::SetEnv:
        break;
    }
    Workload copy = target;
    if (!containerIn(copy, container))
        return container.isEmpty() ? QStringLiteral("%1 has no containers").arg(target.name)
                                   : QStringLiteral("%1 has no container \"%2\"").arg(target.name, container);
    if (kind == Kind::SetEnv) {
        if (env.isEmpty())
            return QStringLiteral("no env var to set");
        for (auto it = env.cbegin(); it != env.cend(); ++it) {
            if (!KubernetesNames::isEnvName(it.key()))
                return QStringLiteral("\"%1\" is not an env var name").arg(it.key());
        }
        return std::nullopt;
    }
    if (requests.isEmpty() && limits.isEmpty())
        return QStringLiteral("no request or limit to set");
    for (const auto *values : {&requests, &limits}) {
        for (auto it = values->cbegin(); it != values->cend(); ++it) {
            if (it.key() != QLatin1String("cpu") && it.key() != QLatin1String("memory"))
                return QStringLiteral("\"%1\" is not a resource Chaoscope sets (cpu or memory)").arg(it.key());
            if (!isQuantity(it.value()))
                return QStringLiteral("%1 \"%2\" is not a Kubernetes quantity (like 500m, 1.5, 256Mi)")
                    .arg(it.key(), it.value());
        }
    }
    return std::nullopt;
}

Workload WorkloadChange::appliedTo(const Workload &before) const
{
    Workload after = before;
    switch (kind) {
    case Kind::Scale:
        after.desired = replicas;
        break;
    case Kind::Restart:
        after.restartedAt = restartedAt;
        break;
    case Kind::SetEnv:
        if (Workload::Container *c = containerIn(after, container)) {
            for (auto it = env.cbegin(); it != env.cend(); ++it)
                c->env.insert(it.key(), it.value());
        }
        break;
    case Kind::SetResources:
        if (Workload::Container *c = containerIn(after, container)) {
            c->cpuRequest = requests.value(QStringLiteral("cpu"), c->cpuRequest);
            c->memoryRequest = requests.value(QStringLiteral("memory"), c->memoryRequest);
            c->cpuLimit = limits.value(QStringLiteral("cpu"), c->cpuLimit);
            c->memoryLimit = limits.value(QStringLiteral("memory"), c->memoryLimit);
        }
        break;
    }
    return after;
}

QString WorkloadChange::subresource() const
{
    return kind == Kind::Scale ? QStringLiteral("scale") : QString();
}

QByteArray WorkloadChange::contentType() const
{
    return kind == Kind::Scale ? QByteArrayLiteral("application/merge-patch+json")
                               : QByteArrayLiteral("application/strategic-merge-patch+json");
}

QByteArray WorkloadChange::patchBody(const Workload &target) const
{
    QJsonObject spec;
    if (kind == Kind::Scale) {
        spec.insert(QStringLiteral("replicas"), replicas);
    } else if (kind == Kind::Restart) {
        spec.insert(
            QStringLiteral("template"),
            QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("annotations"),
                                                                  QJsonObject{{restartAnnotation(), restartedAt}}}}}});
    } else {
        Workload copy = target;
        const Workload::Container *c = containerIn(copy, container);
        QJsonObject patched{{QStringLiteral("name"), c ? c->name : container}};
        if (kind == Kind::SetEnv) {
            QJsonArray variables;
            for (auto it = env.cbegin(); it != env.cend(); ++it)
                variables.append(
                    QJsonObject{{QStringLiteral("name"), it.key()}, {QStringLiteral("value"), it.value()}});
            patched.insert(QStringLiteral("env"), variables);
        } else {
            QJsonObject resources;
            if (!requests.isEmpty())
                resources.insert(QStringLiteral("requests"), toJson(requests));
            if (!limits.isEmpty())
                resources.insert(QStringLiteral("limits"), toJson(limits));
            patched.insert(QStringLiteral("resources"), resources);
        }
        spec.insert(
            QStringLiteral("template"),
            QJsonObject{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{patched}}}}});
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("spec"), spec}}).toJson(QJsonDocument::Compact);
}
