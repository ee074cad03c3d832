// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineconfig.h"

QString toString(ServiceDistribution distribution)
{
    return distribution == ServiceDistribution::Exponential ? QStringLiteral("exponential") : QStringLiteral("fixed");
}

QJsonObject toJson(const EngineConfig &config)
{
    return QJsonObject{
        {QStringLiteral("workers"), config.workers},
        {QStringLiteral("serviceTime"), config.serviceTimeSeconds},
        {QStringLiteral("exportRate"), config.exportRate},
        {QStringLiteral("acceptableBacklog"), config.acceptableBacklog},
        // Read-only here, shown so that one GET tells the whole capacity picture.
        {QStringLiteral("serviceDistribution"), toString(config.serviceDistribution)},
        {QStringLiteral("queue"), config.queueCapacity},
        {QStringLiteral("recordsPerInstance"), config.recordsPerInstance},
    };
}
