// SPDX-License-Identifier: GPL-3.0-or-later
#include "checks/check.h"

#include "base/format.h"

#include <QRegularExpression>
#include <cmath>
#include <utility>

bool CheckCondition::holds(double value) const
{
    switch (op) {
    case Op::Below:
        return value < threshold;
    case Op::AtMost:
        return value <= threshold;
    case Op::Above:
        return value > threshold;
    case Op::AtLeast:
        return value >= threshold;
    }
    return false;
}

bool CheckCondition::isWorse(double a, double b) const
{
    return op == Op::Below || op == Op::AtMost ? a > b : a < b;
}

QString CheckCondition::symbol() const
{
    switch (op) {
    case Op::Below:
        return QStringLiteral("<");
    case Op::AtMost:
        return QStringLiteral("≤");
    case Op::Above:
        return QStringLiteral(">");
    case Op::AtLeast:
        return QStringLiteral("≥");
    }
    return {};
}

QString CheckCondition::brokenSymbol() const
{
    switch (op) {
    case Op::Below:
        return QStringLiteral("≥");
    case Op::AtMost:
        return QStringLiteral(">");
    case Op::Above:
        return QStringLiteral("≤");
    case Op::AtLeast:
        return QStringLiteral("<");
    }
    return {};
}

QString CheckCondition::describe(const QString &unit) const
{
    return symbol() + QLatin1Char(' ') + Format::value(threshold, unit);
}

std::optional<CheckCondition> CheckCondition::parse(const QString &text)
{
    // static: compiling it on every call is costly
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*(<=|>=|<|>|≤|≥)\\s*([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double threshold = match.captured(2).toDouble(&ok);
    if (!ok || !std::isfinite(threshold))
        return std::nullopt;
    const QString op = match.captured(1);
    CheckCondition condition;
    condition.threshold = threshold;
    condition.op = op == QLatin1String("<")                                 ? Op::Below
                   : op == QLatin1String("<=") || op == QStringLiteral("≤") ? Op::AtMost
                   : op == QLatin1String(">")                               ? Op::Above
                                                                            : Op::AtLeast;
    return condition;
}

bool Check::appliesIn(const QString &phase) const
{
    return during.isEmpty() || during.contains(phase);
}

QString Check::describe() const
{
    QString text = QStringLiteral("%1: %2 %3").arg(name, subject(), condition.describe(unit));
    if (forMs > 0)
        text += QStringLiteral(" for %1").arg(Format::duration(forMs));
    if (settleMs > 0)
        text += QStringLiteral(", after %1 of settling").arg(Format::duration(settleMs));
    if (!during.isEmpty())
        text += QStringLiteral(" during %1").arg(during.join(QStringLiteral(", ")));
    return text;
}

QString Check::severityName(Severity severity)
{
    return severity == Severity::Warning ? QStringLiteral("warning") : QStringLiteral("critical");
}

CheckTracker::CheckTracker(Check check) : m_check(std::move(check)) {}

CheckTracker::PhaseResult &CheckTracker::phaseResult(const QString &phase)
{
    for (PhaseResult &result : m_phases) {
        if (result.phase == phase)
            return result;
    }
    m_phases.push_back({phase, 0, std::nullopt, 0, false, std::nullopt});
    return m_phases.back();
}

bool CheckTracker::observe(qint64 timeMs, std::optional<double> value, const QString &phase)
{
    if (timeMs < m_check.graceMs || !m_check.appliesIn(phase)) {
        m_brokenSinceMs.reset(); // a break does not carry over a time the check does not judge
        return false;
    }
    if (m_phase != phase) {
        m_phase = phase;
        m_phaseStartMs = timeMs;
        m_brokeWhileSettling = false;
        m_holdingSinceMs.reset();
    }
    if (!value || !std::isfinite(*value)) {
        m_brokenSinceMs.reset();
        return false;
    }
    const bool holds = m_check.condition.holds(*value);
    if (timeMs - m_phaseStartMs < m_check.settleMs) {
        // Settling: not judged, but whether and when it came to hold is kept for the verdict.
        m_brokenSinceMs.reset();
        if (!holds) {
            m_brokeWhileSettling = true;
            m_holdingSinceMs.reset();
        } else if (!m_holdingSinceMs) {
            m_holdingSinceMs = timeMs;
        }
        return false;
    }
    if (m_brokeWhileSettling) {
        // Holding since during the settling, or from this first judged sample on (a drain
        // that ends on the settling's last second still came to hold, after all of it).
        if (m_holdingSinceMs)
            phaseResult(phase).heldAfterMs = *m_holdingSinceMs - m_phaseStartMs;
        else if (holds)
            phaseResult(phase).heldAfterMs = timeMs - m_phaseStartMs;
        m_brokeWhileSettling = false; // said once per phase
    }
    ++m_samples;
    m_last = *value;
    if (!m_worst || m_check.condition.isWorse(*value, *m_worst)) {
        m_worst = *value;
        m_worstAtMs = timeMs;
    }
    PhaseResult &inPhase = phaseResult(phase);
    ++inPhase.samples;
    if (!inPhase.worst || m_check.condition.isWorse(*value, *inPhase.worst)) {
        inPhase.worst = *value;
        inPhase.worstAtMs = timeMs;
    }
    if (holds) {
        m_brokenSinceMs.reset();
        return false;
    }
    if (!m_brokenSinceMs)
        m_brokenSinceMs = timeMs;
    if (timeMs - *m_brokenSinceMs < m_check.forMs)
        return false;
    inPhase.failed = true; // each phase it stayed broken in is named, not only the first
    if (failed())
        return false;
    m_failedAtMs = timeMs;
    m_failedValue = *value;
    return true;
}

bool CheckTracker::passed() const
{
    if (m_check.severity == Check::Severity::Warning)
        return true;
    return !failed() && m_samples > 0;
}

QString CheckTracker::failureReason() const
{
    QString text = QStringLiteral("%1 %2 %3 %4")
                       .arg(m_check.name, Format::value(m_failedValue, m_check.unit), m_check.condition.brokenSymbol(),
                            Format::value(m_check.condition.threshold, m_check.unit));
    if (m_check.forMs > 0)
        text += QStringLiteral(" for %1").arg(Format::duration(m_check.forMs));
    return text;
}

QString CheckTracker::outcome() const
{
    if (m_samples == 0)
        return QStringLiteral("no samples: the query returned nothing while it applied");
    const QString worst =
        QStringLiteral("worst %1 at +%2").arg(Format::value(*m_worst, m_check.unit), Format::duration(m_worstAtMs));
    if (failed())
        return QStringLiteral("FAILED at +%1: %2 · %3").arg(Format::duration(*m_failedAtMs), failureReason(), worst);
    return QStringLiteral("held · %1").arg(worst);
}
