// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QString>
#include <optional>
#include <vector>

class SampleStore;

// A heatmap of a Prometheus histogram: time in columns, buckets in rows, how many
// observations fell into each bucket in each column. The panel's series are the
// histogram's cumulative `_bucket` series (one per `le` bound, as `sum by (le) (rate(…))`
// returns them); the grid takes each column's mean of every series, adds up the series of
// one bound (a query without `sum by (le)` returns one per pod) and subtracts the bound
// below, so a row holds its own bucket, not everything under it. Pure: it reads the store
// and nothing else, so the render job computes it on its worker thread.
struct HeatmapGrid
{
    std::vector<double> upperBounds; // ascending; the last one may be +inf (the open bucket)
    qint64 firstColumnMs = 0;        // the start of column 0, a multiple of columnMs
    qint64 columnMs = 1;
    int columns = 0;
    // Column-major: cells[column * rows() + row]. The row's own bucket, in what the query
    // returns (a per-second rate, or an increase per step);
    // NaN where a column has no sample of the bucket or the one below it.
    std::vector<double> cells;
    double maxCell = 0;   // the largest finite cell: the top of the colour scale
    double total = 0;     // all the cells added up
    double openTotal = 0; // the open (+inf) row's cells added up; 0 without one

    int rows() const { return int(upperBounds.size()); }
    double cell(int column, int row) const
    {
        return cells[std::size_t(column) * upperBounds.size() + std::size_t(row)];
    }
    bool hasData() const { return maxCell > 0; }
    int filledCells() const; // cells that saw an observation: what a picture shows coloured
    bool hasOpenBucket() const;
    // The column an instant falls in; nullopt outside the grid.
    std::optional<int> columnAt(qint64 timeMs) const;
    qint64 columnStartMs(int column) const { return firstColumnMs + qint64(column) * columnMs; }
    // "≤ 5 ms", "5 ms – 10 ms", "> 10 s" (Format::value of the bounds in the panel's unit).
    QString rowName(int row, const QString &unit) const;
    // What the panel says under its plot: "11 buckets up to 10 s · above 10 s: 4.2 %" (the
    // finite buckets, and the open one's share of all observations).
    QString summary(const QString &unit) const;
};

namespace Heatmap {

// A bucket's bound from its `le` label: "0.25", "1e-3", "+Inf". nullopt: not a bound.
std::optional<double> parseBound(const QString &le);

// How wide a column is: one poll step (1 s when unknown), made a whole number of steps that
// is at least kMinColumnPx pixel columns wide, so that cells stay visible in a long window.
// Columns start at multiples of it from the epoch, so that a live window that moves on keeps
// its columns where they were.
constexpr int kMinColumnPx = 4;
qint64 columnMsFor(qint64 stepMs, qint64 pixelColumnMs);

// The grid of the given series over the range. Series without a parsable `le` label are
// left out; none at all gives a grid with no rows.
HeatmapGrid compute(const SampleStore &store, const std::vector<QString> &keys, const TimeRange &range,
                    qint64 columnMs);

// Where the rows' edges are, as fractions of the plot's height from the bottom (rows() + 1
// of them, ascending from 0 to 1). Logarithmic: by the logarithm of the bounds, as latency
// buckets grow by factors; linear: by the bounds themselves. The lowest row reaches down as
// far as the one above it is high (log) or to zero (linear); the open row is as high as the
// average finite one. Bounds that a logarithm cannot place (≤ 0) give equal rows.
std::vector<double> rowEdges(const std::vector<double> &upperBounds, bool logarithmic);

} // namespace Heatmap
