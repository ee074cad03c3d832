// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"

#include <QStringList>
#include <optional>
#include <vector>

// What one query has in the store, and at which resolution: the ranges its answers covered,
// each with the step it was asked at. A range is covered at a step when answers at that step
// or finer, taken together, span it (give or take one step at either end), so a zoom into
// time already fetched finely asks for nothing, and a zoom out asks only for what is coarser.
class FetchCoverage
{
public:
    struct Fetched
    {
        TimeRange range;
        qint64 stepMs = 0;
        bool operator==(const Fetched &) const = default;
    };

    // An answer came for this range at this step (also when the newest instants had no
    // sample, so that an empty query is not asked again and again).
    void record(const TimeRange &range, qint64 stepMs);
    bool isCovered(const TimeRange &range, qint64 stepMs) const;
    // The end of the newest range answered; nullopt before the first answer.
    std::optional<qint64> fetchedUntil() const { return m_fetchedUntil; }
    const std::vector<Fetched> &fetched() const { return m_fetched; }
    void clear();

    // "0–3h step 15s", one line per range, then "until 3h"; times relative to originMs.
    QStringList describe(qint64 originMs) const;

private:
    std::vector<Fetched> m_fetched;
    std::optional<qint64> m_fetchedUntil;
};
