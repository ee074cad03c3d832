// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "dashboard/dashboarddefinition.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <optional>

// "detectors": [{"kind": "throughputDrop", "series": "completed", "dropPercent": 30}, ...]
// Read after the panels: a detector names the series ids they declare.
class DetectorsSection
{
public:
    explicit DetectorsSection(JsonSection &json) : m_json(json) {}
    // A detector without a usable kind or series is dropped; a bad threshold keeps its default.
    void read(const QJsonValue &value, DashboardDefinition &dashboard);

private:
    std::optional<DetectorDefinition> readDetector(const QJsonObject &object, const QString &path,
                                                   const QStringList &ids);

    JsonSection &m_json;
};
