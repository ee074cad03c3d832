// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/postexporter.h"

#include "analysis/phasestatistics.h"
#include "base/filenames.h"
#include "base/format.h"
#include "dashboard/panelchecks.h"
#include "export/chartexporter.h"
#include "report/postexpectations.h"
#include "report/postfolder.h"
#include "report/postphases.h"
#include "store/samplestore.h"
#include "store/serieskey.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace {

// A phase's picture starts a little before the phase, so that what started it stands clear
// of the plot's left edge.
constexpr double kLeadFraction = 0.06;
constexpr qint64 kLeastLeadMs = 5000;

// The marks as a post's pictures draw them: accepted ones, each thing done labelled by its
// change alone ("rate 150 → 400 /s"); the post's action table says the rest.
std::vector<Annotation> pictureMarks(const std::vector<Annotation> &annotations)
{
    std::vector<Annotation> marks;
    for (Annotation annotation : annotations) {
        if (annotation.suggested || annotation.tags.contains(QStringLiteral("verdict")))
            continue;
        if (Phases::isDone(annotation))
            annotation.text = PostPhases::actionOf(annotation).change;
        marks.push_back(std::move(annotation));
    }
    return marks;
}

// The series of the headline panels (all panels when none is one), named "Panel: legend",
// for the phase statistics: the numbers the post's story is told with, not every gauge of the
// dashboard; and every check of the dashboard, each once.
struct Statistics
{
    std::vector<PhaseSeries> series;
    std::vector<PhaseStatistics::PhaseCheck> checks;
};

Statistics statisticsInput(const PostRun &run, const QStringList &headline)
{
    Statistics input;
    const DashboardDefinition &dashboard = run.snapshot.dashboard;
    QStringList judged;
    for (int p = 0; p < int(dashboard.panels.size()); ++p) {
        const PanelDefinition &panel = dashboard.panels[std::size_t(p)];
        if (panel.kind == PanelKind::Heatmap)
            continue; // its buckets are rows of a picture, not numbers for a table
        const std::vector<SeriesBinding> bindings = run.snapshot.seriesOf(p);
        const bool told = headline.isEmpty() || headline.contains(panel.title, Qt::CaseInsensitive);
        for (const SeriesBinding &binding : bindings) {
            if (!told)
                break;
            const SampleStore::Series *stored = run.store->series(binding.key);
            if (!stored || binding.query < 0 || binding.query >= int(panel.series.size()))
                continue;
            const SeriesDefinition &definition = panel.series[std::size_t(binding.query)];
            const QString unit = definition.axis == AxisSide::Right ? panel.rightUnit : panel.unit;
            const QString name =
                panel.title.isEmpty() ? binding.legend : QStringLiteral("%1: %2").arg(panel.title, binding.legend);
            input.series.push_back({name, unit, stored->timestampsMs(), stored->values()});
        }
        for (const PanelCheck &check : PanelChecks::of(dashboard, p, dashboard.checks)) {
            if (judged.contains(check.check.name))
                continue;
            judged << check.check.name;
            PhaseStatistics::PhaseCheck phaseCheck{check.check, {}};
            for (const SeriesBinding &binding : bindings) {
                const SampleStore::Series *stored = run.store->series(binding.key);
                if (stored && SeriesKey::matches(check.reference, binding.key))
                    phaseCheck.series.push_back({stored->timestampsMs(), stored->values()});
            }
            input.checks.push_back(std::move(phaseCheck));
        }
    }
    return input;
}

QString rangeWords(const PostDraft &draft, const TimeRange &range)
{
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(range.startMs, draft.timeZone);
    const QString zone = draft.zoneName(range.startMs);
    return QStringLiteral("on %1 from %2 to %3 %4 (%5)")
        .arg(start.toString(QStringLiteral("yyyy-MM-dd")), draft.timeText(range.startMs), draft.timeText(range.endMs),
             zone, Format::duration(range.length()));
}

} // namespace

PostExporter::PostExporter(ExportTheme theme) : m_theme(std::move(theme)) {}

Result<PostExporter::Planned> PostExporter::plan(const PostRun &run, const PostSettings &settings) const
{
    Planned planned;
    PostDraft &draft = planned.draft;
    const DashboardDefinition &dashboard = run.snapshot.dashboard;
    const QString dashboardTitle = dashboard.title.isEmpty() ? QStringLiteral("the dashboard") : dashboard.title;
    draft.timeZone = settings.timeZone;
    draft.date = settings.date.value_or(QDateTime::fromMSecsSinceEpoch(run.range.startMs, settings.timeZone).date());
    draft.title = !settings.title.isEmpty() ? settings.title
                  : !run.scenario.isEmpty()
                      ? run.scenario
                      : QStringLiteral("%1 on %2").arg(dashboardTitle, draft.date.toString(Qt::ISODate));
    draft.authors = settings.authors;
    draft.tags = settings.tags;
    draft.categories = settings.categories;
    draft.description =
        QStringLiteral("Chaoscope drafted this post from a run of the dashboard \"%1\"%2, %3, with "
                       "the data from %4.")
            .arg(dashboardTitle,
                 run.scenario.isEmpty() ? QString()
                                        : QStringLiteral(" steered by the scenario \"%1\"").arg(run.scenario),
                 rangeWords(draft, run.range), run.source.isEmpty() ? QStringLiteral("Prometheus") : run.source);

    const std::vector<Annotation> marks = pictureMarks(run.annotations);
    const auto figureOver = [&](const TimeRange &range, const QString &title) {
        ExportFigure figure = ExportFigure::fromDashboard(run.snapshot, nullptr, range, run.scope);
        figure.annotations = marks;
        figure.title = title;
        figure.source = run.source;
        figure.version = settings.version;
        figure.timeZone = settings.timeZone;
        return figure;
    };

    // The summary's picture: the headline panels (chosen, else marked in the dashboard, else all).
    QStringList headline = settings.headlinePanels;
    if (headline.isEmpty()) {
        for (const PanelDefinition &panel : dashboard.panels)
            if (panel.headline)
                headline << panel.title;
    }
    ExportFigure summary = figureOver(run.range, draft.title);
    if (const std::optional<QString> problem = summary.selectPanels(headline))
        return Error::make(Error::Kind::Invalid, QStringLiteral("headline panel: %1").arg(*problem));
    // Two or three panels side by side, rather than a row with a hole in it.
    if (summary.panels.size() <= 3)
        summary.columns = int(summary.panels.size());
    const QString dashboardSlug = FileNames::slug(dashboardTitle);
    draft.headline = {
        QStringLiteral("%1-whole-run.png").arg(dashboardSlug.isEmpty() ? QStringLiteral("dashboard") : dashboardSlug),
        QStringLiteral("%1: the whole run, %2").arg(dashboardTitle, rangeWords(draft, run.range))};
    planned.pictures.emplace_back(draft.headline.file, summary);

    // What was done, and the phases between.
    for (const Annotation &annotation : run.annotations) {
        if (Phases::isDone(annotation) && run.range.contains(annotation.timeMs))
            draft.actions.push_back(PostPhases::actionOf(annotation));
    }
    std::stable_sort(draft.actions.begin(), draft.actions.end(),
                     [](const PostDraft::Action &a, const PostDraft::Action &b) { return a.timeMs < b.timeMs; });
    const Statistics input = statisticsInput(run, headline);
    const PhaseStatisticsTable table =
        PhaseStatistics::compute(input.series, run.range, run.annotations, false, input.checks);
    for (PostPhases::Planned &phase : PostPhases::plan(run.range, run.annotations, table)) {
        PostDraft::Phase &drafted = phase.phase;
        drafted.picture.file = PostPhases::pictureName(drafted.number, drafted.title);
        drafted.picture.caption = QStringLiteral("Phase %1: %2").arg(drafted.number).arg(drafted.title);
        drafted.statistics = PostPhases::statisticsMarkdown(table, phase.column);
        const qint64 lead = std::max<qint64>(kLeastLeadMs, qint64(kLeadFraction * double(drafted.range.length())));
        const TimeRange shown{std::max(run.range.startMs, drafted.range.startMs - lead), drafted.range.endMs};
        planned.pictures.emplace_back(drafted.picture.file, figureOver(shown, drafted.picture.caption));
        draft.phases.push_back(std::move(drafted));
    }

    // Expected and Result: the scenario's expectations, then the dashboard's checks.
    const std::optional<ScenarioVerdict> verdict =
        run.verdict ? run.verdict : PostExpectations::verdictOf(run.annotations);
    if (verdict) {
        draft.expectations = PostExpectations::fromVerdict(*verdict);
        draft.verdict = verdict->summary();
    }
    for (PostDraft::Expectation &check :
         PostExpectations::fromChecks(run.snapshot, *run.store, run.range, run.annotations))
        draft.expectations.push_back(std::move(check));

    for (const Annotation &annotation : run.annotations) {
        const bool note = annotation.source == Annotation::Source::Manual ||
                          (annotation.source == Annotation::Source::Detector && !annotation.suggested);
        if (note && run.range.contains(annotation.timeMs))
            draft.notes.push_back({annotation.timeMs, annotation.text.simplified()});
    }

    // Runs compared: overlaid and side by side, and the run table.
    if (settings.compared.size() >= 2) {
        const std::vector<RunTable::Request> requests =
            settings.tableColumns.empty() ? RunTable::defaultRequests(dashboard) : settings.tableColumns;
        Result<RunTable> runTable = RunTable::compute(settings.compared, requests);
        if (!runTable)
            return Error::make(runTable.error().kind, QStringLiteral("run table: %1").arg(runTable.error().message));
        planned.runTable = runTable.value();
        QStringList titles;
        for (const ComparedRun &compared : settings.compared)
            titles << compared.title;
        const QString names = titles.join(QStringLiteral(", "));
        QStringList lines{QStringLiteral("#### Runs compared"), QString()};
        for (const auto view : {ExportFigure::CompareView::Overlay, ExportFigure::CompareView::SideBySide}) {
            const bool overlay = view == ExportFigure::CompareView::Overlay;
            ExportFigure figure = ExportFigure::fromRuns(settings.compared, view, settings.overlaid);
            if (!headline.isEmpty())
                (void)figure.selectPanels(headline);
            figure.title =
                overlay ? QStringLiteral("%1 overlaid").arg(names) : QStringLiteral("%1 side by side").arg(names);
            figure.source = run.source;
            figure.version = settings.version;
            figure.timeZone = settings.timeZone;
            const QString file =
                overlay ? QStringLiteral("runs-overlaid.png") : QStringLiteral("runs-side-by-side.png");
            const QString caption = overlay ? QStringLiteral("The runs %1 overlaid, each from its zero").arg(names)
                                            : QStringLiteral("The runs %1 side by side on the same scales").arg(names);
            lines << QStringLiteral("![%1](%2)").arg(caption, file) << QString();
            planned.pictures.emplace_back(file, figure);
        }
        lines << QStringLiteral("Each run's steady state, from its zero to its end unless given:") << QString()
              << planned.runTable->toMarkdown();
        draft.comparison = lines.join(QLatin1Char('\n'));
    }
    return planned;
}

Result<PostExporter::Written> PostExporter::write(const QString &folder, const PostRun &run,
                                                  const PostSettings &settings) const
{
    Result<Planned> planned = plan(run, settings);
    if (!planned)
        return planned.error();
    if (!QDir().mkpath(folder))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the folder %1").arg(folder));
    Written written;
    const ChartExporter exporter(*run.store, m_theme);
    const QDir dir(folder);
    for (const auto &[file, figure] : planned->pictures) {
        const Result<QString> picture = exporter.write(dir.filePath(file), figure, settings.size, settings.scale);
        if (!picture)
            return picture.error();
        written.pictures << picture.value();
    }
    const Result<PostFolder::Written> index = PostFolder::writeIndex(folder, planned->draft.toMarkdown());
    if (!index)
        return index.error();
    written.index = index->path;
    written.keptEdited = index->keptEdited;
    written.planned = std::move(planned).value();
    return written;
}
