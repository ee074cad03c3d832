// SPDX-License-Identifier: GPL-3.0-or-later
#include "prometheus/stepplanner.h"

#include <algorithm>
#include <array>

namespace {

constexpr qint64 kSecond = 1000;
constexpr qint64 kMinute = 60 * kSecond;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

// Steps a person reads without arithmetic; each divides the next larger unit, so a grid of
// one of them stays put when the window slides (live polls hit the same instants).
constexpr std::array kNiceSteps{
    1 * kSecond, 2 * kSecond, 5 * kSecond, 10 * kSecond, 15 * kSecond, 30 * kSecond,
    1 * kMinute, 2 * kMinute, 5 * kMinute, 10 * kMinute, 15 * kMinute, 30 * kMinute,
    1 * kHour,   2 * kHour,   3 * kHour,   6 * kHour,    12 * kHour,   1 * kDay,
};

// b > 0; truncating division already rounds a negative quotient up.
qint64 ceilDiv(qint64 a, qint64 b)
{
    return a > 0 ? (a - 1) / b + 1 : a / b;
}

qint64 floorToMultiple(qint64 value, qint64 step)
{
    qint64 rem = value % step;
    if (rem < 0)
        rem += step; // times before the epoch still round towards -infinity
    return value - rem;
}

qint64 niceStepAtLeast(qint64 ms)
{
    for (const qint64 nice : kNiceSteps) {
        if (nice >= ms)
            return nice;
    }
    return ceilDiv(ms, kDay) * kDay; // beyond a day: whole days
}

} // namespace

namespace StepPlanner {

qint64 chooseStepMs(qint64 windowMs, int pixelWidth, qint64 scrapeIntervalMs)
{
    qint64 wanted = kSecond;
    if (windowMs > 0) {
        // About one evaluation per pixel column; more would be drawn on top of each other.
        wanted = std::max(wanted, ceilDiv(windowMs, std::max(pixelWidth, 1)));
        // A very wide panel must still fit one request (n points span n-1 steps).
        wanted = std::max(wanted, ceilDiv(windowMs, kServerMaxPointsPerSeries - 1));
    }
    // Below the scrape interval every extra point only repeats the previous sample.
    if (scrapeIntervalMs > 0)
        wanted = std::max(wanted, scrapeIntervalMs);
    return niceStepAtLeast(wanted);
}

TimeRange alignToStep(const TimeRange &range, qint64 stepMs)
{
    if (stepMs <= 0)
        return range;
    return TimeRange{floorToMultiple(range.startMs, stepMs), floorToMultiple(range.endMs, stepMs)};
}

std::vector<TimeRange> splitRange(const TimeRange &range, qint64 stepMs, int maxPoints)
{
    std::vector<TimeRange> chunks;
    if (range.isEmpty() || stepMs <= 0)
        return chunks;
    maxPoints = std::max(maxPoints, 1);
    // Instants are start + k*step up to end. A chunk of maxPoints instants spans
    // (maxPoints-1) steps; the next chunk starts one step after the previous chunk's last
    // instant, so no instant is asked for twice or skipped.
    const qint64 chunkSpan = (static_cast<qint64>(maxPoints) - 1) * stepMs;
    const qint64 chunkStride = static_cast<qint64>(maxPoints) * stepMs;
    const qint64 totalInstants = (range.endMs - range.startMs) / stepMs + 1;
    chunks.reserve(static_cast<size_t>(ceilDiv(totalInstants, maxPoints)));
    for (qint64 start = range.startMs; start <= range.endMs; start += chunkStride) {
        // The last chunk (no instant left after it) keeps the caller's end, so the union is
        // exactly the caller's range.
        if (range.endMs - start < chunkStride) {
            chunks.push_back(TimeRange{start, range.endMs});
            break;
        }
        chunks.push_back(TimeRange{start, start + chunkSpan});
    }
    return chunks;
}

} // namespace StepPlanner
