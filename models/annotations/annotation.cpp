// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotations/annotation.h"

QString Annotation::sourceName(Source source)
{
    switch (source) {
    case Source::Manual:
        return QStringLiteral("manual");
    case Source::Action:
        return QStringLiteral("action");
    case Source::Scenario:
        return QStringLiteral("scenario");
    case Source::Detector:
        return QStringLiteral("detector");
    }
    return {};
}

std::optional<Annotation::Source> Annotation::sourceFromName(const QString &name)
{
    for (Source source : {Source::Manual, Source::Action, Source::Scenario, Source::Detector}) {
        if (name.trimmed().compare(sourceName(source), Qt::CaseInsensitive) == 0)
            return source;
    }
    return std::nullopt;
}

TimeRange Annotation::viewRange() const
{
    constexpr qint64 kPointPadMs = 150'000;
    if (!endMs)
        return {timeMs - kPointPadMs, timeMs + kPointPadMs};
    const qint64 length = *endMs - timeMs;
    const qint64 pad = length / 10;
    if (length + 2 * pad >= 2 * kPointPadMs)
        return {timeMs - pad, *endMs + pad};
    const qint64 middle = timeMs + length / 2;
    return {middle - kPointPadMs, middle + kPointPadMs};
}
