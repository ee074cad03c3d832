// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionreplay.h"

#include "annotations/annotationmodel.h"
#include "dashboard/dashboardvariables.h"
#include "dashboard/loader/dashboardloader.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <algorithm>
#include <map>

namespace SessionReplay {
namespace {

// Whether a recorded series is of the values of variables chosen last. Anything not a query's
// series (load tester values, formulas), or of a query the dashboard does not have, is kept.
bool isOfCurrentValues(const QString &key, const DashboardDefinition &dashboard)
{
    const std::optional<SeriesKey::Parsed> parsed = SeriesKey::parse(key);
    if (!parsed || parsed->panel >= int(dashboard.panels.size()) ||
        parsed->query >= int(dashboard.panels[std::size_t(parsed->panel)].series.size()))
        return true;
    const SeriesKey::Variables values = DashboardVariables::keyValues(
        dashboard.panels[std::size_t(parsed->panel)].series[std::size_t(parsed->query)].query,
        dashboard.variableDefinitions);
    // A key without values (recorded before variables could change) is kept as it is.
    return values.empty() || parsed->variables.empty() ||
           SeriesKey::isAskedWith(key, parsed->panel, parsed->query, values);
}

} // namespace

DashboardDefinition dashboardFromKeys(const SessionContents &contents)
{
    DashboardDefinition dashboard;
    dashboard.title = contents.dashboardName.isEmpty() ? QStringLiteral("Recording") : contents.dashboardName;
    std::map<int, int> queriesPerPanel;
    for (const SessionSeries &series : contents.series) {
        // Keys of queries' series only; absurd numbers (a damaged file) are not a panel.
        const std::optional<SeriesKey::Parsed> parsed = SeriesKey::parse(series.key);
        if (!parsed || parsed->panel > 200 || parsed->query > 200)
            continue;
        int &count = queriesPerPanel[parsed->panel];
        count = std::max(count, parsed->query + 1);
    }
    if (queriesPerPanel.empty())
        return dashboard;
    dashboard.panels.resize(std::size_t(queriesPerPanel.rbegin()->first) + 1);
    for (std::size_t p = 0; p < dashboard.panels.size(); ++p) {
        PanelDefinition &panel = dashboard.panels[p];
        panel.title = QStringLiteral("Panel %1").arg(p + 1);
        const auto it = queriesPerPanel.find(int(p));
        const int queries = it == queriesPerPanel.end() ? 0 : it->second;
        for (int q = 0; q < queries; ++q) {
            SeriesDefinition series;
            series.query = QStringLiteral("query %1").arg(q + 1);
            panel.series.push_back(series);
        }
    }
    return dashboard;
}

Loaded load(const SessionContents &contents, SampleStore *store, AnnotationModel *annotations)
{
    Loaded loaded;
    if (!contents.dashboardJson.isEmpty()) {
        DashboardLoader::LoadResult result = DashboardLoader::fromJson(contents.dashboardJson.toUtf8());
        loaded.issues = result.issues;
        if (result.usable)
            loaded.dashboard = std::move(result.dashboard);
        else
            loaded.dashboard = dashboardFromKeys(contents);
    } else {
        loaded.dashboard = dashboardFromKeys(contents);
        loaded.issues.append(DashboardIssue{QString(), QStringLiteral("the recording holds no readable dashboard; "
                                                                      "its panels are shown untitled")});
    }
    // The values last chosen: the dashboard record carries those chosen before it.
    for (auto it = contents.variableChanges.begin(); it != contents.variableChanges.end(); ++it) {
        auto &variables = loaded.dashboard.variableDefinitions;
        const auto variable = std::find_if(variables.begin(), variables.end(),
                                           [&](const VariableDefinition &v) { return v.name == it.key(); });
        if (variable != variables.end())
            variable->value = it.value();
    }

    // A recording is kept whole, however long ago or however long it ran.
    store->setRetentionMs(0);
    for (const SessionSeries &series : contents.series) {
        // Series asked with other values of a variable stay in the file (Save as keeps them);
        // the panels show those of the values last chosen, as the run did.
        if (!isOfCurrentValues(series.key, loaded.dashboard))
            continue;
        store->merge(series.key, series.labels, series.timestampsMs, series.values);
        loaded.seriesOrder << series.key;
    }
    for (const Annotation &annotation : contents.annotations) {
        if (!annotations->restore(annotation))
            annotations->add(annotation); // an id already taken: keep the note, under a new id
    }
    loaded.recorded = contents.recordedRange();
    loaded.windowMs = contents.windowMs > 0 ? contents.windowMs : loaded.dashboard.windowMs;
    // The picture last seen: the range on screen when the app quit; after a crash, the live
    // window up to the newest thing recorded.
    loaded.nowMs = std::max(loaded.recorded.endMs, contents.lastEventMs);
    if (contents.lastView && contents.lastViewLive) {
        loaded.nowMs = contents.lastView->endMs;
        loaded.windowMs = contents.lastView->length();
    } else if (contents.lastView) {
        loaded.zoomed = contents.lastView;
    }
    if (loaded.nowMs <= 0)
        loaded.nowMs = contents.createdAtMs;
    return loaded;
}

} // namespace SessionReplay
