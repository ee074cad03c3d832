// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard/panelchecks.h"

#include "dashboard/seriesreference.h"

#include <QRegularExpression>
#include <algorithm>

namespace PanelChecks {

std::vector<PanelCheck> of(const DashboardDefinition &dashboard, int panel, const std::vector<Check> &checks,
                           const QString &label)
{
    std::vector<PanelCheck> shown;
    if (panel < 0 || panel >= int(dashboard.panels.size()))
        return shown;
    static const QRegularExpression space(QStringLiteral("\\s+")); // static: compiling it is costly
    const auto bare = [](QString query) { return query.remove(space); };
    const std::vector<SeriesDefinition> &series = dashboard.panels[std::size_t(panel)].series;
    for (const Check &check : checks) {
        const QString wanted = bare(check.query);
        for (int i = 0; i < int(series.size()); ++i) {
            const SeriesDefinition &definition = series[std::size_t(i)];
            const bool judged = check.query.isEmpty() ? !definition.id.isEmpty() && definition.id == check.series
                                                      : !definition.query.isEmpty() && bare(definition.query) == wanted;
            if (!judged)
                continue;
            PanelCheck judgedHere{check, SeriesReference::of(panel, i, definition), definition.axis, {}, false};
            if (judgedHere.check.unit.isEmpty()) // its values read as the axis it is drawn on
                judgedHere.check.unit = definition.axis == AxisSide::Right
                                            ? dashboard.panels[std::size_t(panel)].rightUnit
                                            : dashboard.panels[std::size_t(panel)].unit;
            judgedHere.label =
                QStringLiteral("%1 %2").arg(check.name, judgedHere.check.condition.describe(judgedHere.check.unit));
            if (!label.isEmpty())
                judgedHere.label = label + QLatin1Char(' ') + judgedHere.label;
            shown.push_back(std::move(judgedHere));
            break; // one line per check and panel
        }
    }
    return shown;
}

std::vector<PanelLevel> levels(const std::vector<PanelCheck> &checks, const std::vector<bool> &failed)
{
    std::vector<PanelLevel> lines;
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const PanelCheck &check = checks[i];
        const bool broken = check.failedLive || (i < failed.size() && failed[i]);
        const auto same = std::find_if(lines.begin(), lines.end(), [&](const PanelLevel &line) {
            return line.value == check.check.condition.threshold && line.label == check.label &&
                   line.axis == check.axis;
        });
        if (same == lines.end())
            lines.push_back({check.check.condition.threshold, check.label, check.axis, broken});
        else
            same->failed = same->failed || broken;
    }
    return lines;
}

} // namespace PanelChecks
