// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/detectors.h"

#include "base/format.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <deque>

namespace Detectors {

namespace {

QString number(double value)
{
    // A backlog of 1.72 M reads at a glance on a marker, 1719551 does not; whole numbers up
    // to 10,000 read better without decimals, small ones keep three digits.
    if (std::abs(value) >= 10'000)
        return Format::value(value, QString());
    return std::abs(value) >= 10 ? QLocale::c().toString(std::round(value), 'f', 0)
                                 : QLocale::c().toString(value, 'g', 3);
}

} // namespace

std::vector<DetectorSuggestion> throughputDrops(Times t, Values v, const QString &seriesName,
                                                const DetectorThresholds &thresholds)
{
    std::vector<DetectorSuggestion> out;
    // Sliding window maximum over the samples in [t[i] - within, t[i]).
    std::deque<std::size_t> window;   // indices, values decreasing
    std::optional<double> armedBelow; // while set, a drop is in progress: wait for recovery
    for (std::size_t i = 0; i < t.size(); ++i) {
        while (!window.empty() && t[window.front()] < t[i] - thresholds.dropWithinMs)
            window.pop_front();
        const double value = v[i];
        if (std::isfinite(value) && !window.empty()) {
            const double peak = v[window.front()];
            const double level = peak * (1 - thresholds.dropPercent / 100);
            if (armedBelow && value > *armedBelow)
                armedBelow.reset(); // recovered: the next fall is a new event
            if (!armedBelow && peak >= thresholds.dropFloor && value < level) {
                const double percent = 100 * (peak - value) / peak;
                const qint64 since = t[i] - t[window.front()];
                out.push_back(
                    {t[i], std::nullopt,
                     QStringLiteral("%1 fell %2 % in %3 (%4 → %5)")
                         .arg(seriesName, number(percent), Format::duration(since), number(peak), number(value)),
                     QStringLiteral("throughput-drop")});
                armedBelow = level;
            }
        }
        if (std::isfinite(value)) {
            while (!window.empty() && v[window.back()] <= value)
                window.pop_back();
            window.push_back(i);
        }
    }
    return out;
}

std::vector<DetectorSuggestion> targetUpDown(Times t, Values up, const QString &target)
{
    std::vector<DetectorSuggestion> out;
    std::optional<bool> last;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!std::isfinite(up[i]))
            continue;
        const bool isUp = up[i] >= 0.5;
        if (last && *last != isUp) {
            out.push_back(
                {t[i], std::nullopt,
                 isUp ? QStringLiteral("%1 is back up").arg(target) : QStringLiteral("%1 went down").arg(target),
                 isUp ? QStringLiteral("target-up") : QStringLiteral("target-down")});
        }
        last = isUp;
    }
    return out;
}

std::vector<DetectorSuggestion> backlogGrowsWhileFlat(Times backlogT, Values backlog, Times throughputT,
                                                      Values throughput, const DetectorThresholds &thresholds)
{
    std::vector<DetectorSuggestion> out;
    const auto report = [&](std::size_t first, std::size_t last) {
        if (backlogT[last] - backlogT[first] < thresholds.backlogGrowthMs || backlog[last] <= backlog[first])
            return;
        // Throughput over the same stretch, from its nearest samples.
        double low = std::numeric_limits<double>::infinity();
        double high = -low;
        double sum = 0;
        int count = 0;
        const auto from = std::lower_bound(throughputT.begin(), throughputT.end(), backlogT[first]);
        const auto to = std::upper_bound(from, throughputT.end(), backlogT[last]);
        for (auto it = from; it != to; ++it) {
            const double value = throughput[std::size_t(it - throughputT.begin())];
            if (!std::isfinite(value))
                continue;
            low = std::min(low, value);
            high = std::max(high, value);
            sum += value;
            ++count;
        }
        if (count < 2)
            return;
        const double mean = sum / count;
        if (mean <= 0 || (high - low) / 2 > mean * thresholds.flatPercent / 100)
            return;
        out.push_back({backlogT[first], backlogT[last],
                       QStringLiteral("backlog grew %1 → %2 over %3 while throughput stayed at %4/s")
                           .arg(number(backlog[first]), number(backlog[last]),
                                Format::duration(backlogT[last] - backlogT[first]), number(mean)),
                       QStringLiteral("backlog-growth")});
    };
    // Growing at sample i: clearly above where it was one window (a minute) earlier. Comparing
    // across a window rather than sample to sample lets a gauge that jitters while the
    // exporter flushes still count as growing, and a flat one not.
    constexpr qint64 kWindowMs = 60'000;
    const auto growing = [&](std::size_t i) {
        const auto before = std::upper_bound(backlogT.begin(), backlogT.end(), backlogT[i] - kWindowMs);
        if (before == backlogT.begin())
            return false;
        const double earlier = backlog[std::size_t(before - backlogT.begin()) - 1];
        return backlog[i] > earlier + std::max(1.0, 0.005 * std::abs(earlier));
    };
    const auto reportRun = [&](std::size_t firstGrowing, std::size_t lastGrowing) {
        // The run began where the backlog last sat at its low level (within 0.5 % of the lowest
        // value of the window before its first growing sample), and ended where it first came
        // within 0.5 % of its highest value.
        const std::size_t windowStart = std::size_t(
            std::lower_bound(backlogT.begin(), backlogT.end(), backlogT[firstGrowing] - kWindowMs) - backlogT.begin());
        double lowest = backlog[windowStart];
        for (std::size_t i = windowStart; i <= firstGrowing; ++i)
            lowest = std::min(lowest, backlog[i]);
        std::size_t first = windowStart;
        for (std::size_t i = windowStart; i <= firstGrowing; ++i) {
            if (backlog[i] <= lowest + std::max(1.0, 0.005 * std::abs(lowest)))
                first = i;
        }
        double highest = backlog[first];
        for (std::size_t i = first; i <= lastGrowing; ++i)
            highest = std::max(highest, backlog[i]);
        std::size_t last = lastGrowing;
        for (std::size_t i = first; i <= lastGrowing; ++i) {
            if (backlog[i] >= highest - 0.005 * std::abs(highest)) {
                last = i;
                break;
            }
        }
        report(first, last);
    };
    // An index and a flag rather than std::optional: with the optional, GCC's -O2 flow
    // analysis warns (falsely) that it may be read uninitialised, failing -Werror builds.
    std::size_t runStart = 0;
    bool inRun = false;
    for (std::size_t i = 0; i < backlogT.size(); ++i) {
        if (std::isfinite(backlog[i]) && growing(i)) {
            if (!inRun)
                runStart = i;
            inRun = true;
            continue;
        }
        if (inRun)
            reportRun(runStart, i - 1);
        inRun = false;
    }
    if (inRun)
        reportRun(runStart, backlogT.size() - 1);
    return out;
}

std::vector<DetectorSuggestion> rateAbove(Times t, Values v, const QString &seriesName, const QString &unit,
                                          const DetectorThresholds &thresholds)
{
    std::vector<DetectorSuggestion> out;
    bool above = false;
    bool armed = true;       // quiet long enough for a rise to be a new event
    qint64 quietSinceMs = 0; // when it last went to or below the threshold
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!std::isfinite(v[i]))
            continue;
        const bool now = v[i] > thresholds.rateAbove;
        if (!now && above)
            quietSinceMs = t[i];
        if (!now && !armed && t[i] - quietSinceMs >= thresholds.rateQuietMs)
            armed = true;
        if (now && !above && armed) {
            armed = false;
            out.push_back({t[i], std::nullopt,
                           QStringLiteral("%1 rose to %2%3 (above %4%3)")
                               .arg(seriesName, number(v[i]), unit, number(thresholds.rateAbove)),
                           QStringLiteral("rate-above")});
        }
        above = now;
    }
    return out;
}

} // namespace Detectors
