// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/derivedexpression.h"

#include <QString>
#include <QtGlobal>
#include <limits>
#include <span>
#include <vector>

// Computes a derived series from its inputs' samples.
//
// Alignment: the derived series has a sample at every timestamp of its first input (the
// anchor). Every other input contributes its nearest sample within `toleranceMs` of that
// instant (Prometheus range queries of one panel share a step grid, so with the tolerance
// set to one step the match is exact in practice; a scrape-time mismatch of a few ms still
// pairs up). An input with no sample within the tolerance leaves a gap there, as does a
// division by zero: the formula is drawn only where every input has a value.
namespace DerivedSeries {

struct Input
{
    std::span<const qint64> timestampsMs; // ascending
    std::span<const double> values;
};

struct Output
{
    std::vector<qint64> timestampsMs;
    std::vector<double> values;
};

// inputs[i] feeds expression.inputs()[i]. Only anchor timestamps within [fromMs, toMs]
// are computed, so a live update recomputes the new tail only.
Output compute(const DerivedExpression &expression, const std::vector<Input> &inputs, qint64 toleranceMs,
               qint64 fromMs = std::numeric_limits<qint64>::min(), qint64 toMs = std::numeric_limits<qint64>::max());

// The named derivations of docs/metrics.md, each a formula over named inputs that the dashboard
// maps to series: {"derive": "littles_law", "inputs": {"pending": …, "rate": …}}.
struct Builtin
{
    const char *name;    // "littles_law"
    const char *formula; // "pending / rate"
    const char *title;   // "queue wait (Little's law)"
    const char *unit;    // unit of the result: "s", "ops/s", ...
};
std::span<const Builtin> builtins();
const Builtin *builtin(const QString &name); // nullptr when unknown

// The nearest sample's index within tolerance of timeMs, or -1.
qsizetype nearestWithin(std::span<const qint64> timestampsMs, qint64 timeMs, qint64 toleranceMs);

} // namespace DerivedSeries
