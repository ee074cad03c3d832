// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clusterconfig.h"

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// How a pod's container becomes a command line: the image's program, the port flag (the
// containerPort, or 0 for a free one), the pod name as the replica's instance name, the
// resource limits as --cpu-limit / --memory-limit, every env var as a flag (RATE=50 ->
// --rate 50, POOL_SIZE -> --pool-size) and in the environment, then the args.
struct ContainerLaunch
{
    QString program;
    QStringList arguments;
    QProcessEnvironment environment;
    // When the container cannot start: the waiting reason the API shows and why.
    QString waitingReason; // ErrImagePull, CreateContainerConfigError, RunContainerError
    QString message;

    bool isRunnable() const { return waitingReason.isEmpty(); }

    // `binaryDirs`: where to look for an image's program before PATH.
    static ContainerLaunch build(const QJsonObject &pod, const QJsonObject &container,
                                 const QMap<QString, ImageSpec> &images, const QStringList &binaryDirs);
    static QString flagFor(const QString &envName); // "POOL_SIZE" -> "--pool-size"
    static QString findBinary(const QString &binary, const QStringList &dirs);
};
