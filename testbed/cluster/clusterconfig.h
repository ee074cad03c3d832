// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

// What an image of the testbed is: which program runs, and how the pod's facts reach its
// command line. Env vars become flags (RATE -> --rate), args follow as they are.
struct ImageSpec
{
    QString binary;                              // a name (looked up next to chaoscope-cluster, then PATH) or a path
    QString portFlag = QStringLiteral("--port"); // 0 (a free port) unless the pod has a containerPort
    QString podNameFlag;                         // e.g. --instance: each replica its own name
    QString cpuLimitFlag;                        // resources.limits.cpu, in cores
    QString memoryLimitFlag;                     // resources.limits.memory, in bytes
    QString readinessPath = QStringLiteral("/health/liveness");
};

struct WorkloadSpec
{
    QString kind; // Deployment or StatefulSet
    QString name;
    int replicas = 1;
    QString image;
    QList<QPair<QString, QString>> env;
    QStringList args;
    QJsonObject resources; // {"limits": {...}, "requests": {...}}
    int containerPort = 0; // 0 = a free port per replica
    QJsonObject labels;
    int terminationGracePeriodSeconds = 10;
};

// The cluster's config file (JSON; see testbed/README.md): its namespace, its workloads, and
// optionally more images and limits.
struct ClusterConfig
{
    QString ns = QStringLiteral("default");
    QString node = QStringLiteral("chaoscope-node");
    int maxReplicas = 10;            // per workload: the testbed machine has two cores
    int restartBackoffSeconds = 10;  // first CrashLoopBackOff delay (doubles up to 300 s)
    QMap<QString, ImageSpec> images; // the built-in chaoscope/* ones plus the file's
    QList<WorkloadSpec> workloads;

    static QMap<QString, ImageSpec> builtinImages();
    // Reads and checks the file; a message naming the file and what is wrong otherwise.
    static std::optional<ClusterConfig> load(const QString &path, QString *error);
    static std::optional<ClusterConfig> parse(const QByteArray &json, QString *error);
};
