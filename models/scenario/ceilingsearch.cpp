// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/ceilingsearch.h"

#include "base/format.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

std::optional<double> mean(const std::vector<double> &values)
{
    if (values.empty())
        return std::nullopt;
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(qRound(share * 100));
}

constexpr int kMaxFailedConfirms = 3;

} // namespace

QString CeilingSearchPlan::describe() const
{
    return QStringLiteral("find the ceiling from %1 in steps of %2 (every %3)")
        .arg(Format::number(from), Format::number(step), Format::compactDuration(everyMs));
}

QString CeilingSearchPlan::problem() const
{
    if (from <= 0 || step <= 0)
        return QStringLiteral("\"from\" and \"step\" must be numbers > 0");
    if (until < from)
        return QStringLiteral("\"until\" is below \"from\"");
    if ((until - from) / step > 1000)
        return QStringLiteral("more than 1000 stairs: take a larger \"step\"");
    if (everyMs <= 0 || settleMs < 0 || settleMs + 3000 > everyMs)
        return QStringLiteral("\"every\" must leave at least 3s after \"settle\" to be judged");
    if (tolerance <= 0 || tolerance >= 1 || resolution <= 0 || resolution >= 1)
        return QStringLiteral("\"tolerance\" and \"resolution\" are shares between 0 and 1, like 0.05");
    if (sentQuery.isEmpty() || completedQuery.isEmpty())
        return QStringLiteral("\"sent\" and \"completed\" need a query");
    return {};
}

StairResult judgeStair(const CeilingSearchPlan &plan, double rate, const StairSamples &samples)
{
    StairResult stair;
    stair.rate = rate;
    stair.sent = mean(samples.sent);
    stair.completed = mean(samples.completed);
    stair.latencySeconds = mean(samples.latencySeconds);
    if (samples.pending.size() >= 2)
        stair.pendingGrowth = samples.pending.back() - samples.pending.front();

    QStringList reasons;
    if (!stair.sent || !stair.completed) {
        reasons << QStringLiteral("no samples of %1")
                       .arg(!stair.sent ? QStringLiteral("sent/s") : QStringLiteral("completed/s"));
    } else {
        if (*stair.sent < rate * (1 - plan.tolerance))
            reasons << QStringLiteral("sent only %1 of the rate").arg(percent(*stair.sent / rate));
        if (*stair.completed < *stair.sent * (1 - plan.tolerance))
            reasons << QStringLiteral("completed %1 of sent").arg(percent(*stair.completed / *stair.sent));
    }
    // A queue that grows is the first sign of a load above the ceiling, well before completed/s
    // falls behind by the tolerance: pending may grow by a fifth of it.
    const double allowedGrowth = std::max(10.0, plan.tolerance / 5 * rate * double(samples.pending.size()));
    if (stair.pendingGrowth && *stair.pendingGrowth > allowedGrowth)
        reasons << QStringLiteral("pending grew by %1").arg(Format::value(*stair.pendingGrowth, QString()));
    if (plan.latencyBelowSeconds && stair.latencySeconds && *stair.latencySeconds >= *plan.latencyBelowSeconds)
        reasons << QStringLiteral("p99 %1 ≥ %2")
                       .arg(Format::value(*stair.latencySeconds, QStringLiteral("s")),
                            Format::value(*plan.latencyBelowSeconds, QStringLiteral("s")));
    stair.held = reasons.isEmpty();
    stair.reason = reasons.join(QStringLiteral(", "));
    return stair;
}

QString StairResult::describe(const QString &rateUnit) const
{
    QStringList parts;
    if (completed) {
        QString text = QStringLiteral("completed %1").arg(Format::value(*completed, QStringLiteral("/s")));
        if (sent && *sent > 0)
            text += QStringLiteral(" (%1)").arg(percent(*completed / *sent));
        parts << text;
    }
    if (latencySeconds && std::isfinite(*latencySeconds))
        parts << QStringLiteral("p99 %1").arg(Format::value(*latencySeconds, QStringLiteral("s")));
    if (pendingGrowth)
        parts << QStringLiteral("pending %1%2")
                     .arg(*pendingGrowth >= 0 ? QStringLiteral("+") : QString(),
                          Format::value(*pendingGrowth, QString()));
    // What a label cut short on a timeline still says: which stair, and whether it held.
    const QString role = this->role == Role::Confirm  ? QStringLiteral(" (confirm)")
                         : this->role == Role::Refine ? QStringLiteral(" (refine)")
                                                      : QString();
    QString text = QStringLiteral("%1%2 %3").arg(Format::value(rate, rateUnit), role,
                                                 held ? QStringLiteral("held") : QStringLiteral("FAILED"));
    if (!held)
        text += QStringLiteral(": %1").arg(reason);
    if (!parts.isEmpty())
        text += QStringLiteral(" · ") + parts.join(QStringLiteral(" · "));
    return text;
}

QString CeilingResult::summary(const QString &rateUnit) const
{
    const QString most = bestCompleted ? QStringLiteral("; the system completed at most %1")
                                             .arg(Format::value(*bestCompleted, QStringLiteral("/s")))
                                       : QString();
    const QString computedText =
        computed ? QStringLiteral(" (computed: %1)").arg(Format::value(*computed, rateUnit)) : QString();
    if (reachedUntil && ceiling)
        return QStringLiteral("at least %1: every stair up to \"until\" held%2%3")
            .arg(Format::value(*ceiling, rateUnit), most, computedText);
    if (!ceiling) {
        const StairResult *first = stairs.empty() ? nullptr : &stairs.front();
        return first ? QStringLiteral("no stair held: %1 already failed (%2)")
                           .arg(Format::value(first->rate, rateUnit), first->reason)
                     : QStringLiteral("no stair ran");
    }
    return QStringLiteral("ceiling %1, %2%3%4")
        .arg(Format::value(*ceiling, rateUnit),
             confirmed ? QStringLiteral("confirmed") : QStringLiteral("not confirmed"), most, computedText);
}

CeilingStairs::Next CeilingStairs::next() const
{
    if (!m_firstBad) {
        const double rate = m_lastGood ? *m_lastGood + m_plan.step : m_plan.from;
        if (rate > m_plan.until + 1e-9)
            return {true, 0, StairResult::Role::Climb};
        return {false, rate, StairResult::Role::Climb};
    }
    if (!m_lastGood || m_failedConfirms >= kMaxFailedConfirms)
        return {true, 0, StairResult::Role::Climb};
    const double gap = *m_firstBad - *m_lastGood;
    const double middle = std::round((*m_firstBad + *m_lastGood) / 2);
    if (gap > std::max(1.0, m_plan.resolution * *m_lastGood) && middle > *m_lastGood && middle < *m_firstBad)
        return {false, middle, StairResult::Role::Refine};
    if (!m_result.confirmed)
        return {false, *m_lastGood, StairResult::Role::Confirm};
    return {true, 0, StairResult::Role::Climb};
}

void CeilingStairs::record(const StairResult &stair)
{
    m_result.stairs.push_back(stair);
    if (stair.completed)
        m_result.bestCompleted = std::max(m_result.bestCompleted.value_or(0), *stair.completed);
    if (stair.role == StairResult::Role::Confirm) {
        if (stair.held) {
            m_result.confirmed = true;
        } else {
            // The last good stair did not hold a second time: it was luck or a warming cache.
            // The next lower one that held is the candidate, and is confirmed in its turn.
            ++m_failedConfirms;
            m_firstBad = stair.rate;
            m_lastGood.reset();
            for (const StairResult &earlier : m_result.stairs) {
                if (earlier.held && earlier.rate < stair.rate)
                    m_lastGood = std::max(m_lastGood.value_or(0), earlier.rate);
            }
        }
    } else if (stair.held) {
        m_lastGood = std::max(m_lastGood.value_or(0), stair.rate);
    } else {
        m_firstBad = std::min(m_firstBad.value_or(stair.rate), stair.rate);
    }
    m_result.ceiling = m_lastGood;
    m_result.reachedUntil = !m_firstBad && m_lastGood && *m_lastGood + m_plan.step > m_plan.until + 1e-9;
}
