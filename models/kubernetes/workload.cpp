// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetes/workload.h"

#include <QJsonArray>

namespace {

QString orNone(const QString &value)
{
    return value.isEmpty() ? QStringLiteral("none") : value;
}

} // namespace

QString Workload::kindName() const
{
    return kind == Kind::StatefulSet ? QStringLiteral("StatefulSet") : QStringLiteral("Deployment");
}

QString Workload::resource() const
{
    return kind == Kind::StatefulSet ? QStringLiteral("statefulsets") : QStringLiteral("deployments");
}

bool Workload::isRolledOut() const
{
    return observedGeneration >= generation && updated == desired && ready == desired && current == updated;
}

bool Workload::selects(const QJsonObject &podLabels) const
{
    if (selector.isEmpty())
        return false;
    for (auto it = selector.cbegin(); it != selector.cend(); ++it) {
        if (podLabels.value(it.key()).toString() != it.value())
            return false;
    }
    return true;
}

Result<Workload> Workload::fromJson(const QJsonObject &object, Kind kind)
{
    const QJsonObject metadata = object.value(QLatin1String("metadata")).toObject();
    Workload workload;
    workload.kind = kind;
    workload.name = metadata.value(QLatin1String("name")).toString();
    if (workload.name.isEmpty())
        return Error::make(Error::Kind::Parse, QStringLiteral("a %1 without metadata.name").arg(workload.kindName()));
    workload.resourceVersion = metadata.value(QLatin1String("resourceVersion")).toString();
    workload.generation = metadata.value(QLatin1String("generation")).toInteger();
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    const QJsonObject status = object.value(QLatin1String("status")).toObject();
    workload.desired = spec.value(QLatin1String("replicas")).toInt(1);
    workload.observedGeneration = status.value(QLatin1String("observedGeneration")).toInteger();
    workload.ready = status.value(QLatin1String("readyReplicas")).toInt();
    workload.updated = status.value(QLatin1String("updatedReplicas")).toInt();
    workload.current = status.value(QLatin1String("replicas")).toInt(workload.updated);
    const QJsonObject matchLabels =
        spec.value(QLatin1String("selector")).toObject().value(QLatin1String("matchLabels")).toObject();
    for (auto it = matchLabels.begin(); it != matchLabels.end(); ++it)
        workload.selector.insert(it.key(), it.value().toString());
    const QJsonObject podTemplate = spec.value(QLatin1String("template")).toObject();
    workload.restartedAt = podTemplate.value(QLatin1String("metadata"))
                               .toObject()
                               .value(QLatin1String("annotations"))
                               .toObject()
                               .value(QStringLiteral("kubectl.kubernetes.io/restartedAt"))
                               .toString();
    const QJsonArray containers =
        podTemplate.value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray();
    for (const QJsonValue value : containers) {
        const QJsonObject c = value.toObject();
        Container container;
        container.name = c.value(QLatin1String("name")).toString();
        container.image = c.value(QLatin1String("image")).toString();
        for (const QJsonValue env : c.value(QLatin1String("env")).toArray()) {
            const QJsonObject variable = env.toObject();
            if (variable.contains(QLatin1String("value")))
                container.env.insert(variable.value(QLatin1String("name")).toString(),
                                     variable.value(QLatin1String("value")).toString());
        }
        const QJsonObject resources = c.value(QLatin1String("resources")).toObject();
        const QJsonObject requests = resources.value(QLatin1String("requests")).toObject();
        const QJsonObject limits = resources.value(QLatin1String("limits")).toObject();
        container.cpuRequest = requests.value(QLatin1String("cpu")).toString();
        container.memoryRequest = requests.value(QLatin1String("memory")).toString();
        container.cpuLimit = limits.value(QLatin1String("cpu")).toString();
        container.memoryLimit = limits.value(QLatin1String("memory")).toString();
        workload.containers.push_back(container);
    }
    return workload;
}

QStringList Workload::specChanges(const Workload &before, const Workload &after)
{
    QStringList changes;
    if (before.desired != after.desired)
        changes << QStringLiteral("replicas %1 → %2").arg(before.desired).arg(after.desired);
    if (before.restartedAt != after.restartedAt)
        changes << QStringLiteral("rollout restart");
    const bool several = after.containers.size() > 1;
    for (const Container &now : after.containers) {
        const auto was = std::find_if(before.containers.begin(), before.containers.end(),
                                      [&](const Container &c) { return c.name == now.name; });
        if (was == before.containers.end())
            continue;
        const QString prefix = several ? now.name + QLatin1Char(' ') : QString();
        const auto compare = [&](const QString &what, const QString &from, const QString &to) {
            if (from != to)
                changes << QStringLiteral("%1%2 %3 → %4").arg(prefix, what, orNone(from), orNone(to));
        };
        compare(QStringLiteral("image"), was->image, now.image);
        compare(QStringLiteral("cpu request"), was->cpuRequest, now.cpuRequest);
        compare(QStringLiteral("cpu limit"), was->cpuLimit, now.cpuLimit);
        compare(QStringLiteral("memory request"), was->memoryRequest, now.memoryRequest);
        compare(QStringLiteral("memory limit"), was->memoryLimit, now.memoryLimit);
        QStringList names = was->env.keys() + now.env.keys();
        names.removeDuplicates();
        names.sort();
        for (const QString &name : names)
            compare(QStringLiteral("env ") + name, was->env.value(name), now.env.value(name));
    }
    return changes;
}
