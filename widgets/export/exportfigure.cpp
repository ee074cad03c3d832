// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/exportfigure.h"

#include "analysis/phases.h"
#include "annotations/annotationmodel.h"
#include "fetching/dashboardpoller.h"
#include "fetching/dashboardsnapshot.h"
#include "report/postphases.h"
#include "store/samplestore.h"

#include <QSet>
#include <algorithm>

ExportFigure ExportFigure::fromDashboard(const DashboardPoller &poller, const AnnotationModel *annotations,
                                         const TimeRange &range)
{
    const DashboardSnapshot now = poller.snapshot();
    return fromDashboard(now, annotations, range, AnnotationScope(now.dashboard));
}

ExportFigure ExportFigure::fromDashboard(const DashboardSnapshot &now, const AnnotationModel *annotations,
                                         const TimeRange &range, const AnnotationScope &scope)
{
    ExportFigure figure;
    figure.annotationScope = scope;
    const DashboardDefinition &dashboard = now.dashboard;
    figure.columns = qMax(1, dashboard.columns);
    figure.range = range;
    for (int i = 0; i < int(dashboard.panels.size()); ++i) {
        const PanelDefinition &definition = dashboard.panels[std::size_t(i)];
        Panel panel{definition.title,
                    definition.unit,
                    definition.rightUnit,
                    {},
                    i,
                    definition.kind,
                    definition.thresholds,
                    definition.buckets,
                    PanelChecks::of(dashboard, i, dashboard.checks)};
        for (const SeriesBinding &binding : now.seriesOf(i)) {
            if (binding.query < 0 || binding.query >= int(definition.series.size()))
                continue;
            panel.series.push_back({binding.key, binding.legend, definition.series[std::size_t(binding.query)]});
        }
        figure.panels.push_back(std::move(panel));
    }
    // A detector's suggestion nobody accepted is a guess, not something that happened: it
    // stays out of pictures meant for others.
    if (annotations)
        for (const Annotation &annotation : annotations->annotations())
            if (!annotation.suggested)
                figure.annotations.push_back(annotation);
    return figure;
}

namespace {

// The series an overlay draws of a panel: those named (by id or legend) it has, else those of
// its first series' definition (every label set of its query).
void keepOverlaid(ExportFigure::Panel &panel, const QStringList &overlaid)
{
    if (panel.series.empty())
        return;
    const auto named = [&](const ExportFigure::Series &series) {
        return std::any_of(overlaid.begin(), overlaid.end(), [&](const QString &name) {
            return series.definition.id == name.trimmed() ||
                   series.name.compare(name.trimmed(), Qt::CaseInsensitive) == 0;
        });
    };
    if (std::any_of(panel.series.begin(), panel.series.end(), named)) {
        std::erase_if(panel.series, [&](const ExportFigure::Series &series) { return !named(series); });
        return;
    }
    const SeriesDefinition first = panel.series.front().definition;
    std::erase_if(panel.series, [&](const ExportFigure::Series &series) {
        const SeriesDefinition &d = series.definition;
        return d.query != first.query || d.id != first.id || d.derive != first.derive ||
               d.loadTester != first.loadTester || d.legend != first.legend;
    });
}

} // namespace

ExportFigure ExportFigure::fromRuns(const std::vector<ComparedRun> &runs, CompareView view, const QStringList &overlaid)
{
    if (runs.empty())
        return {};
    const ComparedRun &first = runs.front();
    ExportFigure figure =
        fromDashboard(first.snapshot, nullptr, first.range, AnnotationScope(first.snapshot.dashboard));
    figure.compareView = view;
    for (const ComparedRun &run : runs) {
        Window window;
        window.range = run.range;
        window.zeroMs = run.zeroMs;
        window.title = run.title;
        window.store = run.store;
        window.panels = fromDashboard(run.snapshot, nullptr, run.range, AnnotationScope(run.snapshot.dashboard)).panels;
        // Each thing done labelled by its change alone ("rate 150 → 400 /s"): runs side by side
        // or overlaid have room for little more, and who applied it is no part of the comparison.
        std::vector<Annotation> marks;
        for (Annotation annotation : run.annotations) {
            if (annotation.suggested)
                continue;
            if (Phases::isDone(annotation))
                annotation.text = PostPhases::actionOf(annotation).change;
            marks.push_back(std::move(annotation));
        }
        window.annotations = std::move(marks);
        figure.compare.push_back(std::move(window));
    }
    if (view == CompareView::Overlay) {
        // Cells of several runs cannot lie on each other; a stat's sparklines can, as lines.
        // One quantity per run and panel: six runs of five series each would be thirty lines.
        const auto dropHeatmaps = [&](std::vector<Panel> &panels) {
            std::erase_if(panels, [](const Panel &panel) { return panel.kind == PanelKind::Heatmap; });
            for (Panel &panel : panels) {
                panel.kind = PanelKind::Lines;
                keepOverlaid(panel, overlaid);
            }
        };
        dropHeatmaps(figure.panels);
        for (Window &window : figure.compare)
            dropHeatmaps(window.panels);
    }
    return figure;
}

std::optional<QString> ExportFigure::selectPanels(const QStringList &titles)
{
    if (titles.isEmpty())
        return std::nullopt;
    std::vector<Panel> chosen;
    for (const QString &title : titles) {
        auto found = std::find_if(panels.begin(), panels.end(), [&](const Panel &panel) {
            return panel.title.compare(title.trimmed(), Qt::CaseInsensitive) == 0;
        });
        if (found == panels.end()) {
            QStringList existing;
            for (const Panel &panel : panels)
                existing << QStringLiteral("\"%1\"").arg(panel.title);
            return QStringLiteral("no panel is titled \"%1\"; the panels are %2")
                .arg(title, existing.isEmpty() ? QStringLiteral("(none)") : existing.join(QStringLiteral(", ")));
        }
        chosen.push_back(*found);
    }
    panels = std::move(chosen);
    // A run of its own draws the same panels, found by their titles.
    for (Window &window : compare) {
        if (window.panels.empty())
            continue;
        std::vector<Panel> own;
        for (const Panel &panel : panels) {
            const auto found = std::find_if(window.panels.begin(), window.panels.end(), [&](const Panel &candidate) {
                return candidate.title.compare(panel.title, Qt::CaseInsensitive) == 0;
            });
            if (found != window.panels.end()) {
                own.push_back(*found);
            } else { // not in this run: drawn empty, "No data"
                Panel empty = panel;
                empty.series.clear();
                own.push_back(std::move(empty));
            }
        }
        window.panels = std::move(own);
    }
    return std::nullopt;
}

bool ExportFigure::kindShown(const Annotation &annotation) const
{
    if (!shownSources)
        return true;
    if (annotation.source == Annotation::Source::Query && !shownSources->contains(Annotation::Source::Query))
        return shownQueries.contains(annotation.author);
    return shownSources->contains(annotation.source);
}

std::optional<QString> ExportFigure::selectAnnotations(const QStringList &kinds, const QStringList &queryNames)
{
    if (kinds.isEmpty())
        return std::nullopt;
    QSet<Annotation::Source> sources;
    QSet<QString> queries; // with Source::Query in `sources`: every query
    for (const QString &given : kinds) {
        const QString kind = given.trimmed();
        if (kind.startsWith(QLatin1String("query:"), Qt::CaseInsensitive)) {
            const QString name = kind.mid(6).trimmed();
            if (!queryNames.contains(name)) {
                return QStringLiteral("no annotation query is named \"%1\"; the dashboard's are %2")
                    .arg(name, queryNames.isEmpty() ? QStringLiteral("(none)") : queryNames.join(QStringLiteral(", ")));
            }
            queries.insert(name);
            continue;
        }
        const std::optional<Annotation::Source> source = Annotation::sourceFromName(kind);
        if (!source) {
            QStringList names;
            for (const Annotation::Source known : Annotation::allSources())
                names << Annotation::sourceName(known);
            return QStringLiteral("\"%1\" is not a kind of mark: %2 or query:NAME")
                .arg(kind, names.join(QStringLiteral(", ")));
        }
        sources.insert(*source);
    }
    const bool everyQuery = sources.contains(Annotation::Source::Query);
    // The marks left out stay in the figure: undrawn, they still divide the run into the
    // phases its checks are judged in, as on screen and in the post.
    shownSources = sources;
    shownQueries = queries;
    for (const QString &name : everyQuery ? queryNames : QStringList(queries.begin(), queries.end()))
        annotationScope.setQueryShown(name, true);
    return std::nullopt;
}

QStringList ExportFigure::queryShortNames() const
{
    QStringList names;
    for (const Panel &panel : panels) {
        for (const Series &series : panel.series) {
            const SeriesDefinition &d = series.definition;
            QString name = !d.id.isEmpty() ? d.id : !d.derive.isEmpty() ? d.derive : d.query.simplified();
            if (name.isEmpty())
                name = series.name;
            if (name.size() > 60)
                name = name.left(59) + QChar(0x2026);
            if (!name.isEmpty() && !names.contains(name))
                names << name;
        }
    }
    return names;
}

bool ExportFigure::hasData(const SampleStore &store) const
{
    const auto anyIn = [](const SampleStore &in, const std::vector<Panel> &drawn, const TimeRange &r) {
        for (const Panel &panel : drawn) {
            for (const Series &series : panel.series) {
                const auto [first, last] = in.indexRange(series.key, r);
                if (last > first)
                    return true;
            }
        }
        return false;
    };
    if (!isComparison())
        return anyIn(store, panels, range);
    return std::any_of(compare.begin(), compare.end(), [&](const Window &window) {
        return anyIn(window.store ? *window.store : store, panelsOf(window), window.range);
    });
}
