// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What a Grafana unit id ("reqps", "ms", "percentunit", "bytes") becomes in Chaoscope, whose
// axes know "ops/s", "s", "bytes", "%" and plain text. Grafana scales at display time;
// Chaoscope has one unit per quantity, so a unit Chaoscope only knows a multiple of (ms, µs,
// KiB, 0–1 ratios) becomes the base unit with the query multiplied by `factor`
// (`(expr) / 1000` for ms): the axis then reads "12.3 ms" again through Format::value.
struct GrafanaUnit
{
    QString unit;      // Chaoscope's unit: "ops/s", "s", "bytes", "%", "B/s", "" or a suffix
    double factor = 1; // multiply the query's values by this to get `unit`
    bool known = true; // false: not understood; `unit` is "" (a plain number)

    static GrafanaUnit fromId(const QString &grafanaId);
    // "(rate(x[1m])) / 1000" for factor 0.001; the query itself for 1.
    QString scaleQuery(const QString &query) const;
};
