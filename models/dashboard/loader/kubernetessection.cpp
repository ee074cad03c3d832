// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/loader/kubernetessection.h"

#include "base/kubernetesnames.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <optional>

using KubernetesNames::isEnvName;
using KubernetesNames::isObjectName;

void KubernetesSection::read(const QJsonValue &value, KubernetesDefinition &kubernetes)
{
    const QString path = QStringLiteral("kubernetes");
    if (value.isUndefined())
        return;
    if (!value.isObject()) {
        m_json.issue(path, QStringLiteral("must be an object such as {\"namespace\": \"$namespace\", \"knobs\": "
                                          "[{\"workload\": \"starter\", \"env\": \"RATE\"}]}"));
        return;
    }
    const QJsonObject object = value.toObject();
    m_json.checkKeys(object, path, {"context", "namespace", "workloads", "knobs"});
    for (const char *secret : {"token", "tokenFile", "kubeconfig", "clientKey", "password"}) {
        if (object.contains(QLatin1String(secret)))
            m_json.issue(JsonSection::join(path, QLatin1String(secret)),
                         QStringLiteral("a credential never belongs in a dashboard: Chaoscope reads the kubeconfig "
                                        "as kubectl does ($KUBECONFIG, ~/.kube/config or --kubeconfig)"));
    }
    if (auto context = m_json.readString(object, path, QStringLiteral("context")))
        kubernetes.context = context->trimmed();
    if (auto ns = m_json.readString(object, path, QStringLiteral("namespace"))) {
        const QString nsPath = JsonSection::join(path, QStringLiteral("namespace"));
        const QString name = ns->trimmed();
        if (name.contains(QLatin1Char('$')))
            m_variables.checkQuery(name, nsPath); // "$namespace": declared, or said so
        else if (!isObjectName(name))
            m_json.issue(nsPath, QStringLiteral("%1 is not a namespace name (lower-case letters, digits and -)")
                                     .arg(JsonSection::describe(QJsonValue(name))));
        kubernetes.namespaceName = name;
    }
    const QJsonValue workloads = object.value(QStringLiteral("workloads"));
    const QString workloadsPath = JsonSection::join(path, QStringLiteral("workloads"));
    if (!workloads.isUndefined() && !workloads.isArray())
        m_json.issue(workloadsPath, QStringLiteral("must be an array of workload names"));
    const QJsonArray names = workloads.toArray();
    for (int i = 0; i < names.size(); ++i) {
        const QString name = names[i].toString().trimmed();
        if (!names[i].isString() || !isObjectName(name))
            m_json.issue(JsonSection::index(workloadsPath, i),
                         QStringLiteral("%1 is not a workload name").arg(JsonSection::describe(names[i])));
        else if (!kubernetes.workloads.contains(name))
            kubernetes.workloads.append(name);
    }
    readKnobs(object.value(QStringLiteral("knobs")), JsonSection::join(path, QStringLiteral("knobs")), kubernetes);
}

void KubernetesSection::readKnobs(const QJsonValue &value, const QString &path, KubernetesDefinition &kubernetes)
{
    if (value.isUndefined())
        return;
    if (!value.isArray()) {
        m_json.issue(path, QStringLiteral("must be an array such as [{\"workload\": \"starter\", \"env\": \"RATE\", "
                                          "\"title\": \"rate\"}]"));
        return;
    }
    const QJsonArray knobs = value.toArray();
    for (int i = 0; i < knobs.size(); ++i) {
        const QString itemPath = JsonSection::index(path, i);
        if (!knobs[i].isObject()) {
            m_json.issue(itemPath, QStringLiteral("must be an object with a \"workload\" and an \"env\""));
            continue;
        }
        const QJsonObject item = knobs[i].toObject();
        m_json.checkKeys(item, itemPath, {"workload", "env", "title"});
        KnobDefinition knob;
        // A name that is there and valid; else an issue (missing, or not such a name).
        const auto name = [&](const QString &key, bool (*valid)(const QString &), const QString &missing,
                              const QString &what) -> QString {
            const QString keyPath = JsonSection::join(itemPath, key);
            const std::optional<QString> text = m_json.readString(item, itemPath, key);
            if (!item.contains(key))
                m_json.issue(keyPath, QStringLiteral("missing: %1").arg(missing));
            else if (text && !valid(text->trimmed()))
                m_json.issue(keyPath, QStringLiteral("%1 is not %2").arg(JsonSection::describe(item.value(key)), what));
            return text && valid(text->trimmed()) ? text->trimmed() : QString();
        };
        knob.workload =
            name(QStringLiteral("workload"), isObjectName, QStringLiteral("the Deployment's or StatefulSet's name"),
                 QStringLiteral("a workload name"));
        knob.env = name(QStringLiteral("env"), isEnvName, QStringLiteral("the env var the workload reads (\"RATE\")"),
                        QStringLiteral("an env var name"));
        const bool usable = !knob.workload.isEmpty() && !knob.env.isEmpty();
        if (auto title = m_json.readString(item, itemPath, QStringLiteral("title")))
            knob.title = title->trimmed();
        const bool twice =
            std::any_of(kubernetes.knobs.cbegin(), kubernetes.knobs.cend(),
                        [&](const KnobDefinition &k) { return k.workload == knob.workload && k.env == knob.env; });
        if (usable && twice)
            m_json.issue(itemPath, QStringLiteral("%1 of %2 is a knob already").arg(knob.env, knob.workload));
        else if (usable)
            kubernetes.knobs.push_back(knob);
    }
}
