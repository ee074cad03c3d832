// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "dashboard/dashboarddefinition.h"

#include <QJsonValue>

// "loadTester": {"kind": "starter", "admin": [...] | "discover": {"job": ...}, "tokenFile"
// | "tokenEnv", "spawnRate"}. A token itself is refused: it never belongs in a file.
class LoadTesterSection
{
public:
    explicit LoadTesterSection(JsonSection &json) : m_json(json) {}
    void read(const QJsonValue &value, LoadTesterDefinition &loadTester);

private:
    JsonSection &m_json;
};
