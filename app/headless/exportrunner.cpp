// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless/exportrunner.h"

#include "actions/comparisonruns.h"
#include "annotations/annotationmodel.h"
#include "base/format.h"
#include "export/chartexporter.h"
#include "export/exportfigure.h"
#include "export/exporttheme.h"
#include "export/postexporter.h"
#include "fetching/dashboardpoller.h"
#include "prometheus/prometheusclient.h"
#include "report/runtable.h"
#include "settings/appsettings.h"
#include "store/samplestore.h"
#include "timeline/timewindow.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTimer>
#include <algorithm>
#include <cstdio>

namespace {

std::vector<Annotation> acceptedMarks(const AnnotationModel *model)
{
    std::vector<Annotation> marks;
    if (!model)
        return marks;
    for (const Annotation &annotation : model->annotations())
        if (!annotation.suggested)
            marks.push_back(annotation);
    return marks;
}

QString version()
{
    return QStringLiteral("Chaoscope %1").arg(QCoreApplication::applicationVersion());
}

} // namespace

ExportRunner::ExportRunner(Context context, ExportOptions options, qint64 afterMs, QObject *parent)
    : QObject(parent), m_context(std::move(context)), m_options(std::move(options)), m_afterMs(afterMs)
{
    if (m_context.client) {
        connect(m_context.client, &PrometheusClient::reachabilityChanged, this,
                [this](bool reachable, const QString &message) {
                    if (!reachable)
                        m_lastSourceError = message;
                });
    }
}

void ExportRunner::start()
{
    QTimer::singleShot(std::chrono::milliseconds(m_afterMs), this, &ExportRunner::finish);
}

void ExportRunner::finishAfterScenario(const QString &title, const ScenarioVerdict &verdict)
{
    m_scenarioTitle = title;
    m_verdict = verdict;
    finish();
}

Result<std::vector<ComparedRun>> ExportRunner::comparedRuns(const Context &context, const ExportOptions &options)
{
    const qint64 nowMs = context.window->now();
    std::vector<ComparedRun> runs;
    const auto thisRun = [&](const TimeRange &range, const QString &title) {
        ComparedRun run;
        run.title = title;
        run.store = context.store;
        run.snapshot = context.poller->snapshot();
        run.annotations = acceptedMarks(context.annotations);
        run.range = range;
        return run;
    };
    QStringList named; // what a run is called in a message: the window as given, or its title
    if (!options.compare.isEmpty()) {
        const QStringList windows = options.compare.split(QLatin1Char(','));
        for (const QString &window : windows) {
            const Result<TimeRange> parsed = ExportCommandLine::parseRange(window, nowMs);
            if (!parsed)
                return Error::make(Error::Kind::Invalid, QStringLiteral("--compare: %1").arg(parsed.error().message));
            runs.push_back(thisRun(parsed.value(), QString()));
            named << window;
        }
    } else if (context.comparison) {
        TimeRange range = context.window->range();
        if (!options.range.isEmpty()) {
            const Result<TimeRange> parsed = ExportCommandLine::parseRange(options.range, nowMs);
            if (!parsed)
                return Error::make(Error::Kind::Invalid, QStringLiteral("--range: %1").arg(parsed.error().message));
            range = parsed.value();
        }
        if (context.recordedRun) // recordings: this one first, each from its own start
            runs.push_back(thisRun(*context.recordedRun, context.runTitle));
        for (ComparedRun &run : context.comparison->runs(range)) {
            if (run.annotations.empty() && run.store == context.store)
                run.annotations = acceptedMarks(context.annotations); // a variable's run: the same marks
            runs.push_back(std::move(run));
        }
        for (const ComparedRun &run : runs)
            named << run.title;
    }
    if (runs.size() < 2)
        return Error::make(Error::Kind::Invalid, QStringLiteral("a comparison needs 2 to %1 runs, not %2")
                                                     .arg(ExportCommandLine::kMostRuns)
                                                     .arg(runs.size()));
    const SteadyState steady = options.steady.isEmpty() ? SteadyState{} : SteadyState::parse(options.steady).value();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        ComparedRun &run = runs[i];
        if (i < std::size_t(options.compareTitles.size()) && !options.compareTitles[qsizetype(i)].trimmed().isEmpty())
            run.title = options.compareTitles[qsizetype(i)].trimmed();
        // Each run counted from its zero: its start, or the moment it is compared at.
        run.zeroMs = run.range.startMs;
        if (!options.compareAlign.isEmpty()) {
            // One text for every run, or one per run ("rate,in-flight").
            const QStringList texts = options.compareAlign.split(QLatin1Char(','));
            const QString text = texts.value(qsizetype(i), texts.constLast()).trimmed();
            const std::optional<qint64> zero = run.firstMarkWith(text);
            if (!zero)
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("--compare-align: no annotation in %1 contains \"%2\"")
                                       .arg(named.value(qsizetype(i)), text));
            run.zeroMs = *zero;
        }
        run.steady = run.steadyFrom(steady);
        if (run.title.isEmpty())
            run.title = QStringLiteral("run %1").arg(i + 1);
    }
    return runs;
}

std::optional<QString> ExportRunner::buildFigure(const Context &context, const ExportOptions &options,
                                                 ExportFigure *figure)
{
    const qint64 nowMs = context.window->now();
    TimeRange range = context.window->range();
    if (!options.range.isEmpty()) {
        const Result<TimeRange> parsed = ExportCommandLine::parseRange(options.range, nowMs);
        if (!parsed)
            return QStringLiteral("--range: %1").arg(parsed.error().message);
        range = parsed.value();
    }
    if (options.comparesRuns()) {
        const Result<std::vector<ComparedRun>> runs = comparedRuns(context, options);
        if (!runs)
            return runs.error().message;
        *figure = ExportFigure::fromRuns(
            runs.value(), options.overlay ? ExportFigure::CompareView::Overlay : ExportFigure::CompareView::SideBySide,
            options.overlaid);
    } else {
        *figure = ExportFigure::fromDashboard(*context.poller, context.annotations, range);
    }
    if (const std::optional<QString> problem = figure->selectPanels(options.panels))
        return QStringLiteral("--panel: %1").arg(*problem);
    QStringList queryNames;
    for (const AnnotationQueryDefinition &query : context.poller->dashboard().annotationQueries)
        queryNames << query.name;
    if (const std::optional<QString> problem = figure->selectAnnotations(options.marks, queryNames))
        return QStringLiteral("--annotations: %1").arg(*problem);
    figure->title = options.title;
    figure->subtitle = options.subtitle;
    figure->caption = options.caption;
    figure->source = context.source;
    figure->version = version();
    return std::nullopt;
}

QString ExportRunner::noDataReason() const
{
    if (m_context.offline)
        return QStringLiteral("the recording has no samples in the chosen time range");
    DashboardPoller::Stats stats = m_context.poller->stats();
    if (m_context.comparison) {
        const DashboardPoller::Stats more = m_context.comparison->stats();
        stats.succeeded += more.succeeded;
        stats.failed += more.failed;
        stats.sourceDown += more.sourceDown;
    }
    if (stats.succeeded == 0 && stats.failed == 0)
        return QStringLiteral("no query was answered within %1").arg(Format::duration(m_afterMs));
    if (stats.succeeded == 0 && stats.sourceDown == stats.failed)
        return QStringLiteral("Prometheus stayed unreachable: %1").arg(m_lastSourceError);
    if (stats.succeeded == 0)
        return QStringLiteral("every query failed (%1 failures)").arg(stats.failed);
    return QStringLiteral("the queries returned no samples in the chosen time range");
}

TimeRange ExportRunner::runRange() const
{
    if (!m_options.range.isEmpty()) {
        if (const Result<TimeRange> parsed = ExportCommandLine::parseRange(m_options.range, m_context.window->now()))
            return parsed.value();
    }
    if (m_context.recordedRun)
        return *m_context.recordedRun;
    return {m_context.startedMs, m_context.window->now()};
}

std::optional<ExportRunner::Failure> ExportRunner::writePicture()
{
    ExportFigure figure;
    if (const std::optional<QString> problem = buildFigure(m_context, m_options, &figure))
        return Failure{*problem, 2};
    if (!figure.hasData(*m_context.store))
        return Failure{QStringLiteral("nothing to draw: %1").arg(noDataReason()), 2};

    const ExportTheme theme = *ExportTheme::named(m_options.theme);
    const ChartExporter exporter(*m_context.store, theme);
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    // "{panel}" in the name: one file per panel; otherwise one file with every chosen panel.
    std::vector<ExportFigure> figures;
    if (m_options.path.contains(QLatin1String("{panel}")) && figure.panels.size() > 1) {
        for (std::size_t p = 0; p < figure.panels.size(); ++p) {
            ExportFigure single = figure;
            single.panels = {figure.panels[p]};
            for (std::size_t w = 0; w < single.compare.size(); ++w)
                if (!figure.compare[w].panels.empty())
                    single.compare[w].panels = {figure.compare[w].panels[p]};
            figures.push_back(std::move(single));
        }
    } else {
        figures.push_back(figure);
    }
    for (const ExportFigure &one : figures) {
        const QString title = one.panels.size() == 1 ? one.panels.front().title : QStringLiteral("dashboard");
        const QString path = ChartExporter::expandPlaceholders(m_options.path, nowMs, title);
        const Result<QString> written = exporter.write(path, one, m_options.size, m_options.scale);
        if (!written)
            return Failure{written.error().message, 3};
        std::printf("export: %s\n", qPrintable(written.value()));
    }
    return std::nullopt;
}

std::optional<ExportRunner::Failure> ExportRunner::writeRunTable()
{
    const Result<std::vector<ComparedRun>> runs = comparedRuns(m_context, m_options);
    if (!runs)
        return Failure{runs.error().message, 2};
    const Result<std::vector<RunTable::Request>> requests =
        m_options.tableColumns.isEmpty()
            ? Result<std::vector<RunTable::Request>>(RunTable::defaultRequests(m_context.poller->dashboard()))
            : RunTable::parseRequests(m_options.tableColumns);
    if (!requests)
        return Failure{QStringLiteral("--table-columns: %1").arg(requests.error().message), 2};
    const Result<RunTable> table = RunTable::compute(runs.value(), requests.value());
    if (!table)
        return Failure{QStringLiteral("--table-columns: %1").arg(table.error().message), 2};
    const bool csv = m_options.runTablePath.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    const QByteArray bytes = (csv ? table->toCsv() : table->toMarkdown()).toUtf8();
    const QFileInfo info(m_options.runTablePath);
    if (!QDir().mkpath(info.absolutePath()))
        return Failure{QStringLiteral("cannot create the folder %1").arg(info.absolutePath()), 3};
    QSaveFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Failure{QStringLiteral("cannot write %1: %2").arg(info.absoluteFilePath(), file.errorString()), 3};
    std::printf("run table: %s\n", qPrintable(info.absoluteFilePath()));
    return std::nullopt;
}

std::optional<ExportRunner::Failure> ExportRunner::writePost()
{
    PostRun run;
    run.snapshot = m_context.poller->snapshot();
    run.store = m_context.store;
    run.annotations = acceptedMarks(m_context.annotations);
    run.scope = AnnotationScope(run.snapshot.dashboard);
    run.range = runRange();
    run.source = m_context.source;
    run.scenario = m_scenarioTitle.isEmpty() ? m_context.scenarioTitle : m_scenarioTitle;
    run.verdict = m_verdict ? m_verdict : m_context.scenarioVerdict;
    PostSettings settings;
    settings.title = m_options.postTitle;
    settings.authors = m_options.postAuthors.isEmpty() ? AppSettings::postAuthors() : m_options.postAuthors;
    settings.tags = m_options.postTags;
    settings.headlinePanels = m_options.headlinePanels;
    settings.version = version();
    if (m_options.comparesRuns()) {
        const Result<std::vector<ComparedRun>> runs = comparedRuns(m_context, m_options);
        if (!runs)
            return Failure{runs.error().message, 2};
        settings.compared = runs.value();
        settings.overlaid = m_options.overlaid;
        if (!m_options.tableColumns.isEmpty())
            settings.tableColumns = RunTable::parseRequests(m_options.tableColumns).value();
    }
    if (!ExportFigure::fromDashboard(run.snapshot, nullptr, run.range, run.scope).hasData(*m_context.store))
        return Failure{QStringLiteral("--export-post: nothing to draw: %1").arg(noDataReason()), 2};
    const PostExporter exporter(*ExportTheme::named(m_options.theme));
    const Result<PostExporter::Written> written = exporter.write(m_options.postFolder, run, settings);
    if (!written)
        return Failure{QStringLiteral("--export-post: %1").arg(written.error().message),
                       written.error().kind == Error::Kind::Io ? 3 : 2};
    for (const QString &picture : written->pictures)
        std::printf("post picture: %s\n", qPrintable(picture));
    std::printf("post: %s\n", qPrintable(written->index));
    if (written->keptEdited)
        std::fprintf(stderr,
                     "chaoscope: export-post: index.md was edited since Chaoscope wrote it; it is kept as it is, "
                     "and the new draft is %s\n",
                     qPrintable(written->index));
    return std::nullopt;
}

void ExportRunner::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (!m_context.offline)
        m_context.poller->stop();
    if (m_context.comparison)
        m_context.comparison->stop();
    std::optional<Failure> failure;
    if (!m_options.path.isEmpty())
        failure = writePicture();
    if (!failure && !m_options.runTablePath.isEmpty())
        failure = writeRunTable();
    if (!failure && !m_options.postFolder.isEmpty())
        failure = writePost();
    std::fflush(stdout);
    if (failure) {
        std::fprintf(stderr, "chaoscope: export: %s\n", qPrintable(failure->message));
        QCoreApplication::exit(failure->exitCode);
        return;
    }
    QCoreApplication::exit(m_verdict ? m_verdict->exitCode() : 0);
}
