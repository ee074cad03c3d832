// SPDX-License-Identifier: GPL-3.0-or-later
#include "fetching/historytext.h"

#include "base/format.h"

namespace HistoryText {

QString time(qint64 ms, qint64 originMs)
{
    const qint64 offset = ms - originMs;
    if (offset == 0)
        return QStringLiteral("0");
    return offset < 0 ? QLatin1Char('-') + Format::compactDuration(-offset) : Format::compactDuration(offset);
}

QString range(const TimeRange &range, qint64 originMs)
{
    return time(range.startMs, originMs) + QChar(0x2013) + time(range.endMs, originMs);
}

QString step(qint64 stepMs)
{
    return Format::compactDuration(stepMs);
}

} // namespace HistoryText
