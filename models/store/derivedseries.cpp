// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/derivedseries.h"

#include <algorithm>
#include <array>

namespace DerivedSeries {

namespace {
constexpr std::array<Builtin, 6> kBuiltins{{
    {"littles_law", "pending / rate", "queue wait (Little's law)", "s"},
    {"pool_ceiling", "pool / duration", "pool ceiling", "ops/s"},
    {"export_delay", "backlog / rate", "export delay", "s"},
    {"sustainable_rate", "rate / recordsPerInstance", "sustainable PI/s", "ops/s"},
    {"worker_ceiling", "threads / duration", "worker ceiling", "ops/s"},
    {"gap", "sent - accepted", "sent − accepted gap", "ops/s"},
}};
} // namespace

std::span<const Builtin> builtins()
{
    return kBuiltins;
}

const Builtin *builtin(const QString &name)
{
    for (const Builtin &b : kBuiltins) {
        if (name == QLatin1String(b.name))
            return &b;
    }
    return nullptr;
}

qsizetype nearestWithin(std::span<const qint64> timestampsMs, qint64 timeMs, qint64 toleranceMs)
{
    const auto after = std::lower_bound(timestampsMs.begin(), timestampsMs.end(), timeMs);
    qsizetype best = -1;
    qint64 bestDistance = toleranceMs;
    if (after != timestampsMs.end() && *after - timeMs <= bestDistance) {
        best = after - timestampsMs.begin();
        bestDistance = *after - timeMs;
    }
    if (after != timestampsMs.begin() && timeMs - *(after - 1) <= bestDistance)
        best = (after - 1) - timestampsMs.begin(); // ties go to the earlier sample
    return best;
}

Output compute(const DerivedExpression &expression, const std::vector<Input> &inputs, qint64 toleranceMs, qint64 fromMs,
               qint64 toMs)
{
    Output out;
    const qsizetype inputCount = expression.inputs().size();
    if (inputCount == 0 || qsizetype(inputs.size()) < inputCount)
        return out;
    const Input &anchor = inputs[0];
    const auto first = std::lower_bound(anchor.timestampsMs.begin(), anchor.timestampsMs.end(), fromMs);
    const auto last = std::upper_bound(first, anchor.timestampsMs.end(), toMs);
    out.timestampsMs.reserve(std::size_t(last - first));
    out.values.reserve(std::size_t(last - first));
    for (auto it = first; it != last; ++it) {
        const qint64 t = *it;
        const std::size_t anchorIndex = std::size_t(it - anchor.timestampsMs.begin());
        const auto value = expression.evaluate([&](int i) -> std::optional<double> {
            if (i == 0)
                return anchor.values[anchorIndex];
            const Input &input = inputs[std::size_t(i)];
            const qsizetype index = nearestWithin(input.timestampsMs, t, toleranceMs);
            if (index < 0)
                return std::nullopt;
            return input.values[std::size_t(index)];
        });
        if (value) {
            out.timestampsMs.push_back(t);
            out.values.push_back(*value);
        }
    }
    return out;
}

} // namespace DerivedSeries
