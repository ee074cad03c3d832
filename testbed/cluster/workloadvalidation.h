// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apistatus.h"

#include <QJsonObject>
#include <QList>

// The API server's validation of a changed Deployment or StatefulSet, for the fields this
// cluster acts on: what fails is answered 422 Invalid with one cause per field, and nothing
// changes. `maxReplicas` guards the two cores of the testbed machine.
namespace WorkloadValidation {

QList<ApiStatus::Cause> validate(const QJsonObject &candidate, const QJsonObject &current, int maxReplicas);

} // namespace WorkloadValidation
