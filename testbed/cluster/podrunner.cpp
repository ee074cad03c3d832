// SPDX-License-Identifier: GPL-3.0-or-later
#include "podrunner.h"

#include "eventrecorder.h"
#include "kubejson.h"
#include "objectstore.h"

#include <QDir>
#include <QJsonArray>
#include <cstdio>

namespace {

constexpr int maxBackoffSeconds = 300;
constexpr int backoffResetSeconds = 600; // a container that ran this long starts afresh

void logLine(const QString &line)
{
    std::fprintf(stderr, "chaoscope-cluster: %s\n", qPrintable(line));
    std::fflush(stderr);
}

} // namespace

PodRunner::PodRunner(Environment environment, const QString &ns, const QString &name, QObject *parent)
    : QObject(parent), m_env(std::move(environment)), m_ns(ns), m_name(name)
{
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, &PodRunner::run);
    if (const std::optional<QJsonObject> object = pod()) {
        const QJsonObject container =
            KubeJson::at(*object, QStringLiteral("spec.containers")).toArray().at(0).toObject();
        m_container = container.value(QStringLiteral("name")).toString();
        m_image = container.value(QStringLiteral("image")).toString();
        m_hasMemoryLimit = KubeJson::at(container, QStringLiteral("resources.limits.memory")).isString();
    }
}

PodRunner::~PodRunner() = default;

std::optional<QJsonObject> PodRunner::pod() const
{
    return m_env.store.get(QStringLiteral("pods"), m_ns, m_name);
}

QString PodRunner::fieldPath() const
{
    return QStringLiteral("spec.containers{%1}").arg(m_container);
}

QByteArray PodRunner::log() const
{
    return m_process ? m_process->log() : QByteArray();
}

void PodRunner::start()
{
    const std::optional<QJsonObject> object = pod();
    if (!object)
        return;
    m_podStartTime = KubeJson::now();
    m_env.events.normal(*object, QStringLiteral("Scheduled"),
                        QStringLiteral("Successfully assigned %1/%2 to %3")
                            .arg(m_ns, m_name, KubeJson::at(*object, QStringLiteral("spec.nodeName")).toString()),
                        QStringLiteral("default-scheduler"));
    run();
}

void PodRunner::run()
{
    const std::optional<QJsonObject> object = pod();
    if (!object || m_terminating)
        return;
    const QJsonObject container = KubeJson::at(*object, QStringLiteral("spec.containers")).toArray().at(0).toObject();
    const ContainerLaunch launch = ContainerLaunch::build(*object, container, m_env.images, m_env.binaryDirs);
    if (!launch.isRunnable()) {
        m_env.events.warning(*object, QStringLiteral("Failed"), launch.message, QStringLiteral("kubelet"), fieldPath());
        const QString reason = launch.waitingReason == QLatin1String("ErrImagePull") && m_started
                                   ? QStringLiteral("ImagePullBackOff")
                                   : launch.waitingReason;
        m_started = true; // the next attempt shows the back-off reason
        waitBeforeRestart(reason, launch.message);
        return;
    }
    if (!m_started)
        m_env.events.normal(*object, QStringLiteral("Pulled"),
                            QStringLiteral("Container image \"%1\" already present on machine").arg(m_image),
                            QStringLiteral("kubelet"), fieldPath());
    if (m_process) {
        ++m_restartCount; // a container that ran before starts again
        m_previousLog = m_process->log();
        m_process.release()->deleteLater(); // we may be inside its finished() signal
    }
    m_probe.reset();
    m_port = 0;
    m_ready = false;
    const QString logPath =
        m_env.logDir.isEmpty() ? QString() : QDir(m_env.logDir).filePath(QStringLiteral("%1_%2.log").arg(m_ns, m_name));
    m_process = std::make_unique<ContainerProcess>(launch, logPath);
    connect(m_process.get(), &ContainerProcess::started, this, &PodRunner::onStarted);
    connect(m_process.get(), &ContainerProcess::listening, this, &PodRunner::onListening);
    connect(m_process.get(), &ContainerProcess::exited, this, &PodRunner::onExited);
    connect(m_process.get(), &ContainerProcess::failedToStart, this, [this](const QString &error) {
        if (const std::optional<QJsonObject> failed = pod())
            m_env.events.warning(*failed, QStringLiteral("Failed"),
                                 QStringLiteral("Error: failed to start container: %1").arg(error),
                                 QStringLiteral("kubelet"), fieldPath());
        waitBeforeRestart(QStringLiteral("RunContainerError"), error);
    });
    m_env.events.normal(*object, QStringLiteral("Created"), QStringLiteral("Created container %1").arg(m_container),
                        QStringLiteral("kubelet"), fieldPath());
    m_process->start();
}

void PodRunner::onStarted()
{
    m_started = true;
    m_runStartedAt = QDateTime::currentDateTimeUtc();
    m_waitingReason.clear();
    m_waitingMessage.clear();
    if (const std::optional<QJsonObject> object = pod())
        m_env.events.normal(*object, QStringLiteral("Started"), QStringLiteral("Started container %1").arg(m_container),
                            QStringLiteral("kubelet"), fieldPath());
    logLine(QStringLiteral("pod %1/%2: started %3 (pid %4)").arg(m_ns, m_name, m_container).arg(m_process->pid()));
    writeStatus();
}

void PodRunner::onListening(quint16 port)
{
    m_port = port;
    const std::optional<QJsonObject> object = pod();
    const QJsonObject container =
        object ? KubeJson::at(*object, QStringLiteral("spec.containers")).toArray().at(0).toObject() : QJsonObject();
    const QJsonObject probe = container.value(QStringLiteral("readinessProbe")).toObject();
    if (probe.isEmpty()) {
        m_ready = true;
        writeStatus();
        return;
    }
    ReadinessProbe::Settings settings;
    settings.path = KubeJson::at(probe, QStringLiteral("httpGet.path")).toString(QStringLiteral("/"));
    settings.periodSeconds = probe.value(QStringLiteral("periodSeconds")).toInt(10);
    settings.timeoutSeconds = probe.value(QStringLiteral("timeoutSeconds")).toInt(1);
    settings.successThreshold = probe.value(QStringLiteral("successThreshold")).toInt(1);
    settings.failureThreshold = probe.value(QStringLiteral("failureThreshold")).toInt(3);
    m_probe = std::make_unique<ReadinessProbe>(m_env.network, port, settings);
    connect(m_probe.get(), &ReadinessProbe::readinessChanged, this, &PodRunner::onReadiness);
    writeStatus(); // the port: Prometheus may scrape it already
    m_probe->start();
}

void PodRunner::onReadiness(bool ready, const QString &failure)
{
    if (!ready && !failure.isEmpty() && m_started) {
        if (const std::optional<QJsonObject> object = pod())
            m_env.events.warning(*object, QStringLiteral("Unhealthy"),
                                 QStringLiteral("Readiness probe failed: %1").arg(failure), QStringLiteral("kubelet"),
                                 fieldPath());
    }
    if (ready == m_ready)
        return;
    m_ready = ready;
    writeStatus();
}

void PodRunner::onExited(const ContainerProcess::Exit &exit)
{
    m_probe.reset();
    m_ready = false;
    const QString finishedAt = KubeJson::now();
    QString reason;
    if (exit.signal == 0 && exit.exitCode == 0)
        reason = QStringLiteral("Completed");
    else if (exit.signal == 0 && exit.exitCode == 137 && m_hasMemoryLimit)
        reason = QStringLiteral("OOMKilled"); // what the starter's --memory-limit leaves
    else
        reason = QStringLiteral("Error");
    m_lastTerminated = QJsonObject{
        {QStringLiteral("exitCode"), exit.exitCode},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("startedAt"), KubeJson::timestamp(m_runStartedAt)},
        {QStringLiteral("finishedAt"), finishedAt},
        {QStringLiteral("containerID"), QStringLiteral("chaoscope://%1").arg(m_process->pid())},
    };
    if (exit.signal != 0)
        m_lastTerminated.insert(QStringLiteral("signal"), exit.signal);
    logLine(QStringLiteral("pod %1/%2: %3 exited with %4 (%5)%6")
                .arg(m_ns, m_name, m_container)
                .arg(exit.exitCode)
                .arg(reason, exit.requested ? QStringLiteral(", as asked") : QString()));
    if (m_terminating || exit.requested) {
        m_terminating = true;
        emit finished();
        return;
    }
    if (m_runStartedAt.secsTo(QDateTime::currentDateTimeUtc()) >= backoffResetSeconds)
        m_backoffSeconds = 0;
    const std::optional<QJsonObject> object = pod();
    if (m_backoffSeconds == 0) {
        // The kubelet's first restart does not wait.
        m_backoffSeconds = std::max(1, m_env.initialBackoffSeconds);
        writeStatus();
        run();
        return;
    }
    waitBeforeRestart(QStringLiteral("CrashLoopBackOff"),
                      QStringLiteral("back-off %1s restarting failed container=%2 pod=%3_%4(%5)")
                          .arg(m_backoffSeconds)
                          .arg(m_container, m_name, m_ns,
                               object ? KubeJson::at(*object, QStringLiteral("metadata.uid")).toString() : QString()));
}

void PodRunner::waitBeforeRestart(const QString &reason, const QString &message)
{
    m_waitingReason = reason;
    m_waitingMessage = message;
    if (const std::optional<QJsonObject> object = pod()) {
        if (reason == QLatin1String("CrashLoopBackOff") || reason == QLatin1String("ImagePullBackOff"))
            m_env.events.warning(*object, QStringLiteral("BackOff"),
                                 reason == QLatin1String("ImagePullBackOff")
                                     ? QStringLiteral("Back-off pulling image \"%1\"").arg(m_image)
                                     : QStringLiteral("Back-off restarting failed container %1 in "
                                                      "pod %2_%3(%4)")
                                           .arg(m_container, m_name, m_ns,
                                                KubeJson::at(*object, QStringLiteral("metadata.uid")).toString()),
                                 QStringLiteral("kubelet"), fieldPath());
    }
    const int delay = m_backoffSeconds > 0 ? m_backoffSeconds : std::max(1, m_env.initialBackoffSeconds);
    m_backoffSeconds = std::min(maxBackoffSeconds, delay * 2);
    writeStatus();
    m_restartTimer.start(delay * 1000);
}

void PodRunner::terminate(int graceSeconds)
{
    m_terminating = true;
    m_restartTimer.stop();
    if (std::optional<QJsonObject> object = pod()) {
        QJsonObject metadata = object->value(QStringLiteral("metadata")).toObject();
        if (!metadata.contains(QStringLiteral("deletionTimestamp"))) {
            metadata.insert(QStringLiteral("deletionTimestamp"),
                            KubeJson::timestamp(QDateTime::currentDateTimeUtc().addSecs(graceSeconds)));
            metadata.insert(QStringLiteral("deletionGracePeriodSeconds"), graceSeconds);
            object->insert(QStringLiteral("metadata"), metadata);
            m_env.store.update(QStringLiteral("pods"), *object);
        }
        if (isRunning())
            m_env.events.normal(*object, QStringLiteral("Killing"),
                                QStringLiteral("Stopping container %1").arg(m_container), QStringLiteral("kubelet"),
                                fieldPath());
    }
    if (!isRunning()) {
        emit finished();
        return;
    }
    m_ready = false;
    writeStatus();
    m_process->terminate(graceSeconds);
}

QJsonObject PodRunner::containerStatus() const
{
    QJsonObject state;
    if (isRunning() && m_waitingReason.isEmpty()) {
        state.insert(QStringLiteral("running"),
                     QJsonObject{{QStringLiteral("startedAt"), KubeJson::timestamp(m_runStartedAt)}});
    } else if (!m_waitingReason.isEmpty()) {
        QJsonObject waiting{{QStringLiteral("reason"), m_waitingReason}};
        if (!m_waitingMessage.isEmpty())
            waiting.insert(QStringLiteral("message"), m_waitingMessage);
        state.insert(QStringLiteral("waiting"), waiting);
    } else if (!m_lastTerminated.isEmpty()) {
        state.insert(QStringLiteral("terminated"), m_lastTerminated);
    }
    QJsonObject status{
        {QStringLiteral("name"), m_container},
        {QStringLiteral("image"), m_image},
        {QStringLiteral("imageID"), QStringLiteral("chaoscope://%1").arg(m_image)},
        {QStringLiteral("ready"), m_ready},
        {QStringLiteral("started"), isRunning()},
        {QStringLiteral("restartCount"), m_restartCount},
        {QStringLiteral("state"), state},
        {QStringLiteral("lastState"), state.contains(QStringLiteral("terminated")) || m_lastTerminated.isEmpty()
                                          ? QJsonObject()
                                          : QJsonObject{{QStringLiteral("terminated"), m_lastTerminated}}},
    };
    if (isRunning())
        status.insert(QStringLiteral("containerID"), QStringLiteral("chaoscope://%1").arg(m_process->pid()));
    return status;
}

void PodRunner::writeStatus()
{
    std::optional<QJsonObject> object = pod();
    if (!object)
        return;
    QJsonObject status = object->value(QStringLiteral("status")).toObject();
    const bool running = isRunning();
    status.insert(QStringLiteral("phase"), m_started ? QStringLiteral("Running") : QStringLiteral("Pending"));
    status.insert(QStringLiteral("hostIP"), QStringLiteral("127.0.0.1"));
    if (running) {
        status.insert(QStringLiteral("podIP"), QStringLiteral("127.0.0.1"));
        status.insert(QStringLiteral("podIPs"),
                      QJsonArray{QJsonObject{{QStringLiteral("ip"), QStringLiteral("127.0.0.1")}}});
    }
    if (!m_podStartTime.isEmpty())
        status.insert(QStringLiteral("startTime"), m_podStartTime);
    status.insert(QStringLiteral("qosClass"), QStringLiteral("Burstable"));

    // Conditions keep their transition time until their status changes.
    const QJsonArray oldConditions = status.value(QStringLiteral("conditions")).toArray();
    const auto condition = [&](const QString &type, bool value) {
        const QString text = value ? QStringLiteral("True") : QStringLiteral("False");
        for (const QJsonValue old : oldConditions) {
            QJsonObject c = old.toObject();
            if (c.value(QStringLiteral("type")) == type && c.value(QStringLiteral("status")) == text)
                return c;
        }
        return QJsonObject{{QStringLiteral("type"), type},
                           {QStringLiteral("status"), text},
                           {QStringLiteral("lastProbeTime"), QJsonValue::Null},
                           {QStringLiteral("lastTransitionTime"), KubeJson::now()}};
    };
    status.insert(QStringLiteral("conditions"), QJsonArray{condition(QStringLiteral("Initialized"), true),
                                                           condition(QStringLiteral("Ready"), m_ready),
                                                           condition(QStringLiteral("ContainersReady"), m_ready),
                                                           condition(QStringLiteral("PodScheduled"), true)});
    status.insert(QStringLiteral("containerStatuses"), QJsonArray{containerStatus()});
    object->insert(QStringLiteral("status"), status);
    // Not an API field: where the cluster found the container's port (for service discovery).
    QJsonObject annotations = KubeJson::at(*object, QStringLiteral("metadata.annotations")).toObject();
    if (m_port != 0 && running)
        annotations.insert(QStringLiteral("testbed.chaoscope.io/port"), QString::number(m_port));
    else
        annotations.remove(QStringLiteral("testbed.chaoscope.io/port"));
    KubeJson::set(*object, QStringLiteral("metadata.annotations"), annotations);
    m_env.store.update(QStringLiteral("pods"), *object);
}
