// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubelet.h"

#include "kubejson.h"
#include "objectstore.h"

Kubelet::Kubelet(PodRunner::Environment environment, QObject *parent) : QObject(parent), m_env(std::move(environment))
{}

Kubelet::~Kubelet() = default;

QString Kubelet::keyOf(const QString &ns, const QString &name)
{
    return ns + QLatin1Char('/') + name;
}

void Kubelet::runPod(const QString &ns, const QString &name)
{
    if (m_shuttingDown)
        return;
    const QString key = keyOf(ns, name);
    if (m_runners.count(key))
        return;
    auto runner = std::make_unique<PodRunner>(m_env, ns, name);
    connect(runner.get(), &PodRunner::finished, this, [this, key] {
        // Not now: the runner is inside its own signal.
        QTimer::singleShot(0, this, [this, key] { remove(key); });
    });
    PodRunner *raw = runner.get();
    m_runners[key] = std::move(runner);
    raw->start();
    emit podsChanged();
}

void Kubelet::deletePod(const QString &ns, const QString &name, int graceSeconds)
{
    const auto it = m_runners.find(keyOf(ns, name));
    if (it == m_runners.end()) {
        m_env.store.remove(QStringLiteral("pods"), ns, name);
        emit podsChanged();
        return;
    }
    if (!it->second->isTerminating())
        it->second->terminate(graceSeconds);
}

bool Kubelet::hasPod(const QString &ns, const QString &name) const
{
    return m_runners.count(keyOf(ns, name)) > 0;
}

void Kubelet::remove(const QString &key)
{
    const auto it = m_runners.find(key);
    if (it == m_runners.end())
        return;
    const QString ns = it->second->ns();
    const QString name = it->second->name();
    m_runners.erase(it);
    m_env.store.remove(QStringLiteral("pods"), ns, name);
    emit podsChanged();
    if (m_shuttingDown && m_runners.empty())
        emit allStopped();
}

std::optional<QByteArray> Kubelet::logs(const QString &ns, const QString &name, bool previous) const
{
    const auto it = m_runners.find(keyOf(ns, name));
    if (it == m_runners.end())
        return std::nullopt;
    return previous ? it->second->previousLog() : it->second->log();
}

QList<qint64> Kubelet::pids() const
{
    QList<qint64> pids;
    for (const auto &[key, runner] : m_runners)
        if (runner->pid() > 0 && runner->isRunning())
            pids << runner->pid();
    return pids;
}

void Kubelet::shutdown(int maxGraceSeconds)
{
    m_shuttingDown = true;
    if (m_runners.empty()) {
        emit allStopped();
        return;
    }
    for (const auto &[key, runner] : m_runners) {
        int grace = maxGraceSeconds;
        if (const std::optional<QJsonObject> pod =
                m_env.store.get(QStringLiteral("pods"), runner->ns(), runner->name()))
            grace = std::min(
                grace, KubeJson::at(*pod, QStringLiteral("spec.terminationGracePeriodSeconds")).toInt(maxGraceSeconds));
        runner->terminate(grace);
    }
}
