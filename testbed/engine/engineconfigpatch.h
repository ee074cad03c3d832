// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineconfig.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

// One PUT /admin/config request, validated: the fields it sets, or why it is refused. A
// refused request changes nothing, so validation happens completely before anything applies.
struct EngineConfigPatch
{
    static constexpr qsizetype maxBodyBytes = 4096;

    std::optional<int> workers;
    std::optional<double> serviceTimeSeconds;
    std::optional<double> exportRate;
    std::optional<qint64> acceptableBacklog;

    struct Parsed;
    static Parsed parse(const QByteArray &contentType, const QByteArray &body);

    // "workers 8 -> 2" for each field this patch changes compared to `before`.
    QStringList describeChanges(const EngineConfig &before) const;
};

struct EngineConfigPatch::Parsed
{
    std::optional<EngineConfigPatch> patch;
    QString error; // set when patch is empty; a sentence a user can act on
};
