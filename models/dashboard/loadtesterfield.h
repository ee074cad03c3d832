// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What the load tester itself reports, recordable as a series beside Prometheus' ones: the
// set-point next to the observation. A dashboard names the field ("loadTester": "rate");
// the load tester's recorder (loadtester/loadtesterseries.h) writes it under storeKey().
enum class LoadTesterField
{
    None,
    Rate,
    InflightLimit,
    Inflight,
    Pending,
    Paused
};

namespace LoadTesterFields {
LoadTesterField fromName(const QString &name); // "rate", "inflightLimit", …; None if unknown
QString name(LoadTesterField field);
QString storeKey(LoadTesterField field);      // "loadtester/rate"
QString defaultLegend(LoadTesterField field); // "rate set-point"
} // namespace LoadTesterFields
