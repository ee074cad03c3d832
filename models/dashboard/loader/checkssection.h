// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/jsonsection.h"
#include "checks/check.h"
#include "dashboard/dashboarddefinition.h"

#include <QJsonValue>
#include <QList>
#include <QSet>
#include <QString>
#include <optional>

// One check as a dashboard's "checks" and a scenario's "expect" and "guards" write it:
// {"name": "pending growth", "query": "sum(http_client_pool_pending)" | "series": "pending",
//  "holds": "< 5000", "for": "10s", "severity": "critical" | "warning", "unit": "",
//  "during": ["overload"], "after": "30s"}
// A check with any mistake is not judged: every mistake is reported where it is, and nothing
// is returned. `extraKeys` are the keys the caller reads itself (a guard's "then").
namespace CheckReader {

std::optional<Check> read(const QJsonValue &value, const QString &path, const QSet<QString> &extraKeys,
                          QList<DashboardIssue> *issues);

} // namespace CheckReader

// "checks": [ {check}, … ] of a dashboard: steady-state levels drawn on the panels that show
// their series and judged from the samples drawn (CheckJudgement), per phase between the
// annotations. Read after the panels: a check's "series" names an id they declare.
class ChecksSection
{
public:
    explicit ChecksSection(JsonSection &json) : m_json(json) {}
    void read(const QJsonValue &value, DashboardDefinition &dashboard);

private:
    JsonSection &m_json;
};
