// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionreplay.h"

#include "annotations/annotationmodel.h"
#include "dashboard/dashboardvariables.h"
#include "dashboard/loader/dashboardloader.h"
#include "store/samplestore.h"

#include <algorithm>
#include <map>

namespace SessionReplay {
namespace {

// Keys are "p<panel>/q<query>/" + the variable values the query was asked with + labels.
bool isOfCurrentValues(const QString &key, const DashboardDefinition &dashboard)
{
    const QStringList parts = key.split(QLatin1Char('/'));
    bool panelOk = false, queryOk = false;
    const int panel = parts.value(0).mid(1).toInt(&panelOk);
    const int query = parts.value(1).mid(1).toInt(&queryOk);
    if (parts.size() < 3 || !panelOk || !queryOk || panel < 0 || panel >= int(dashboard.panels.size()) || query < 0 ||
        query >= int(dashboard.panels[std::size_t(panel)].series.size()))
        return true; // not a query's series (load tester values), or a dashboard that lost its panels
    const QString segment = DashboardVariables::keySegment(
        dashboard.panels[std::size_t(panel)].series[std::size_t(query)].query, dashboard.variableDefinitions);
    const QString prefix = parts[0] + QLatin1Char('/') + parts[1] + QLatin1Char('/');
    // A key without values (recorded before variables could change) is kept as it is.
    return segment.isEmpty() || !parts[2].startsWith(QLatin1Char('$')) || key.startsWith(prefix + segment);
}

} // namespace

DashboardDefinition dashboardFromKeys(const SessionContents &contents)
{
    DashboardDefinition dashboard;
    dashboard.title = contents.dashboardName.isEmpty() ? QStringLiteral("Recording") : contents.dashboardName;
    std::map<int, int> queriesPerPanel;
    for (const SessionSeries &series : contents.series) {
        const QStringList parts = series.key.split(QLatin1Char('/'));
        bool panelOk = false, queryOk = false;
        const int panel = parts.value(0).mid(1).toInt(&panelOk);
        const int query = parts.value(1).mid(1).toInt(&queryOk);
        // Keys are written by the poller; anything else (or absurd numbers) is not a panel.
        if (parts.size() < 3 || !panelOk || !queryOk || panel < 0 || panel > 200 || query < 0 || query > 200)
            continue;
        int &count = queriesPerPanel[panel];
        count = std::max(count, query + 1);
    }
    if (queriesPerPanel.empty())
        return dashboard;
    dashboard.panels.resize(std::size_t(queriesPerPanel.rbegin()->first + 1));
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
