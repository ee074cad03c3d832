// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QByteArray>
#include <QJsonObject>

// Writes a dashboard definition as the JSON DashboardLoader reads (docs/dashboards.md), so
// that reading it back gives the same definition: a session stores its dashboard this way.
// Every key is written, defaults included, so the file says what was shown. It holds no
// secret: a dashboard names where a token is (tokenFile, tokenEnv), never the token. A field
// added to DashboardDefinition must be written here too (the round-trip test over the
// built-in dashboards notices when it is not).
namespace DashboardWriter {

QJsonObject toJsonObject(const DashboardDefinition &dashboard);
QByteArray toJson(const DashboardDefinition &dashboard); // indented

} // namespace DashboardWriter
