// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "base/timerange.h"
#include "fetching/historyplanner.h"

#include <QtGlobal>
#include <optional>
#include <span>

// How far back a server revises what it has answered, learned from the tail polls, so that
// they ask again for everything that may still change and the recording keeps the final
// values. Prometheus revises only its newest instant (a rate() before the next scrape has
// landed), which the planner's overlap of two steps covers. VictoriaMetrics answers the last
// -search.latencyOffset (30 s by default) from data still arriving and revises all of it
// afterwards: with two steps of overlap, the values recorded for those 30 s would stay
// provisional for good (seen against a real VictoriaMetrics: points up to 30 s old changed).
//
// A tail answer that changed a sample at the oldest instant it asked for says the overlap did
// not reach back far enough: the overlap grows to twice what that answer asked for (up to
// kMaxMs), and the next polls ask again for what the short one missed. Pure value type; one
// per server (the poller's).
class RevisionWindow
{
public:
    static constexpr int kMinSteps = HistoryPlanner::kOverlapSteps;
    static constexpr qint64 kMaxMs = 300'000; // beyond it, a server answers too late to draw live

    // How far before the newest sample a tail poll at this step starts.
    qint64 overlapMs(qint64 stepMs) const;
    // A tail answer for `asked` at `stepMs` changed a sample it already had at
    // `oldestRevisedMs` (the oldest such instant of any of its series; none: nothing changed).
    // True when the overlap grew.
    bool observe(const TimeRange &asked, qint64 stepMs, std::optional<qint64> oldestRevisedMs);
    qint64 learnedMs() const { return m_learnedMs; }

    // Whether `after` revises `before`. NaN equals NaN, and so do values within the server's
    // rounding: VictoriaMetrics' sums of the same samples differ in the last digit from one
    // range asked to the next (3133.5415331522627, then 3133.541533152262), and taken as a
    // revision at the oldest instant asked, that noise doubled the overlap at every tick up to
    // kMaxMs: five minutes asked again by every refresh. A real revision (data still arriving)
    // changes a value by far more than kRoundingNoise of it.
    static constexpr double kRoundingNoise = 1e-9; // relative
    static bool isRevision(double before, double after);

    // The oldest instant of `asked` where `answer` revises what is stored (isRevision):
    // a value changed; or, up to `askedUntilMs` (where the store already had the server's
    // answer), a sample the store has and the answer lacks, or one the answer has and the
    // store lacks. VictoriaMetrics does both: it answers a range lying wholly within its last
    // 30 s with nothing at all, and makes samples searchable seconds after their time. Past
    // `askedUntilMs` a sample is simply new. Both sorted by time.
    static std::optional<qint64> oldestRevision(std::span<const qint64> storedMs, std::span<const double> storedValues,
                                                std::span<const qint64> answerMs, std::span<const double> answerValues,
                                                const TimeRange &asked, std::optional<qint64> askedUntilMs);

private:
    qint64 m_learnedMs = 0;
};
