// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dashboard/dashboarddefinition.h"

#include <QString>

namespace SeriesReference {

// What the store holds for a panel's series definition, as a SeriesKey reference: a formula's
// key, a load tester or Kubernetes value's key, or the prefix of every series of a query.
QString of(int panel, int index, const SeriesDefinition &definition);

} // namespace SeriesReference
