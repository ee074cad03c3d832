// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QString>
#include <vector>

class SampleStore;

// The exact samples behind a panel as CSV (RFC 4180), for readers who want to redraw or check
// a published chart: one "time" column (UTC ISO-8601 with milliseconds), then one column per
// series headed by its legend name; one row per timestamp any series has in the range, an
// empty cell where a series has no sample at that instant. Values are written with the
// fewest digits that read back to the same double; non-finite ones as NaN, +Inf, -Inf.
namespace PanelCsv {

struct Column
{
    QString key;    // SampleStore key; an unknown key gives an empty column
    QString header; // the legend name
};

// Lines end with CRLF, as RFC 4180 asks.
QString write(const SampleStore &store, const std::vector<Column> &columns, const TimeRange &range);
// One field, quoted when it holds a comma, a quote, CR or LF (quotes doubled inside).
QString quoted(const QString &field);
// A value with the fewest digits that read back to the same double; NaN, +Inf, -Inf.
QString number(double value);
// "2026-03-01T09:43:07.250Z"
QString timestamp(qint64 utcMs);

} // namespace PanelCsv
