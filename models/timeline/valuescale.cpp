// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline/valuescale.h"

#include <algorithm>
#include <cmath>

namespace {

// A tick every this many pixels of plot height, or a little more.
constexpr double kTickSpacingPx = 70;
constexpr int kMinTicks = 2;
constexpr int kMaxTicks = 6;
// A dip below zero smaller than this share of the highest value is not worth a step of the
// plot: a derived "sent − accepted" at −7 for a second at start beside a throughput of 150
// once took a third of the throughput panel below zero, and −30 for a second when a limit was
// set beside 400 took a quarter. It is cut at the axis (a few pixels), and the legend says so
// (PanelWidget, FigurePainter: "↓ −30.2 below the axis").
constexpr double kNegligibleBelowZero = 0.10;

} // namespace

int ValueScale::count() const
{
    if (!(step > 0) || !(high >= low))
        return 0;
    return int(std::llround((high - low) / step)) + 1;
}

double ValueScale::tick(int i) const
{
    return double(std::llround(low / step) + i) * step;
}

ValueScale ValueScale::nice(double min, double max, int targetTicks)
{
    if (!std::isfinite(min) || !std::isfinite(max) || max < min) {
        min = 0;
        max = 1;
    }
    if (min >= 0 || (max > 0 && -min <= kNegligibleBelowZero * max))
        min = 0;
    if (max <= 0 && min < 0)
        max = 0;
    if (max - min <= 0)
        max = min + (min == 0 ? 1 : std::abs(min));
    const double raw = (max - min) / std::max(1, targetTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    // A step a hair short of the rough one still counts: 0–1000 in 4 is 250, not 500.
    double step = 10 * magnitude;
    for (double factor : {1.0, 2.0, 2.5, 5.0}) {
        if (factor * magnitude >= raw * 0.999) {
            step = factor * magnitude;
            break;
        }
    }
    // The epsilons keep a value that is a whole number of steps (up to rounding) on its tick
    // instead of adding a step beyond it.
    ValueScale scale;
    scale.step = step;
    scale.low = std::floor(min / step + 1e-9) * step;
    scale.high = std::ceil(max / step - 1e-9) * step;
    if (scale.high <= scale.low)
        scale.high = scale.low + step;
    return scale;
}

int ValueScale::targetTicksFor(double plotHeightPx)
{
    if (!(plotHeightPx > 0))
        return kMinTicks;
    return int(std::clamp(plotHeightPx / kTickSpacingPx, double(kMinTicks), double(kMaxTicks)));
}
