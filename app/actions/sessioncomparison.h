// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "dashboard/dashboarddefinition.h"
#include "session/format/sessioncontents.h"

#include <QString>

// What two recordings compared have to agree on, and what of a recording is its run.
namespace SessionComparison {

// From the start of the recording to the last thing recorded (within what a trimmed copy
// kept): what a live run fetched of the past before it began (its first window, backfilled
// from Prometheus) is not part of it.
TimeRange runOf(const SessionContents &contents);

// Why two dashboards' queries differ, the first difference in words; empty when they match.
QString queryDifference(const DashboardDefinition &first, const DashboardDefinition &second);

} // namespace SessionComparison
