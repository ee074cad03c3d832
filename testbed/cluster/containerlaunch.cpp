// SPDX-License-Identifier: GPL-3.0-or-later
#include "containerlaunch.h"

#include "kubejson.h"
#include "resourcequantity.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QStandardPaths>

QString ContainerLaunch::flagFor(const QString &envName)
{
    return QStringLiteral("--") + envName.toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
}

QString ContainerLaunch::findBinary(const QString &binary, const QStringList &dirs)
{
    if (QDir::isAbsolutePath(binary))
        return QFileInfo(binary).isExecutable() ? binary : QString();
    for (const QString &dir : dirs) {
        QString candidate = QDir(dir).filePath(binary);
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    }
    return QStandardPaths::findExecutable(binary);
}

ContainerLaunch ContainerLaunch::build(const QJsonObject &pod, const QJsonObject &container,
                                       const QMap<QString, ImageSpec> &images, const QStringList &binaryDirs)
{
    ContainerLaunch launch;
    const QString imageName = container.value(QStringLiteral("image")).toString();
    if (!images.contains(imageName)) {
        launch.waitingReason = QStringLiteral("ErrImagePull");
        launch.message = QStringLiteral("Failed to pull image \"%1\": this testbed cluster runs "
                                        "only its own images (%2)")
                             .arg(imageName, QStringList(images.keys()).join(QStringLiteral(", ")));
        return launch;
    }
    const ImageSpec image = images.value(imageName);
    launch.program = findBinary(image.binary, binaryDirs);
    if (launch.program.isEmpty()) {
        launch.waitingReason = QStringLiteral("RunContainerError");
        launch.message = QStringLiteral("exec: \"%1\": executable file not found next to "
                                        "chaoscope-cluster or in $PATH (build it first)")
                             .arg(image.binary);
        return launch;
    }

    const QString podName = KubeJson::at(pod, QStringLiteral("metadata.name")).toString();
    const QString ns = KubeJson::at(pod, QStringLiteral("metadata.namespace")).toString();
    if (!image.portFlag.isEmpty()) {
        const int port = container.value(QStringLiteral("ports"))
                             .toArray()
                             .at(0)
                             .toObject()
                             .value(QStringLiteral("containerPort"))
                             .toInt();
        launch.arguments << image.portFlag << QString::number(port);
    }
    if (!image.podNameFlag.isEmpty())
        launch.arguments << image.podNameFlag << podName;
    const QJsonObject limits = KubeJson::at(container, QStringLiteral("resources.limits")).toObject();
    if (!image.cpuLimitFlag.isEmpty() && limits.contains(QStringLiteral("cpu"))) {
        const auto cpu = ResourceQuantity::parse(limits.value(QStringLiteral("cpu")).toString());
        if (cpu)
            launch.arguments << image.cpuLimitFlag << QString::number(cpu->value(), 'g', 12);
    }
    if (!image.memoryLimitFlag.isEmpty() && limits.contains(QStringLiteral("memory"))) {
        const auto memory = ResourceQuantity::parse(limits.value(QStringLiteral("memory")).toString());
        if (memory)
            launch.arguments << image.memoryLimitFlag << QString::number(memory->integerValue());
    }

    launch.environment = QProcessEnvironment::systemEnvironment();
    for (const QJsonValue entry : container.value(QStringLiteral("env")).toArray()) {
        const QJsonObject env = entry.toObject();
        const QString name = env.value(QStringLiteral("name")).toString();
        QString value = env.value(QStringLiteral("value")).toString();
        if (env.contains(QStringLiteral("valueFrom"))) {
            const QString field = KubeJson::at(env, QStringLiteral("valueFrom.fieldRef.fieldPath")).toString();
            if (field == QLatin1String("metadata.name")) {
                value = podName;
            } else if (field == QLatin1String("metadata.namespace")) {
                value = ns;
            } else if (field == QLatin1String("status.podIP") || field == QLatin1String("status.hostIP")) {
                value = QStringLiteral("127.0.0.1");
            } else if (field == QLatin1String("spec.nodeName")) {
                value = KubeJson::at(pod, QStringLiteral("spec.nodeName")).toString();
            } else {
                launch.waitingReason = QStringLiteral("CreateContainerConfigError");
                launch.message = QStringLiteral("env %1: this testbed cluster resolves only "
                                                "valueFrom.fieldRef metadata.name, "
                                                "metadata.namespace, status.podIP, "
                                                "status.hostIP and spec.nodeName")
                                     .arg(name);
                return launch;
            }
        }
        launch.environment.insert(name, value);
        launch.arguments << flagFor(name) << value;
    }
    for (const QJsonValue arg : container.value(QStringLiteral("args")).toArray())
        launch.arguments << arg.toString();
    return launch;
}
