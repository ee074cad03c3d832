// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QUrl>

// What a job worker is configured with, in the names of the Camunda Java client (seed 004:
// capacity = maxJobsActive, threads = execution threads, handler duration = the load test's
// completionDelay, timeout = the job timeout the engine gives each activation).
struct WorkerSettings
{
    QUrl engine = QUrl(QStringLiteral("http://127.0.0.1:8080"));
    QString jobType;
    QString name;                // the worker name the engine sees (the pod name)
    int capacity = 32;           // maxJobsActive
    int threads = 10;            // jobs handled at once
    double handlerSeconds = 0.3; // how long handling one job takes
    double timeoutSeconds = 300; // job timeout (the Java client's default: 5 minutes)
    bool stream = true;          // receive pushed jobs (job streaming)
    double pollIntervalSeconds = 0.1;
    double requestTimeoutSeconds = 10; // long polling
    double activationThreshold = 0.3;  // poll when holding at most this share of the capacity

    // The bound of seed 004: a full worker still meets every deadline below this capacity.
    double safeCapacity() const { return threads * timeoutSeconds / handlerSeconds; }
    double ceilingPerSecond() const { return threads / handlerSeconds; }
};
