// SPDX-License-Identifier: GPL-3.0-or-later
#include "actions/sessioncomparison.h"

#include <algorithm>

namespace SessionComparison {

QString queryDifference(const DashboardDefinition &first, const DashboardDefinition &second)
{
    if (first.panels.size() != second.panels.size())
        return QStringLiteral("%1 panels against %2").arg(first.panels.size()).arg(second.panels.size());
    for (size_t p = 0; p < first.panels.size(); ++p) {
        const auto &a = first.panels[p].series;
        const auto &b = second.panels[p].series;
        for (size_t q = 0; q < std::max(a.size(), b.size()); ++q) {
            const QString left = q < a.size() ? a[q].query : QString();
            const QString right = q < b.size() ? b[q].query : QString();
            if (left != right)
                return QStringLiteral("panel \"%1\", series %2: \"%3\" against \"%4\"")
                    .arg(first.panels[p].title)
                    .arg(q + 1)
                    .arg(left, right);
        }
    }
    return {};
}

TimeRange runOf(const SessionContents &contents)
{
    const TimeRange recorded = contents.recordedRange();
    TimeRange run{contents.createdAtMs > 0 ? contents.createdAtMs : recorded.startMs,
                  std::max(recorded.endMs, contents.lastEventMs)};
    if (contents.trimmedTo) {
        run.startMs = std::max(run.startMs, contents.trimmedTo->startMs);
        run.endMs = std::min(run.endMs, contents.trimmedTo->endMs);
    }
    return run;
}

} // namespace SessionComparison
