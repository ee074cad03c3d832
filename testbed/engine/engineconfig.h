// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <QtGlobal>

// How long one worker needs for one process instance: always the configured time, or drawn
// from an exponential distribution with that mean (closer to a real engine's spread).
enum class ServiceDistribution
{
    Fixed,
    Exponential
};

// The engine's capacity knobs. The first group can be changed at runtime through the admin
// API (chaos injection); the second is fixed at start-up.
struct EngineConfig
{
    int workers = 8;
    double serviceTimeSeconds = 0.02;
    double exportRate = 5000;     // records per second the exporter drains
    qint64 acceptableBacklog = 0; // flow control: reject while backlog > this; 0 = off

    ServiceDistribution serviceDistribution = ServiceDistribution::Fixed;
    int queueCapacity = 1000;    // instances waiting for a worker, beyond it: 503
    int recordsPerInstance = 10; // records appended to the exporter per completed instance
};

QString toString(ServiceDistribution distribution); // "fixed" | "exponential"

// The configuration as the admin API shows it (GET and PUT /admin/config).
QJsonObject toJson(const EngineConfig &config);
