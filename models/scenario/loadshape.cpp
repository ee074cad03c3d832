// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/loadshape.h"

#include "base/format.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr int kMaxStairs = 1000;
constexpr qint64 kShortestMoveMs = 1000;

} // namespace

std::vector<LoadShape::Move> LoadShape::plan(double currentRate) const
{
    std::vector<Move> moves;
    auto add = [&moves](qint64 offsetMs, double rate) {
        if (moves.empty() || moves.back().rate != rate)
            moves.push_back({offsetMs, rate});
    };
    if (kind == Kind::Stairs) {
        const double first = from.value_or(currentRate);
        for (int i = 0; i <= kMaxStairs; ++i) {
            const double rate = first + step * i;
            if (rate > to + 1e-9 || step <= 0)
                break;
            add(everyMs * i, rate);
        }
        return moves;
    }
    const double start = from.value_or(currentRate);
    if (from)
        add(0, start);
    // As many moves as the time allows (one a second) and the distance needs (one per whole
    // set-point), evenly spread; rounding keeps a move that lands on the same whole number out.
    const qint64 byTime = std::max<qint64>(1, overMs / kShortestMoveMs);
    const qint64 byDistance = std::max<qint64>(1, qint64(std::llround(std::abs(to - start))));
    const qint64 count = std::min(byTime, byDistance);
    for (qint64 i = 1; i <= count; ++i) {
        const double rate = i == count ? to : std::round(start + (to - start) * double(i) / double(count));
        if (moves.empty() && rate == start)
            continue; // already there
        add(overMs * i / count, rate);
    }
    return moves;
}

qint64 LoadShape::durationMs() const
{
    if (kind == Kind::Ramp)
        return overMs;
    return everyMs * qint64(plan(from.value_or(0)).size());
}

QString LoadShape::describe() const
{
    if (kind == Kind::Ramp) {
        const QString range = from ? QStringLiteral("%1 → %2").arg(Format::number(*from), Format::number(to))
                                   : QStringLiteral("to %1").arg(Format::number(to));
        return QStringLiteral("ramp %1 over %2").arg(range, Format::compactDuration(overMs));
    }
    return QStringLiteral("stairs %1 → %2 by %3 every %4")
        .arg(from ? Format::number(*from) : QStringLiteral("now"), Format::number(to), Format::number(step),
             Format::compactDuration(everyMs));
}

QString LoadShape::problem() const
{
    if (to < 0 || (from && *from < 0))
        return QStringLiteral("set-points must be ≥ 0");
    if (kind == Kind::Ramp)
        return overMs <= 0 ? QStringLiteral("\"over\" must be a duration longer than 0, like \"2m\"") : QString();
    if (step <= 0)
        return QStringLiteral("\"step\" must be a number > 0");
    if (everyMs <= 0)
        return QStringLiteral("\"every\" must be a duration longer than 0, like \"1m\"");
    if (from && *from > to)
        return QStringLiteral("\"from\" is above \"until\"");
    if (from && (to - *from) / step >= kMaxStairs)
        return QStringLiteral("more than %1 stairs: take a larger \"step\"").arg(kMaxStairs);
    return {};
}
