// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/comparedrun.h"

#include "base/durationgrammar.h"

#include <algorithm>

TimeRange ComparedRun::steadyFrom(qint64 startOffsetMs, std::optional<qint64> endOffsetMs) const
{
    const qint64 start = std::max(range.startMs, zeroMs + startOffsetMs);
    const qint64 end = endOffsetMs ? std::min(range.endMs, zeroMs + *endOffsetMs) : range.endMs;
    return {start, end};
}

std::optional<qint64> ComparedRun::firstMarkWith(const QString &text) const
{
    std::optional<qint64> first;
    for (const Annotation &annotation : annotations) {
        if (range.contains(annotation.timeMs) && annotation.text.contains(text, Qt::CaseInsensitive) &&
            (!first || annotation.timeMs < *first))
            first = annotation.timeMs;
    }
    return first;
}

Result<SteadyState> SteadyState::parse(const QString &text)
{
    const QString trimmed = text.trimmed();
    const auto offset = [](const QString &part) -> std::optional<qint64> {
        QString value = part.trimmed();
        if (value.startsWith(QLatin1Char('+')))
            value.remove(0, 1);
        const qint64 ms = value.isEmpty() ? -1 : DurationGrammar::parseMs(value);
        return ms >= 0 ? std::optional<qint64>(ms) : std::nullopt;
    };
    const QString start = trimmed.section(QLatin1Char('/'), 0, 0);
    const QString end = trimmed.section(QLatin1Char('/'), 1);
    SteadyState steady;
    const std::optional<qint64> startMs = offset(start);
    if (!startMs)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("\"%1\" is not an offset from the run's zero: use +30s, +1m or 0s").arg(start));
    steady.startMs = *startMs;
    if (!end.trimmed().isEmpty()) {
        const std::optional<qint64> endMs = offset(end);
        if (!endMs)
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("\"%1\" is not an offset from the run's zero: use +5m").arg(end));
        if (*endMs <= *startMs)
            return Error::make(Error::Kind::Invalid, QStringLiteral("\"%1\" ends before it starts").arg(trimmed));
        steady.endMs = endMs;
    }
    return steady;
}
