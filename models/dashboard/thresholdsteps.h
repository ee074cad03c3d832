// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <cmath>
#include <limits>
#include <vector>

// The colour a value takes from where it lies, as Grafana's threshold steps: the first step
// is the base (from -infinity), each next one starts at its value. A stat tile shows its
// number in this colour, so "red above 5 % drops" is read without reading the digits.
struct ThresholdStep
{
    double from = -std::numeric_limits<double>::infinity();
    QString color; // "#RRGGBB"
};

namespace ThresholdSteps {

// The step the value falls in; empty for no steps or a value that is not a number.
inline QString colorFor(const std::vector<ThresholdStep> &steps, double value)
{
    if (std::isnan(value))
        return {};
    QString color;
    for (const ThresholdStep &step : steps) {
        if (value >= step.from)
            color = step.color;
    }
    return color;
}

} // namespace ThresholdSteps
