// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QString>

// What a derived series is, in words for its legend's tooltip: the formula with what each of
// its names stands for, e.g.
//   queue wait (Little's law) = pending / rate
//   pending: engine queue length · rate: engine completed/s
// so that a reader of the chart knows the line is computed here, and from what.
namespace FormulaDescription {

// Empty for a series that is not derived.
QString describe(const SeriesDefinition &series, const DashboardDefinition &dashboard);

} // namespace FormulaDescription
